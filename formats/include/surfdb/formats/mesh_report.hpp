// Triangle soups made into meshes and judged: coincident vertices merged, degenerate triangles
// removed, and the edges counted by how many triangles use them and in which direction, which
// tells whether the surface is closed, manifold and consistently oriented. No OpenCASCADE here.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "surfdb/formats/mesh_file.hpp"

namespace surfdb {

/// What a mesh is made of and whether it bounds a solid.
struct MeshReport {
  std::uint64_t triangles = 0;
  std::uint64_t vertices = 0;
  std::uint64_t open_edges = 0;          // used by one triangle: a boundary or a crack
  std::uint64_t non_manifold_edges = 0;  // used by more than two triangles
  std::uint64_t misoriented_edges = 0;   // two triangles run along it in the same direction
  std::uint64_t degenerate_removed = 0;  // triangles dropped by make_mesh (merged corners, zero area)
  double area = 0;                       // square length units
  /// Signed enclosed volume, sum of a . (b x c) / 6: positive when the triangles face outward.
  /// Meaningful only for a closed, consistent mesh.
  double volume = 0;
  bool flipped = false;  // make_mesh turned every triangle over because the volume came out negative

  /// No edge of more than two triangles, and the two triangles of every shared edge run along it
  /// in opposite directions (open edges allowed).
  bool consistent() const { return misoriented_edges == 0 && non_manifold_edges == 0; }
  bool closed() const { return open_edges == 0; }  // every edge has a triangle on each side
};

/// Edges, area and volume of `mesh` as it is (nothing merged, removed or flipped).
MeshReport mesh_report(const MeshData& mesh);

/// Makes a mesh of a triangle soup: vertices closer than `merge_tolerance` (length units, per
/// coordinate) become the first of them, in input order, so equal input gives an equal mesh;
/// triangles left with a repeated corner or with zero area (collinear corners) are removed; a
/// closed, consistent mesh whose volume is negative is turned over (every triangle reversed).
/// `mesh` holds the soup on entry and the result on return; the returned report describes it.
MeshReport make_mesh(MeshData& mesh, double merge_tolerance);

/// The tolerance make_mesh is given by this library: 1e-9 of the soup's bounding-box diagonal
/// (far below any deflection a user asks for, far above the rounding of placed coordinates).
double default_merge_tolerance(const std::vector<std::array<double, 3>>& vertices);

}  // namespace surfdb
