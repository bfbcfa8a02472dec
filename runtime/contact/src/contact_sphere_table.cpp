#include "surfdb/contact/contact_sphere_table.hpp"

#include <Eigen/Geometry>

#include "surfdb/table/face_boundary.hpp"
#include "surfdb/table/projection.hpp"

namespace surfdb {

SphereTableContact::SphereTableContact(Sphere sphere, std::shared_ptr<const Database> table, SurfaceMount mount_j,
                                       const ContactOptions& options, std::span<const FaceEdge> boundary)
    : sphere_(sphere), binding_(table, options.window_j, options.residency_j, options.interpolation), mount_(mount_j),
      scale_(table->header().meters_per_unit), tree_(&table->node_tree()), boundary_(boundary),
      skip_while_apart_(options.skip_while_apart) {}

ContactResult SphereTableContact::evaluate(const BodyState& body_i, const BodyState& body_j) {
  ContactResult r;
  const Eigen::Vector3d centre = body_i.pose.r + body_i.pose.A * sphere_.centre;
  // The centre in the table's axes and unit.
  const Eigen::Matrix3d R = body_j.pose.A * mount_.rotation;
  const Eigen::Vector3d origin = body_j.pose.r + body_j.pose.A * mount_.offset;
  const Eigen::Vector3d x = R.transpose() * (centre - origin) / scale_;
  // Farther from the table's node box than the radius: no solve.
  const double reach = scale_ * (x - x.cwiseMax(tree_->box_low()).cwiseMin(tree_->box_high())).norm();
  if (reach > sphere_.radius) {
    r.gap = reach - sphere_.radius;
    return r;
  }
  if (have_apart_) {
    // The distance from the centre to the table changes by at most the centre's move.
    const double moved = scale_ * (x - apart_.centre).norm();
    if (moved < apart_.result.gap) {
      ++skipped_solves_;
      r = apart_.result;
      r.iterations = 0;
      r.gap -= moved;
      r.normal = R * apart_.normal;
      r.point_j = origin + R * apart_.point_j;
      r.point_i = centre - sphere_.radius * r.normal;
      set_relative_velocity(r, body_i, body_j);
      return r;
    }
  }
  Projection p = have_guess_ ? project_local(binding_, x, u_, v_) : project_global(binding_, *tree_, x);
  if (p.point.status == QueryStatus::invalid_cell && p.converged && inside_trim(boundary_, p.point.p))
    p.point.status = QueryStatus::valid;
  r.iterations = p.iterations + 1;
  // A foot point clamped at the face's edge is a fine start for the next solve; a failed one is not.
  have_guess_ = p.converged || p.point.status == QueryStatus::outside_domain;
  u_ = p.point.u, v_ = p.point.v;
  if (p.converged) foot_normal_ = p.point.n, foot_rotation_ = R, foot_u_ = p.point.u, foot_v_ = p.point.v;
  r.u_j = p.point.u;
  r.v_j = p.point.v;
  r.normal = R * p.point.n;
  r.point_j = origin + R * (scale_ * p.point.p);
  r.point_i = centre - sphere_.radius * r.normal;
  r.curvature_i = 1 / sphere_.radius;
  r.curvature_j = 0.5 * (p.point.k1 + p.point.k2) / scale_;
  const double d = scale_ * p.distance;
  if (p.point.status == QueryStatus::outside_domain) {
    r.status = ContactStatus::outside_domain;
  } else if (p.point.status == QueryStatus::invalid_cell) {
    r.status = ContactStatus::invalid_cell;
  } else if (!p.converged) {
    r.status = ContactStatus::no_convergence;
  } else if (d < sphere_.radius) {
    r.status = ContactStatus::touching;
    r.indentation = sphere_.radius - d;
  } else {
    r.gap = d - sphere_.radius;
  }
  set_relative_velocity(r, body_i, body_j);
  have_apart_ = skip_while_apart_ && r.status == ContactStatus::separated;
  if (have_apart_) apart_ = {r, x, R.transpose() * (r.point_j - origin), R.transpose() * r.normal};
  return r;
}

ContactShapes SphereTableContact::shapes() {
  const Eigen::Matrix3d& R = foot_rotation_;
  return {sphere_shape_operator(R * foot_normal_, sphere_.radius),
          R * blended_shape_operator(binding_, foot_u_, foot_v_, foot_normal_) * R.transpose() / scale_};
}

}  // namespace surfdb
