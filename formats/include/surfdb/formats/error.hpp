// The exception thrown at file boundaries when a surface database is missing, unreadable or damaged.
#pragma once

#include <stdexcept>
#include <string>

namespace surfdb {

/// A file or its contents cannot be used. The message names the file and the problem.
class FormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace surfdb
