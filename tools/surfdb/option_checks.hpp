// Checks of option values, run by CLI11 while it parses, so a bad value is a usage error (exit 2)
// whose message names the option: "--face: must be at least 1, not 0". Each check accepts text
// that is not a number at all and leaves it to CLI11's own conversion error.
#pragma once

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>

namespace surfdb::cli {

inline std::optional<double> option_number(const std::string& text) {
  double x = 0;
  const char* end = text.data() + text.size();
  const char* begin = text.data() + (!text.empty() && text[0] == '+' ? 1 : 0);
  const auto [ptr, ec] = std::from_chars(begin, end, x);
  if (ptr != end) return std::nullopt;
  if (ec == std::errc::result_out_of_range) return HUGE_VAL;  // reported as too large, not accepted
  if (ec != std::errc()) return std::nullopt;
  return x;
}

/// A finite number: "nan", "inf" and overflowing values are refused.
inline CLI::Validator finite_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const auto x = option_number(text);
        if (x && !std::isfinite(*x)) return "must be a finite number, not " + text;
        return {};
      },
      "FINITE");
}

/// A finite number greater than zero.
inline CLI::Validator positive_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const auto x = option_number(text);
        if (x && !std::isfinite(*x)) return "must be a finite number, not " + text;
        if (x && !(*x > 0)) return "must be positive, not " + text;
        return {};
      },
      "POSITIVE");
}

/// A whole number of at least `low`.
inline CLI::Validator at_least(long long low, std::string hint = {}) {
  return CLI::Validator(
      [low, hint](std::string& text) -> std::string {
        const auto x = option_number(text);
        if (x && !std::isfinite(*x)) return "must be a whole number, not " + text;
        if (x && *x < static_cast<double>(low))
          return "must be at least " + std::to_string(low) + ", not " + text + hint;
        return {};
      },
      "INT>=" + std::to_string(low));
}

}  // namespace surfdb::cli
