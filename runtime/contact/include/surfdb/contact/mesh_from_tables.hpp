// A lookup table's grid as triangles: every cell of the grid lines taken whose four nodes are
// valid becomes two triangles (cut along the diagonal from node (i, j) to (i+1, j+1)), turned so
// that their normals agree with the stored normals. face_grid() is the one mesher of a face's
// grid: the polygonal contact model meshes the tables with it (one conversion serves point
// contact on the tables and areal contact on their grids; nothing new is written), and so does
// `surfdb simulate --animation`.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "surfdb/contact/triangle_mesh.hpp"
#include "surfdb/table/table_set.hpp"

namespace surfdb {

/// One face's grid as triangles, in the table's length unit and surface axes.
struct FaceGrid {
  std::vector<Eigen::Vector3d> points;   // a vertex per valid node taken (joined: per place)
  std::vector<Eigen::Vector3d> normals;  // the stored unit normal at each vertex
  std::vector<std::array<std::uint32_t, 3>> triangles;
};

/// At most `most` (>= 2) of a direction's `count` grid lines: every k-th from the first, k as small
/// as that allows, and the last.
std::vector<std::uint64_t> grid_lines(std::uint64_t count, std::uint64_t most);

/// The grid lines `us` x `vs` (node indices, ascending, the last of each direction included) of
/// the face's table. `join`: nodes at one point (a periodic seam, a pole's collapsed line, to 1e-9
/// of the face's size) made one vertex, so that the mesh closes there. Each row of records is
/// released once read, so the face's pages do not stay resident.
FaceGrid face_grid(const Database& db, std::span<const std::uint64_t> us, std::span<const std::uint64_t> vs, bool join);

/// The cells of every face of the set, taking every `stride`-th grid line (and the last) along u
/// and v; in metres, surface axes. Nodes at one point of a face (a periodic seam, a pole) are one
/// vertex; faces are not joined to each other (their grids differ): each face's border is open. Reads every record once (verified;
/// throws FormatError for a damaged one); throws std::invalid_argument for stride 0 or a set with
/// no valid cell.
std::shared_ptr<const TriangleMesh> mesh_from_tables(const TableSet& set, std::uint32_t stride = 1);

}  // namespace surfdb
