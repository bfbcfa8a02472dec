#include "surfdb/table/projection.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>

namespace surfdb {
namespace {
constexpr int kMaxIterations = 30;
constexpr double kStepCells = 4;     // a step moves at most this many cells along u or v
constexpr double kTolerance = 1e-10;  // converged when a step is below this fraction of a cell
}  // namespace

Projection project_local(SurfaceBinding& binding, const Eigen::Vector3d& x, double u, double v) {
  const Header& h = binding.database().header();
  Projection out;
  out.point = binding.query(u, v);
  double d = (x - out.point.p).dot(out.point.n);
  for (;;) {
    const SurfacePoint& s = out.point;
    // G(u, v, d) = p + d n - x = 0, J = [p_u + d n_u, p_v + d n_v, n]
    Eigen::Matrix3d J;
    J.col(0) = s.dp_du + d * s.dn_du;
    J.col(1) = s.dp_dv + d * s.dn_dv;
    J.col(2) = s.n;
    // Closed-form inverse (cofactors): the columns are two tangents and the unit normal, far from
    // singular wherever the surface is regular; a singular J gives non-finite steps, caught below.
    const Eigen::Vector3d step = J.inverse() * (x - s.p - d * s.n);
    if (!step.allFinite()) break;
    // Converged when Newton's next step would move the iterate by less than the tolerance: the
    // iterate is the answer, and the query the step would cost is saved.
    if (std::abs(step[0]) < kTolerance * h.du && std::abs(step[1]) < kTolerance * h.dv) {
      out.converged = true;
      break;
    }
    if (out.iterations == kMaxIterations) break;
    const double scale = std::max({1.0, std::abs(step[0]) / (kStepCells * h.du),
                                   std::abs(step[1]) / (kStepCells * h.dv)});
    out.point = binding.query(s.u + step[0] / scale, s.v + step[1] / scale, WindowPolicy::hold);
    d = (x - out.point.p).dot(out.point.n);
    ++out.iterations;
  }
  const RecordLayout& l = h.layout;  // the window follows the answer
  binding.window().follow({static_cast<std::uint64_t>((out.point.u - h.u0) / h.du) / l.u_record_points,
                           static_cast<std::uint64_t>((out.point.v - h.v0) / h.dv) / l.v_record_points});
  out.distance = d;
  return out;
}

Projection project_global(SurfaceBinding& binding, const NodeTree& tree, const Eigen::Vector3d& x) {
  const Eigen::Vector2d start = tree.start(x);
  return project_local(binding, x, start.x(), start.y());
}

}  // namespace surfdb
