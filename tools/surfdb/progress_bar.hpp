// A one-line progress bar on standard error, drawn only when standard error is a terminal. Jobs
// longer than a second show an estimate of the time left.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace surfdb::cli {

class ProgressBar {
 public:
  /// `shown` false: never drawn (a quiet command).
  explicit ProgressBar(std::string label, bool shown = true);
  ~ProgressBar();  // ends the line if anything was drawn (a failed job's bar stays where it stopped)
  void update(std::uint64_t done, std::uint64_t total);
  /// The job is complete: draws 100% and ends the line, so what is logged next starts a line.
  void finish();

 private:
  void draw(int permille);

  std::string label_;
  bool enabled_;
  bool drawn_ = false;
  int last_permille_ = -1;
  std::size_t last_width_ = 0;  // characters of the last drawing, blanked by a shorter one
  std::chrono::steady_clock::time_point start_;
};

}  // namespace surfdb::cli
