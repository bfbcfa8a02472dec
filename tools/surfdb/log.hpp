// The command's one logging header (spdlog behind it). Include from .cpp files only.
// Messages go to standard error, so standard output stays clean for CSV and JSON.
#pragma once

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace surfdb::cli {

/// Sets up the stderr logger; `verbose` lowers the level from info to debug.
inline void init_logging(bool verbose) {
  auto logger = spdlog::stderr_color_mt("surfdb");
  logger->set_pattern("%^%l%$: %v");
  logger->set_level(verbose ? spdlog::level::debug : spdlog::level::info);
  spdlog::set_default_logger(logger);
}

}  // namespace surfdb::cli
