#include "progress_bar.hpp"

#include <unistd.h>

#include <cstdio>

namespace surfdb::cli {

ProgressBar::ProgressBar(std::string label)
    : label_(std::move(label)), enabled_(::isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()) {}

ProgressBar::~ProgressBar() {
  if (drawn_) std::fputc('\n', stderr);
}

void ProgressBar::update(std::uint64_t done, std::uint64_t total) {
  if (!enabled_ || total == 0) return;
  const int permille = static_cast<int>(1000 * done / total);
  if (permille == last_permille_) return;
  last_permille_ = permille;
  constexpr int width = 40;
  const int filled = permille * width / 1000;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::fprintf(stderr, "\r%s [%.*s%*s] %5.1f%%  %.1f s", label_.c_str(), filled,
               "########################################", width - filled, "", permille / 10.0,
               elapsed);
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace surfdb::cli
