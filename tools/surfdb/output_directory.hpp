// An output directory that the command makes: the levels it had to create are removed again when
// they are still empty as the command ends, by an error or by a signal, so an interrupted or
// refused run leaves nothing that was not there. One at a time per process (`simulate`'s OUTDIR).
#pragma once

#include <unistd.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace surfdb::cli {
namespace detail {
inline constexpr int kMaxCreatedLevels = 8;
inline char g_created_levels[kMaxCreatedLevels][4096];  // the deepest last
inline std::atomic<int> g_created_count{0};
}  // namespace detail

/// Removes the levels the live OutputDirectory made, deepest first, each only if empty.
/// Async-signal-safe (rmdir over fixed buffers): for the signal handler.
inline void remove_empty_output_levels() noexcept {
  for (int k = detail::g_created_count.load(std::memory_order_acquire) - 1; k >= 0; --k)
    ::rmdir(detail::g_created_levels[k]);
}

class OutputDirectory {
 public:
  /// Makes `dir` and its missing parents; throws std::runtime_error naming it when it cannot.
  explicit OutputDirectory(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> missing;
    std::error_code ec;
    for (std::filesystem::path p = std::filesystem::absolute(dir).lexically_normal();
         !p.empty() && !std::filesystem::exists(std::filesystem::symlink_status(p, ec)) && p != p.parent_path();
         p = p.parent_path())
      missing.push_back(p);
    std::filesystem::create_directories(dir, ec);
    if (!std::filesystem::is_directory(dir))
      throw std::runtime_error("cannot create output directory " + dir.string() + ": " +
                               (ec ? ec.message() : "a file of that name exists"));
    int count = 0;
    for (auto p = missing.rbegin(); p != missing.rend() && count < detail::kMaxCreatedLevels; ++p) {
      const std::string text = p->string();
      if (text.size() >= sizeof detail::g_created_levels[0]) break;
      std::memcpy(detail::g_created_levels[count], text.c_str(), text.size() + 1);
      ++count;
    }
    detail::g_created_count.store(count, std::memory_order_release);
  }
  ~OutputDirectory() {
    remove_empty_output_levels();
    detail::g_created_count.store(0, std::memory_order_release);
  }
  OutputDirectory(const OutputDirectory&) = delete;
  OutputDirectory& operator=(const OutputDirectory&) = delete;
};

}  // namespace surfdb::cli
