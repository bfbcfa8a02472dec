// The OpenCASCADE side of a CadAssembly: each part's shape in its own coordinates, shared by the
// structure reader (cad_assembly.cpp), the mass properties (part_mass_properties.cpp) and the
// instances' contacts (instance_contacts.cpp).
#pragma once

#include <GProp_GProps.hxx>
#include <TopoDS_Shape.hxx>
#include <gp_Trsf.hxx>

#include <filesystem>
#include <string>
#include <vector>

#include "surfdb/libsurfdb/cad_assembly.hpp"

namespace surfdb {

struct CadAssembly::Impl {
  std::filesystem::path path;
  std::string kind;  // "step" or "iges"
  std::vector<std::string> warnings;
  std::vector<AssemblyPart> parts;
  std::vector<TopoDS_Shape> shapes;  // per part, in part coordinates
  std::vector<AssemblyInstance> instances;
};

/// The placement as OpenCASCADE's transformation.
gp_Trsf transformation(const Placement& p);

/// True when every shell of the solid closes (each edge shared by two faces): it bounds a volume.
bool closed_solid(const TopoDS_Shape& solid);

/// The volume integrals (unit density, file length unit) of the shape's closed solids, by
/// BRepGProp's adaptive integration to 1e-12 relative; `solids` counts them.
GProp_GProps closed_solids_properties(const TopoDS_Shape& shape, std::uint32_t& solids);

}  // namespace surfdb
