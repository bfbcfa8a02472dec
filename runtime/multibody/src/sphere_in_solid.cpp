#include "sphere_in_solid.hpp"

#include "surfdb/multibody/multibody_state.hpp"
#include "surfdb/table/solid_distance.hpp"

namespace surfdb {

namespace {

// A ball against a spherical cavity's wall (the cup's material lies outside the cavity's sphere,
// below its rim): while the ball overlaps the wall from outside, its centre's distance inside it.
SphereInSolid in_cavity_wall(const AnalyticContact& a, const BodyState& i, const BodyState& j) {
  const Eigen::Vector3d d = i.pose.r + i.pose.A * a.sphere.centre - (j.pose.r + j.pose.A * a.other.centre);
  const double beyond = d.norm() - a.other.radius;  // m, of the centre outside the cavity's sphere
  const Eigen::Vector3d axis = j.pose.A * a.cap.axis;
  const bool below_rim = !(d.norm() > 0) || a.other.radius * (1 + d.normalized().dot(axis)) <= a.cap.height;
  if (beyond <= 0 || beyond >= a.sphere.radius || !below_rim) return {};
  return {true, -beyond, a.sphere.radius};
}

}  // namespace

SphereInSolid sphere_in_solid(const ContactPair& pair, const double* y) {
  const auto state = [&](int body) { return body == kGround ? BodyState{} : body_view(y, body).body_state(); };
  const auto* a = std::get_if<AnalyticContact>(&pair.spec().geometry);
  if (a && a->shape == AnalyticContact::Shape::cavity)
    return in_cavity_wall(*a, state(pair.spec().body_i), state(pair.spec().body_j));
  const auto* s = std::get_if<SphereOnTables>(&pair.spec().geometry);
  if (!s || !s->surface_j->closed()) return {};
  const BodyState i = state(pair.spec().body_i), j = state(pair.spec().body_j);
  const Eigen::Vector3d centre = i.pose.r + i.pose.A * s->sphere.centre;
  const Eigen::Matrix3d A = j.pose.A * s->mount_j.rotation;
  const double scale = s->surface_j->meters_per_unit();
  const Eigen::Vector3d x = A.transpose() * (centre - j.pose.r - j.pose.A * s->mount_j.offset) / scale;
  const TableSet& set = *s->surface_j;
  const double outside = scale * ((x - set.bounding_centre()).norm() - set.bounding_radius());
  if (outside > s->sphere.radius) return {true, outside, s->sphere.radius};
  return {true, scale * signed_distance(set, x), s->sphere.radius};
}

}  // namespace surfdb
