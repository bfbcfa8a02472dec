// The commands that read CAD files. They live in their own program, surfdb-cad, the only one that
// loads OpenCASCADE (some 100 ms of symbol binding at every start); `surfdb` lists them in its
// help and hands their command lines over to surfdb-cad (cad_launcher.hpp).
#pragma once

#include <array>

namespace surfdb::cli {

/// A CAD command's name and its line in `surfdb --help`.
struct CadCommand {
  const char* name;
  const char* description;
};

inline constexpr CadCommand kConvertCommand{
    "convert", "Sample a CAD face, NURBS surface or analytic surface into a surface database"};
inline constexpr CadCommand kMeshCommand{
    "mesh", "Triangulate a CAD part, or read an STL file, into a mesh file (.mesh)"};
inline constexpr CadCommand kAssembleCommand{
    "assemble",
    "Turn a CAD assembly (STEP, IGES) into bodies: parts, mass properties, placements and a scenario that runs"};
inline constexpr std::array<CadCommand, 3> kCadCommands{kConvertCommand, kMeshCommand, kAssembleCommand};

}  // namespace surfdb::cli
