// A CAD part as the commands read it: what its reader lost or assumed is logged as warnings, or
// refused with --strict.
#pragma once

#include <spdlog/spdlog.h>

#include <stdexcept>
#include <string>

#include "surfdb/libsurfdb/cad_model.hpp"

namespace surfdb::cli {

inline CadModel load_part(const std::string& path, bool strict) {
  CadModel model = CadModel::load(path);
  for (const std::string& w : model.warnings()) {
    if (strict) throw std::runtime_error(w + " (--strict)");
    spdlog::warn("{}", w);
  }
  return model;
}

}  // namespace surfdb::cli
