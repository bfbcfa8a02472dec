// A lookup table's grid as a triangle mesh for the polygonal contact model: every cell whose four
// nodes are valid becomes two triangles (cut along the diagonal from node (i, j) to (i+1, j+1)),
// turned so that their normals agree with the stored normals. One conversion serves point contact
// (the tables) and areal contact (their grids); nothing new is written.
#pragma once

#include <cstdint>
#include <memory>

#include "surfdb/contact/triangle_mesh.hpp"
#include "surfdb/table/table_set.hpp"

namespace surfdb {

/// The cells of every face of the set, taking every `stride`-th grid line (and the last) along u
/// and v; in metres, surface axes. Nodes at one point of a face (a periodic seam, a pole) are one
/// vertex; faces are not joined to each other (their grids differ): each face's border is open. Reads every record once (verified;
/// throws FormatError for a damaged one); throws std::invalid_argument for stride 0 or a set with
/// no valid cell.
std::shared_ptr<const TriangleMesh> mesh_from_tables(const TableSet& set, std::uint32_t stride = 1);

}  // namespace surfdb
