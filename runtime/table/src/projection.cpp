#include "surfdb/table/projection.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>

namespace surfdb {
namespace {
constexpr int kMaxIterations = 30;
constexpr double kStepCells = 4;     // a step moves at most this many cells along u or v
constexpr double kTolerance = 1e-10;  // converged when a step is below this fraction of a cell
// Where Newton cannot finish (a pole, a collapsed edge), an iterate is the foot point when x - p
// lies along n to this fraction of the cell's larger side.
constexpr double kResidualCells = 1e-8;

// The cell's larger side at s, in length: how far one cell moves a point there.
double cell_length(const SurfacePoint& s, const Header& h) {
  return std::max(s.dp_du.norm() * h.du, s.dp_dv.norm() * h.dv);
}

// A foot point is a nearest point only where the distance has a minimum: the Hessian of
// |x - p|^2 / 2, the first fundamental form plus d times the second, is positive definite, i.e.
// 1 + d k > 0 for both principal curvatures (positive where the surface curves away from n).
// Beyond a centre of curvature (say inside a sphere, past its centre) it is a maximum or a saddle.
bool distance_minimum(const SurfacePoint& s, double d) { return 1 + d * s.k1 > 0 && 1 + d * s.k2 > 0; }

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
    const double u_before = s.u, v_before = s.v;
    out.point = binding.query(s.u + step[0] / scale, s.v + step[1] / scale, WindowPolicy::hold);
    d = (x - out.point.p).dot(out.point.n);
    ++out.iterations;
    // Clamped at a bound where the last iterate was already: Newton, being deterministic, can only
    // push out there again, so the remaining iterations would end where this one is.
    if (out.point.status == QueryStatus::outside_domain && out.point.u == u_before && out.point.v == v_before) break;
  }
  const RecordLayout& l = h.layout;  // the window follows the answer
  binding.window().follow({static_cast<std::uint64_t>((out.point.u - h.u0) / h.du) / l.u_record_points,
                           static_cast<std::uint64_t>((out.point.v - h.v0) / h.dv) / l.v_record_points});
  out.distance = d;
  // Where Newton cannot finish (a singular matrix at a pole or a collapsed edge, where u or v is
  // undefined), the iterate is still the foot point when x - p lies along n.
  if (!out.converged)
    out.converged = (x - out.point.p - d * out.point.n).norm() <= kResidualCells * cell_length(out.point, h);
  out.converged = out.converged && distance_minimum(out.point, d);
  return out;
}

Projection project_global(SurfaceBinding& binding, const NodeTree& tree, const Eigen::Vector3d& x) {
  const NodeTree::Start start = tree.start(x);
  Projection p = project_local(binding, x, start.uv.x(), start.uv.y());
  // The interpolated surface passes through the tree's nearest node, so the nearest point is no
  // farther than it, give or take the interpolation's own error (its normals are not exactly
  // those of its points): a cell's length is far more than that. A farther answer (Newton drawn
  // across a crease to another sheet) is retried from the node itself, and reported unconverged
  // when that is no better.
  const Header& h = binding.database().header();
  const double bound = (x - start.point).norm() + cell_length(p.point, h);
  if (std::abs(p.distance) <= bound) return p;
  Projection retry = project_local(binding, x, h.u_at(start.node.i), h.v_at(start.node.j));
  if (std::abs(retry.distance) <= bound) return retry;
  p.converged = false;
  return p;
}

Projection project_near(SurfaceBinding& binding, const Eigen::Vector3d& x,
                        const std::optional<std::pair<double, double>>& guess) {
  if (guess) {
    const Projection p = project_local(binding, x, guess->first, guess->second);
    if (p.converged && p.point.status == QueryStatus::valid) return p;
  }
  return project_global(binding, binding.database().node_tree(), x);
}

}  // namespace surfdb
