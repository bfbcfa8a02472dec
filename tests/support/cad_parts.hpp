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
  TopoDS_Shape shape;
  if (path.extension() == ".igs") {
    IGESControl_Reader reader;
    REQUIRE(reader.ReadFile(path.c_str()) == IFSelect_RetDone);
    reader.TransferRoots();
    shape = reader.OneShape();
  } else {
    STEPControl_Reader reader;
    REQUIRE(reader.ReadFile(path.c_str()) == IFSelect_RetDone);
    reader.TransferRoots();
    shape = reader.OneShape();
  }
  TopTools_IndexedMapOfShape faces;
  TopExp::MapShapes(shape, TopAbs_FACE, faces);
  return faces;
}

}  // namespace surfdb::test
