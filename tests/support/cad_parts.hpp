// The public CAD parts beside the repository (../shared/cad, as the new-user trial finds them) and
// their faces as OpenCASCADE's plain readers give them; tests that use them skip without them.
#pragma once

#include <IGESControl_Reader.hxx>
#include <STEPControl_Reader.hxx>
#include <TopExp.hxx>
#include <TopTools_IndexedMapOfShape.hxx>
#include <doctest/doctest.h>

#include <filesystem>

namespace surfdb::test {

inline const std::filesystem::path kCadDir = SURFDB_CAD_DIR;

inline bool have_cad_parts() { return std::filesystem::exists(kCadDir / "README.md"); }

/// The part's faces, numbered as CadModel numbers them.
inline TopTools_IndexedMapOfShape read_faces(const std::filesystem::path& path) {
  IGESControl_Reader iges;
  STEPControl_Reader step;
  XSControl_Reader& reader = path.extension() == ".igs" ? static_cast<XSControl_Reader&>(iges) : step;
  REQUIRE(reader.ReadFile(path.c_str()) == IFSelect_RetDone);
  reader.TransferRoots();
  TopTools_IndexedMapOfShape faces;
  TopExp::MapShapes(reader.OneShape(), TopAbs_FACE, faces);
  return faces;
}

}  // namespace surfdb::test
