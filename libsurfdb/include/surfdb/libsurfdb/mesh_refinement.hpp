// Refining a triangle mesh until no edge is longer than a bound, for areal contact: the polygonal
// model's elements are the triangles, so a flat face meshed as two triangles would carry its force
// at two points. An edge is split at its midpoint wherever it is too long, the same in both its
// triangles, so a closed, consistently oriented mesh stays so; midpoints lie on the chords, within
// the mesh's distance from the surface it stands for.
#pragma once

#include "surfdb/formats/mesh_file.hpp"

namespace surfdb {

/// Splits edges longer than `max_edge` (mesh length unit, > 0 and finite) until none is left,
/// each triangle into 2, 3 or 4 keeping its orientation. Deterministic: the same mesh and bound
/// give the same vertices and triangles in the same order. Throws std::invalid_argument for a bad
/// bound.
void refine_mesh(MeshData& mesh, double max_edge);

}  // namespace surfdb
