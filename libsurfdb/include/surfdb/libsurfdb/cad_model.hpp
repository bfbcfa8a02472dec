// CAD input: a STEP, IGES, BREP or NURBS-text file loaded once, its faces numbered 1..F in the
// order of TopExp::MapShapes(shape, TopAbs_FACE). No OpenCASCADE type crosses this header.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "surfdb/formats/surface_set.hpp"
#include "surfdb/libsurfdb/surface_source.hpp"

namespace surfdb {

/// The CAD file cannot be used: missing, unreadable, not understood, no faces, bad face index.
class CadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct FaceInfo {
  std::uint32_t index = 0;   // 1-based
  std::string surface_type;  // "Plane", "BSplineSurface", ...
  ParamBounds bounds;        // BRepTools::UVBounds, with periods where the face closes
  FaceOrientation orientation = FaceOrientation::forward;
  double area = 0;           // square length units
  std::vector<std::uint32_t> adjacent;  // faces sharing an edge with this one, ascending
};

class CadModel {
 public:
  /// Reads the file with OpenCASCADE's plain readers at default settings, chosen by extension:
  /// .step/.stp, .igs/.iges, .brep/.brp, .nurbs (docs/nurbs-text.md). Throws CadError.
  static CadModel load(const std::filesystem::path& path);

  std::uint32_t face_count() const;
  /// The file's name without directories, its kind ("step", "iges", "brep", "nurbs") and unit.
  std::string file_name() const;
  std::string kind() const;
  LengthUnit unit() const;
  /// What the reader could not use or had to assume (entities it could not read or convert, an
  /// IGES unit name that contradicts its flag): the part may differ from what was drawn.
  const std::vector<std::string>& warnings() const;
  /// Throws CadError when `index` is not in 1..face_count().
  FaceInfo face_info(std::uint32_t index) const;
  /// The trimmed face's axis-aligned box in length units (BRepBndLib::AddOptimal, or Add where the
  /// exact extrema fail). Throws CadError for a bad index.
  Box3 bounding_box(std::uint32_t index) const;
  std::unique_ptr<SurfaceSource> face(std::uint32_t index) const;
  /// The part's mass frame (SetMassFrame, surface_set.hpp): its closed solids' volume, centre of
  /// mass, principal axes and moments at unit density, in its coordinates and unit, from
  /// BRepGProp's volume integrals; none when it has no closed solid of positive volume (a sheet).
  std::optional<SetMassFrame> mass_frame() const;

 private:
  friend struct CadModelFaces;  // the faces themselves, for meshing (src/cad_model_faces.hpp)
  struct Impl;
  std::shared_ptr<const Impl> impl_;
};

}  // namespace surfdb
