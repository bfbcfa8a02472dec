// `surfdb convert ASSEMBLY --list-parts [--json]`: an assembly's product structure, its parts with
// their solids, faces, boxes and volumes, and every instance with its placement.
#pragma once

#include <nlohmann/json.hpp>

#include "surfdb/libsurfdb/cad_assembly.hpp"

namespace surfdb::cli {

/// The structure as JSON: file, kind, length_unit, parts [{name, product_name, solids, faces,
/// volume, density (kg/m^3, the file's material, or null), bounding_box {min, max}, instances [names]}], instances [{name, part, path, position,
/// rotation (3 x 3 rows, part axes to assembly axes)}]; lengths in length_unit.
nlohmann::ordered_json assembly_structure_json(const CadAssembly& assembly);

/// Prints the structure on standard output: JSON, or lines of text.
void list_parts(const CadAssembly& assembly, bool json);

}  // namespace surfdb::cli
