#include "batch_input.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <stdexcept>

namespace surfdb::cli {

template <std::size_t N>
BatchInput<N>::BatchInput(const std::string& path) : name_(path == "-" ? "standard input" : path) {
  if (path == "-") {
    in_ = &std::cin;
  } else {
    if (std::error_code ec; std::filesystem::is_directory(path, ec))
      throw std::runtime_error(path + ": is a directory, not a file of numbers");
    errno = 0;
    file_ = std::make_unique<std::ifstream>(path);
    if (!*file_)
      throw std::runtime_error(path + ": cannot open for reading" + (errno ? std::string(": ") + std::strerror(errno) : ""));
    in_ = file_.get();
  }
}

template <std::size_t N>
bool BatchInput<N>::next(std::array<double, N>& row) {
  std::string line;
  while (std::getline(*in_, line)) {
    ++line_no_;
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    for (char& c : line)
      if (c == ',' || c == '\t' || c == '\r') c = ' ';
    std::size_t count = 0, at = 0;
    bool bad = false;
    while (true) {
      at = line.find_first_not_of(' ', at);
      if (at == std::string::npos) break;
      const std::size_t end = std::min(line.find(' ', at), line.size());
      double x = 0;
      const auto [ptr, ec] = std::from_chars(line.data() + at, line.data() + end, x);
      if (ec != std::errc() || ptr != line.data() + end || count == N) {
        bad = true;
        break;
      }
      if (!std::isfinite(x))
        throw std::runtime_error(name_ + ":" + std::to_string(line_no_) + ": '" + line.substr(at, end - at) +
                                 "' is not a finite number");
      row[count++] = x;
      at = end;
    }
    if (count == 0 && !bad) continue;  // blank or comment
    if (bad || count != N)
      throw std::runtime_error(name_ + ":" + std::to_string(line_no_) + ": expected " +
                               std::to_string(N) + " numbers separated by commas or blanks");
    return true;
  }
  return false;
}

template class BatchInput<2>;
template class BatchInput<3>;

}  // namespace surfdb::cli
