// The OpenCASCADE faces behind a CadModel, for the library's own code that needs the B-rep itself
// (meshing, the parts of assemblies); not installed, so no OpenCASCADE type reaches the public headers.
#pragma once

#include <TopoDS_Face.hxx>
#include <TopoDS_Shape.hxx>

#include <memory>
#include <string>

#include "surfdb/libsurfdb/cad_model.hpp"

namespace surfdb {

struct CadModelFaces {
  /// Face `index` (1-based) with its orientation and location in the part. Throws CadError for a
  /// bad index.
  static const TopoDS_Face& face(const CadModel& model, std::uint32_t index);
  /// The whole part.
  static const TopoDS_Shape& shape(const CadModel& model);
  /// A model of a shape already in memory (a part of an assembly), `name` standing for its file
  /// name. Throws CadError when the shape has no faces.
  static CadModel from_shape(const TopoDS_Shape& shape, const std::string& name, const std::string& kind, LengthUnit unit);
  /// The faces and their neighbours of `shape` put into `impl` (load's last step).
  static CadModel from_shape(const TopoDS_Shape& shape, std::shared_ptr<CadModel::Impl> impl);
};

}  // namespace surfdb
