#include "surfdb/libsurfdb/node_geometry.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <sstream>

namespace surfdb {
namespace {

// ds/du x ds/dv counts as vanishing below this fraction of max(|ds/du|, |ds/dv|)^2.
constexpr double kDegenerateRatio = 1e-9;
// Where the frame is a limit, the steps inward (fractions of the parameter range) at which the
// surface is tried for a regular point, nearest first.
constexpr double kLimitSteps[] = {1e-7, 1e-5, 1e-3};
// The step inward (fraction of the parameter range) at which a degenerate node's curvatures are
// taken: close enough to be the limit's for a table, far enough for well-conditioned forms.
constexpr double kCurvatureStep = 1e-5;

struct Curvatures {
  double k1, k2;
};

// Principal curvatures from the fundamental forms, signed so that a surface curving away from
// n (a ball seen from outside) is positive: the second form is taken as -s_ij . n.
Curvatures principal_curvatures(const SurfaceD2& d, const Eigen::Vector3d& n) {
  const double E = d.su.dot(d.su), F = d.su.dot(d.sv), G = d.sv.dot(d.sv);
  const double L = -d.suu.dot(n), M = -d.suv.dot(n), N = -d.svv.dot(n);
  const double det = E * G - F * F;
  if (!(det > 0)) return {0, 0};
  const double H = (E * N - 2 * F * M + G * L) / (2 * det);
  const double K = (L * N - M * M) / det;
  const double root = std::sqrt(std::max(H * H - K, 0.0));
  return {H + root, H - root};
}

// ds/du x ds/dv and the norms that decide whether a point is regular, kept for its frame.
struct Tangents {
  explicit Tangents(const SurfaceD2& d)
      : cross(d.su.cross(d.sv)), su_norm(d.su.norm()), sv_norm(d.sv.norm()), cross_norm(cross.norm()) {}
  bool regular() const {
    const double scale = std::max(su_norm, sv_norm);
    return scale > 0 && cross_norm > kDegenerateRatio * scale * scale;
  }
  Eigen::Vector3d cross;
  double su_norm, sv_norm, cross_norm;
};

bool regular(const SurfaceD2& d) { return Tangents(d).regular(); }

// Steps from (u,v) towards the inside of the parameter rectangle, as a fraction of its size.
struct Inward {
  double su, sv;  // +1 or -1 per direction
  double u_range, v_range;
  double u_at(double u, double f) const { return u + su * f * u_range; }
  double v_at(double v, double f) const { return v + sv * f * v_range; }
};

Inward inward(const ParamBounds& b, double u, double v) {
  return {u < 0.5 * (b.u0 + b.u1) ? 1.0 : -1.0, v < 0.5 * (b.v0 + b.v1) ? 1.0 : -1.0,
          b.u1 - b.u0, b.v1 - b.v0};
}

// Normal and tangent at a point where ds/du x ds/dv vanishes, as the limit from inside.
// First order: where ds/dv -> 0 (a u-iso line collapsed to a point), ds/dv ~ h d2s/dudv,
// so n ~ sign(h) unit(ds/du x d2s/dudv); symmetrically where ds/du -> 0. Otherwise (or when
// that also vanishes) the frame of a nearby inside point, moving closer until it is regular.
void limit_frame(const SurfaceSource& s, const ParamBounds& bounds, const SurfaceD2& d, double u,
                 double v, Eigen::Vector3d& n, Eigen::Vector3d& t) {
  const Inward in = inward(bounds, u, v);
  const double scale = std::max(d.su.norm(), d.sv.norm());
  const double tiny = kDegenerateRatio * scale;
  Eigen::Vector3d c = Eigen::Vector3d::Zero();
  if (d.sv.norm() <= tiny && d.su.norm() > tiny) {
    c = in.su * d.su.cross(d.suv);
    t = d.su;
  } else if (d.su.norm() <= tiny && d.sv.norm() > tiny) {
    c = in.sv * d.suv.cross(d.sv);
    t = in.sv * d.suv;
  }
  if (c.norm() > kDegenerateRatio * scale * scale && t.norm() > 0) {
    n = c.normalized();
    t.normalize();
    return;
  }
  for (double f : kLimitSteps) {
    const SurfaceD2 near = s.d2(in.u_at(u, f), in.v_at(v, f));
    if (regular(near)) {
      n = near.su.cross(near.sv).normalized();
      t = near.su.normalized();
      return;
    }
  }
  std::ostringstream msg;
  msg.precision(17);
  msg << "degenerate geometry at (u, v) = (" << u << ", " << v
      << "): no normal can be defined there, not even as a limit";
  throw DegenerateGeometry(msg.str());
}

}  // namespace

NodeGeometry node_geometry(const SurfaceSource& s, const ParamBounds& bounds, double u, double v,
                           double normal_sign) {
  return node_geometry(s, bounds, s.d2(u, v), u, v, normal_sign);
}

NodeGeometry node_geometry(const SurfaceSource& s, const ParamBounds& bounds, const SurfaceD2& d, double u,
                           double v, double normal_sign) {
  NodeGeometry g;
  g.p = d.p;
  const Tangents tangents(d);
  g.su_norm = tangents.su_norm;
  g.sv_norm = tangents.sv_norm;
  Curvatures k;
  if (tangents.regular()) {
    // What normalized() gives, dividing by the norms already computed: the same bits.
    g.n = tangents.cross / tangents.cross_norm;
    g.t = d.su / tangents.su_norm;
    k = principal_curvatures(d, normal_sign * g.n);
  } else {
    g.degenerate = true;
    limit_frame(s, bounds, d, u, v, g.n, g.t);
    // Curvature as the value just inside the rectangle, where the fundamental forms are regular.
    const Inward in = inward(bounds, u, v);
    // The forms must be taken with that point's own normal, oriented like the limit.
    const SurfaceD2 near = s.d2(in.u_at(u, kCurvatureStep), in.v_at(v, kCurvatureStep));
    Eigen::Vector3d near_n = near.su.cross(near.sv).normalized();
    if (near_n.dot(g.n) < 0) near_n = -near_n;
    k = principal_curvatures(near, normal_sign * near_n);
  }
  g.n *= normal_sign;
  g.t = (g.t - g.t.dot(g.n) * g.n).normalized();  // exact orthogonality after the limit
  g.b = g.n.cross(g.t);
  g.k1 = k.k1;
  g.k2 = k.k2;
  return g;
}

}  // namespace surfdb
