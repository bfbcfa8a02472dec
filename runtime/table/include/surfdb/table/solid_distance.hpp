// Inside or outside a solid given as a surface set whose faces close (every edge between two faces
// of the set): the signed distance of a point to the set's surface from its nearest feature, a
// face (its nearest point found by projection, trimmed cells judged by the face's boundary,
// face_boundary.hpp) or an edge (set_edges.hpp). Outside the solid when the nearest feature is a
// face the point lies in front of, or an edge whose normal cone holds the direction to the point
// (a convex edge's cone lies outside the material, a concave edge's inside). Exact where the
// projections find the nearest points, which the node tree's global search does on the parts
// real assemblies hold; for t = 0 checks, not for the hot path (each call projects on every face).
#pragma once

#include <Eigen/Core>

#include "surfdb/table/table_set.hpp"

namespace surfdb {

/// The signed distance from x (the set's axes and unit) to its surface: positive outside the
/// solid, negative inside, in the set's unit. Meaningful for a closed set (TableSet::closed).
double signed_distance(const TableSet& set, const Eigen::Vector3d& x);

}  // namespace surfdb
