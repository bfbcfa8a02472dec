// The OpenCASCADE faces behind a CadModel, for the library's own code that needs the B-rep itself
// (meshing); not installed, so no OpenCASCADE type reaches the public headers.
#pragma once

#include <TopoDS_Face.hxx>

#include "surfdb/libsurfdb/cad_model.hpp"

namespace surfdb {

struct CadModelFaces {
  /// Face `index` (1-based) with its orientation and location in the part. Throws CadError for a
  /// bad index.
  static const TopoDS_Face& face(const CadModel& model, std::uint32_t index);
};

}  // namespace surfdb
