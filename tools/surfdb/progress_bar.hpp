// A one-line progress bar on standard error, drawn only when standard error is a terminal.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace surfdb::cli {

class ProgressBar {
 public:
  explicit ProgressBar(std::string label);
  ~ProgressBar();  // ends the line if anything was drawn
  void update(std::uint64_t done, std::uint64_t total);

 private:
  std::string label_;
  bool enabled_;
  bool drawn_ = false;
  int last_permille_ = -1;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace surfdb::cli
