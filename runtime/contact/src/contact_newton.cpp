#include "surfdb/contact/contact_newton.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

namespace surfdb {

const char* contact_status_name(ContactStatus s) {
  switch (s) {
    case ContactStatus::separated: return "separated";
    case ContactStatus::touching: return "touching";
    case ContactStatus::no_convergence: return "no_convergence";
    case ContactStatus::invalid_cell: return "invalid_cell";
    case ContactStatus::outside_domain: return "outside_domain";
    case ContactStatus::singular: return "singular";
  }
  return "?";
}

// One side's surface data at the current iterate, in surface j's axes (metres): Newton needs only
// relative quantities, so side j is used as the table gives it and side i is carried over by one
// relative placement; only the answer goes to world axes.
struct FreeformContact::Local {
  SurfacePoint table;  // the table's answer, file unit, own surface axes
  Eigen::Vector3d p, n, t, b, p_u, p_v, n_u, n_v;
};

// A frame placed in another: x_outer = offset + rotation * x_inner, metres.
struct FreeformContact::Placement {
  Eigen::Matrix3d rotation;
  Eigen::Vector3d offset;
};

namespace {

// Successive iterates clamped at a bound of a parameter domain before the contact counts as
// having left the surface (one may be a Newton overshoot that the next step takes back).
constexpr int kClampedIterationsToLeave = 2;
// An answer whose normals are less opposed than this (n_i . n_j above it, i.e. more than 60
// degrees from anti-parallel) is no common normal: the solve reports it singular.
constexpr double kMostOpposedCosine = -0.5;

}  // namespace

FreeformContact::FreeformContact(std::shared_ptr<const Database> surface_i, SurfaceMount mount_i,
                                 std::shared_ptr<const Database> surface_j, SurfaceMount mount_j,
                                 ContactOptions options)
    : side_i_{SurfaceBinding(surface_i, options.window_i, options.residency_i, options.interpolation), mount_i,
              surface_i->header().meters_per_unit, &surface_i->node_tree()},
      side_j_{SurfaceBinding(surface_j, options.window_j, options.residency_j, options.interpolation), mount_j,
              surface_j->header().meters_per_unit, &surface_j->node_tree()},
      options_(options) {}

void FreeformContact::set_guess(double u_i, double v_i, double u_j, double v_j) {
  have_inverse_ = false;  // the last Jacobian belongs to another place
  apart_.valid = false;   // and the caller asks for a solve from here
  q_[0] = u_i;
  q_[1] = v_i;
  q_[2] = u_j;
  q_[3] = v_j;
  have_guess_ = true;
}

FreeformContact::Local FreeformContact::query_j(double u, double v) {
  Local w;
  w.table = side_j_.binding.query(u, v, WindowPolicy::follow);
  const SurfacePoint& s = w.table;
  const double scale = side_j_.scale;
  w.p = scale * s.p;
  w.n = s.n, w.t = s.t, w.b = s.b;
  w.p_u = scale * s.dp_du;
  w.p_v = scale * s.dp_dv;
  w.n_u = s.dn_du, w.n_v = s.dn_dv;
  return w;
}

FreeformContact::Local FreeformContact::query_i(double u, double v, const Eigen::Matrix3d& R, const Eigen::Vector3d& o) {
  Local w;
  w.table = side_i_.binding.query(u, v, WindowPolicy::follow);
  const SurfacePoint& s = w.table;
  const double scale = side_i_.scale;
  w.p = o + scale * (R * s.p);
  w.n = R * s.n;
  w.t = R * s.t;
  w.b = R * s.b;
  w.p_u = scale * (R * s.dp_du);
  w.p_v = scale * (R * s.dp_dv);
  w.n_u = R * s.dn_du;
  w.n_v = R * s.dn_dv;
  return w;
}

bool FreeformContact::far_apart(const Placement& frame_i, const Placement& frame_j, double& gap) const {
  const auto centre = [](const Side& s, const Placement& frame) {
    return Eigen::Vector3d(frame.offset + frame.rotation * (s.scale * s.tree->bounding_centre()));
  };
  const double ri = side_i_.scale * side_i_.tree->bounding_radius();
  const double rj = side_j_.scale * side_j_.tree->bounding_radius();
  const Eigen::Vector3d ci = centre(side_i_, frame_i), cj = centre(side_j_, frame_j);
  gap = (ci - cj).norm() - ri - rj;
  if (gap > 0) return true;
  // Each side's node box (in its own axes) against the other's sphere: a flat face far to one
  // side of a ball has an overlapping sphere but not box.
  const auto box_gap = [](const Side& box, const Placement& frame, const Eigen::Vector3d& c, double r) {
    const Eigen::Vector3d x = frame.rotation.transpose() * (c - frame.offset) / box.scale;
    return box.scale * (x - x.cwiseMax(box.tree->box_low()).cwiseMin(box.tree->box_high())).norm() - r;
  };
  gap = std::max(box_gap(side_j_, frame_j, ci, ri), box_gap(side_i_, frame_i, cj, rj));
  return gap > 0;
}

void FreeformContact::global_search(const Placement& frame_i, const Placement& frame_j) {
  ++global_searches_;
  // Surface i's points (its file unit) in surface j's axes and unit.
  const Eigen::Matrix3d& Rj = frame_j.rotation;
  const NodeTree::Similarity i_in_j{Rj.transpose() * frame_i.rotation, side_i_.scale / side_j_.scale,
                                    Rj.transpose() * (frame_i.offset - frame_j.offset) / side_j_.scale};
  const NodeTree::NodePair start = side_i_.tree->closest(*side_j_.tree, i_in_j);
  const Header& hi = side_i_.binding.database().header();
  const Header& hj = side_j_.binding.database().header();
  set_guess(hi.u_at(start.here.i), hi.v_at(start.here.j), hj.u_at(start.there.i), hj.v_at(start.there.j));
}

// The common-normal conditions at one iterate.
Eigen::Vector4d FreeformContact::conditions(const Local& wi, const Local& wj) {
  // Common normal: n_i parallel to n_j (t_i.n_j = b_i.n_j = 0) and d along n_j (d.t_j = d.b_j = 0).
  // Unlike d.t_i = d.b_i = 0 of the paper's Eq. 10, this admits no spurious solution d = 0 on the
  // curve where the surfaces intersect, which is exactly where small indentations start Newton.
  const Eigen::Vector3d d = wi.p - wj.p;
  return {wi.t.dot(wj.n), wi.b.dot(wj.n), d.dot(wj.t), d.dot(wj.b)};
}

Eigen::Matrix4d FreeformContact::jacobian(const Local& wi, const Local& wj) {
  const double dn_j = (wi.p - wj.p).dot(wj.n);
  // Derivatives of t_i and b_i through n_i.t_i = 0: n_j . dt_i/du = t_i . dn_i/du where n_j = -n_i
  // (at the solution); likewise d . dt_j/du = -(d . n_j)(t_j . dn_j/du) where d is along n_j.
  Eigen::Matrix4d J;
  J << wi.t.dot(wi.n_u), wi.t.dot(wi.n_v), wi.t.dot(wj.n_u), wi.t.dot(wj.n_v),
      wi.b.dot(wi.n_u), wi.b.dot(wi.n_v), wi.b.dot(wj.n_u), wi.b.dot(wj.n_v),
      wi.p_u.dot(wj.t), wi.p_v.dot(wj.t),
      -wj.p_u.dot(wj.t) - dn_j * wj.t.dot(wj.n_u), -wj.p_v.dot(wj.t) - dn_j * wj.t.dot(wj.n_v),
      wi.p_u.dot(wj.b), wi.p_v.dot(wj.b),
      -wj.p_u.dot(wj.b) - dn_j * wj.b.dot(wj.n_u), -wj.p_v.dot(wj.b) - dn_j * wj.b.dot(wj.n_v);
  return J;
}

FreeformContact::Outcome FreeformContact::iterate(const Eigen::Matrix3d& R_ij, const Eigen::Vector3d& o_ij, Local& wi,
                                                  Local& wj, int& iterations) {
  const Header& hi = side_i_.binding.database().header();
  const Header& hj = side_j_.binding.database().header();
  const double per_cell[4] = {1 / hi.du, 1 / hi.dv, 1 / hj.du, 1 / hj.dv};
  const auto cells = [&](const Eigen::Vector4d& step) {  // the largest component, in cells
    double largest = 0;
    for (int k = 0; k < 4; ++k) largest = std::max(largest, std::abs(step[k]) * per_cell[k]);
    return largest;
  };
  int outside = 0;  // successive iterates clamped at a bound of a parameter domain
  for (int it = 1; it <= options_.max_iterations; ++it) {
    iterations = it;
    // The windows follow every iterate (seven-step rule); warm-started iterates stay close.
    wi = query_i(q_[0], q_[1], R_ij, o_ij);
    wj = query_j(q_[2], q_[3]);
    q_[0] = wi.table.u;  // wrapped across periodic seams, clamped at bounds
    q_[1] = wi.table.v;
    q_[2] = wj.table.u;
    q_[3] = wj.table.v;
    const bool clamped = wi.table.status == QueryStatus::outside_domain || wj.table.status == QueryStatus::outside_domain;
    outside = clamped ? outside + 1 : 0;
    // Newton pushes past the edge of a surface: the contact has left it.
    if (outside == kClampedIterationsToLeave) return Outcome::finished;
    const Eigen::Vector4d F = conditions(wi, wj);
    // Converged already? The last Jacobian (this solve's previous iterate, or the last solve's
    // answer) estimates Newton's step to first order in the distance moved since: near the
    // answer, where this test decides, that is all the accuracy a threshold needs, and it spares
    // assembling and inverting the Jacobian once per solve.
    if (have_inverse_ && cells(J_inverse_ * F) < options_.tolerance_cells) return Outcome::finished;
    J_inverse_ = jacobian(wi, wj).inverse();  // Eigen's closed-form 4 x 4 inverse: no pivoting loops
    const Eigen::Vector4d step = -(J_inverse_ * F);
    if (!step.allFinite()) return Outcome::singular;
    have_inverse_ = true;
    const double largest = cells(step);
    // Newton's next step estimates the error of this iterate: below tolerance, this is the answer.
    if (largest < options_.tolerance_cells) return Outcome::finished;
    const double shrink = std::max(1.0, largest / options_.max_step_cells);
    for (int k = 0; k < 4; ++k) q_[k] += step[k] / shrink;
  }
  return Outcome::no_convergence;
}

ContactResult FreeformContact::solve(const BodyState& body_i, const BodyState& body_j, const Placement& frame_i,
                                     const Placement& frame_j) {
  ContactResult r;
  const Eigen::Matrix3d R_ij = frame_j.rotation.transpose() * frame_i.rotation;
  const Eigen::Vector3d o_ij = frame_j.rotation.transpose() * (frame_i.offset - frame_j.offset);
  Local wi, wj;
  switch (iterate(R_ij, o_ij, wi, wj, r.iterations)) {
    case Outcome::finished: break;
    case Outcome::singular: have_inverse_ = false, r.status = ContactStatus::singular; return r;
    case Outcome::no_convergence: have_inverse_ = false, r.status = ContactStatus::no_convergence; return r;
  }
  last_rotation_i_ = frame_i.rotation;
  last_rotation_j_ = frame_j.rotation;
  last_normal_i_ = wi.table.n;
  last_normal_j_ = wj.table.n;
  r.u_i = wi.table.u;
  r.v_i = wi.table.v;
  r.u_j = wj.table.u;
  r.v_j = wj.table.v;
  r.point_i = frame_j.offset + frame_j.rotation * wi.p;
  r.point_j = frame_j.offset + frame_j.rotation * wj.p;
  r.normal = frame_j.rotation * wj.n;
  r.curvature_i = 0.5 * (wi.table.k1 + wi.table.k2) / side_i_.scale;
  r.curvature_j = 0.5 * (wj.table.k1 + wj.table.k2) / side_j_.scale;
  const Eigen::Vector3d d = wi.p - wj.p;
  if (wi.table.status == QueryStatus::outside_domain || wj.table.status == QueryStatus::outside_domain) {
    r.status = ContactStatus::outside_domain;
  } else if (wi.table.status == QueryStatus::invalid_cell || wj.table.status == QueryStatus::invalid_cell) {
    r.status = ContactStatus::invalid_cell;
  } else if (wi.n.dot(wj.n) > kMostOpposedCosine) {  // a common normal has n_i = -n_j; this is not one
    r.status = ContactStatus::singular;
  } else if (d.dot(wj.n) <= 0) {
    r.status = ContactStatus::touching;
    r.indentation = d.norm();
  } else {
    r.status = ContactStatus::separated;
    r.gap = d.norm();
  }
  set_relative_velocity(r, body_i, body_j);
  return r;
}

void FreeformContact::place_i_in_j(const Placement& frame_i, const Placement& frame_j, Eigen::Matrix3d& rotation_ij,
                                   Eigen::Vector3d& centre_ij) const {
  const Eigen::Vector3d centre_i = side_i_.scale * side_i_.tree->bounding_centre();
  rotation_ij = frame_j.rotation.transpose() * frame_i.rotation;
  centre_ij = frame_j.rotation.transpose() * (frame_i.offset + frame_i.rotation * centre_i - frame_j.offset);
}

// A point x of surface i (its axes, m) lies in surface j's axes at o + R x. Since the last solve
// it moved by (o + R c - o0 - R0 c) + (R - R0)(x - c): at most the centre's move plus
// |R - R0| times the bounding radius (the Frobenius norm bounds the spectral one).
bool FreeformContact::still_apart(const Placement& frame_i, const Placement& frame_j, double& moved) const {
  Eigen::Matrix3d rotation_ij;
  Eigen::Vector3d centre_ij;
  place_i_in_j(frame_i, frame_j, rotation_ij, centre_ij);
  moved = (centre_ij - apart_.centre_ij).norm() +
          (rotation_ij - apart_.rotation_ij).norm() * side_i_.scale * side_i_.tree->bounding_radius();
  return moved < apart_.result.gap;
}

void FreeformContact::remember_apart(const ContactResult& r, const Placement& frame_i, const Placement& frame_j) {
  apart_.valid = true;
  place_i_in_j(frame_i, frame_j, apart_.rotation_ij, apart_.centre_ij);
  apart_.point_i = frame_i.rotation.transpose() * (r.point_i - frame_i.offset);
  apart_.point_j = frame_j.rotation.transpose() * (r.point_j - frame_j.offset);
  apart_.normal_j = frame_j.rotation.transpose() * r.normal;
  apart_.result = r;
}

ContactResult FreeformContact::carried_apart(const BodyState& body_i, const BodyState& body_j, const Placement& frame_i,
                                             const Placement& frame_j, double moved) const {
  ContactResult r = apart_.result;
  r.iterations = 0;
  r.gap -= moved;
  r.point_i = frame_i.offset + frame_i.rotation * apart_.point_i;
  r.point_j = frame_j.offset + frame_j.rotation * apart_.point_j;
  r.normal = frame_j.rotation * apart_.normal_j;
  set_relative_velocity(r, body_i, body_j);
  return r;
}

ContactShapes FreeformContact::shapes() {
  const auto world = [](Side& side, const Eigen::Matrix3d& R, double u, double v, const Eigen::Vector3d& n) {
    return Eigen::Matrix3d(R * blended_shape_operator(side.binding, u, v, n) * R.transpose() / side.scale);
  };
  return {world(side_i_, last_rotation_i_, q_[0], q_[1], last_normal_i_),
          world(side_j_, last_rotation_j_, q_[2], q_[3], last_normal_j_)};
}

ContactResult FreeformContact::evaluate(const BodyState& body_i, const BodyState& body_j) {
  // Where each surface's frame is in the world, once for the whole evaluation.
  const auto in_world = [](const Pose& pose, const SurfaceMount& mount) {
    return Placement{pose.A * mount.rotation, pose.r + pose.A * mount.offset};
  };
  const Placement frame_i = in_world(body_i.pose, side_i_.mount), frame_j = in_world(body_j.pose, side_j_.mount);
  double gap = 0;
  if (far_apart(frame_i, frame_j, gap)) {
    ContactResult r;
    r.gap = gap;
    return r;
  }
  double moved = 0;
  if (apart_.valid && still_apart(frame_i, frame_j, moved)) {
    ++skipped_solves_;
    have_inverse_ = false;  // the next solve may be a gap away from the last Jacobian
    return carried_apart(body_i, body_j, frame_i, frame_j, moved);
  }
  const bool warm = have_guess_;
  if (!warm) global_search(frame_i, frame_j);
  ContactResult r = solve(body_i, body_j, frame_i, frame_j);
  const bool failed = r.status == ContactStatus::no_convergence || r.status == ContactStatus::singular;
  if (failed && warm) {  // the warm start was off: once more from the global search
    global_search(frame_i, frame_j);
    const int spent = r.iterations;
    r = solve(body_i, body_j, frame_i, frame_j);
    r.iterations += spent;
  }
  have_guess_ = !(r.status == ContactStatus::no_convergence || r.status == ContactStatus::singular);
  apart_.valid = false;
  if (options_.skip_while_apart && r.status == ContactStatus::separated) remember_apart(r, frame_i, frame_j);
  return r;
}

}  // namespace surfdb
