// Reads rows of numbers, one per line, from a file or standard input ("-"): comma- or
// blank-separated, blank lines and '#' comments skipped. A malformed line is an error naming it.
#pragma once

#include <array>
#include <fstream>
#include <istream>
#include <memory>
#include <string>

namespace surfdb::cli {

template <std::size_t N>
class BatchInput {
 public:
  explicit BatchInput(const std::string& path);
  /// The next row; false at the end. Throws std::runtime_error for a malformed line.
  bool next(std::array<double, N>& row);

 private:
  std::string name_;
  std::unique_ptr<std::ifstream> file_;
  std::istream* in_;
  std::size_t line_no_ = 0;
};

}  // namespace surfdb::cli
