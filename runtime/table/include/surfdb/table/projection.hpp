// Closest point of a surface to a given point: a Newton solve of p(u,v) + d n(u,v) = x on the
// interpolated table, warm-started from a guess, or started near the answer by the node tree.
#pragma once

#include <optional>
#include <utility>

#include <Eigen/Core>

#include "surfdb/table/node_tree.hpp"
#include "surfdb/table/surface_binding.hpp"

namespace surfdb {

struct Projection {
  SurfacePoint point;   // the foot point and its frame
  double distance = 0;  // signed, along n: (x - p) . n, file length unit
  int iterations = 0;   // Newton steps taken (queries after the one at the start)
  /// True: Newton converged (or, where its matrix is singular, x - p lies along n) at a minimum of
  /// the distance (not a maximum or saddle beyond a centre of curvature), and for a global
  /// projection no farther than the nearest node of the tree. False: the answer is the last
  /// iterate, not the nearest point; its status still says where it lies.
  bool converged = false;
};

/// Newton from the guess (u, v).
Projection project_local(SurfaceBinding& binding, const Eigen::Vector3d& x, double u, double v);

/// Global: Newton from the tree's start for x (the nearest node and one linear step from it); an
/// answer farther than that node is retried from the node.
Projection project_global(SurfaceBinding& binding, const NodeTree& tree, const Eigen::Vector3d& x);

/// The front ends' rule (surfdb project, Python's Binding.project, C's surfdb_project): Newton
/// from the guess (u, v) when there is one, the global projection over the binding's database's
/// tree (built on its first use) when there is none or Newton does not converge onto a valid cell.
Projection project_near(SurfaceBinding& binding, const Eigen::Vector3d& x,
                        const std::optional<std::pair<double, double>>& guess);

}  // namespace surfdb
