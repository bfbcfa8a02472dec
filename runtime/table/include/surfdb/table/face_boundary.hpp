// Whether a point of a face's untrimmed surface lies inside the trimmed face, from the edges that
// bound it (table_set.hpp): the grid marks the cells a trim crosses invalid (format.md), but their
// nodes keep the untrimmed surface's exact values, so a point found there is used when the
// boundary says it is inside.
#pragma once

#include <Eigen/Core>
#include <span>

#include "surfdb/table/table_set.hpp"

namespace surfdb {

/// True when x (the set's axes and unit, on or near the face's surface) lies on the face's side
/// of its nearest boundary point: (x - e) . w >= 0 for the nearest point e of the face's edges and
/// the direction w into the face there. False when the face has no edges.
bool inside_trim(std::span<const FaceEdge> boundary, const Eigen::Vector3d& x);

/// True when some point of the face's edges lies within `distance` of x (the set's axes and unit).
bool near_boundary(std::span<const FaceEdge> boundary, const Eigen::Vector3d& x, double distance);

}  // namespace surfdb
