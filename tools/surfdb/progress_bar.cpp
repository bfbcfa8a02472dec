#include "progress_bar.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace surfdb::cli {

namespace {
// Below this many seconds of work an estimate of the time left is noise.
constexpr double kEtaAfterSeconds = 1.0;
}  // namespace

ProgressBar::ProgressBar(std::string label, bool shown)
    : label_(std::move(label)), enabled_(shown && ::isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()) {}

ProgressBar::~ProgressBar() {
  if (drawn_) std::fputc('\n', stderr);
}

void ProgressBar::update(std::uint64_t done, std::uint64_t total) {
  if (!enabled_ || total == 0) return;
  const int permille = static_cast<int>(1000 * std::min(done, total) / total);
  if (permille == last_permille_) return;
  draw(permille);
}

void ProgressBar::finish() {
  if (!enabled_) return;
  if (last_permille_ != 1000) draw(1000);
  std::fputc('\n', stderr);
  std::fflush(stderr);
  drawn_ = false;
}

void ProgressBar::draw(int permille) {
  last_permille_ = permille;
  constexpr int width = 40;
  const int filled = permille * width / 1000;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  char eta[48] = "";
  if (permille > 0 && permille < 1000 && elapsed >= kEtaAfterSeconds)
    std::snprintf(eta, sizeof(eta), ", ETA %.0f s", std::ceil(elapsed * (1000 - permille) / permille));
  char line[512];
  const int n = std::snprintf(line, sizeof(line), "%s [%.*s%*s] %5.1f%%  %.1f s%s", label_.c_str(), filled,
                              "########################################", width - filled, "", permille / 10.0,
                              elapsed, eta);
  const std::size_t length = n < 0 ? 0 : std::min<std::size_t>(static_cast<std::size_t>(n), sizeof(line) - 1);
  std::fprintf(stderr, "\r%s%*s", line, static_cast<int>(last_width_ > length ? last_width_ - length : 0), "");
  std::fflush(stderr);
  last_width_ = length;
  drawn_ = true;
}

}  // namespace surfdb::cli
