#include "sphere_in_solid.hpp"

#include "surfdb/multibody/multibody_state.hpp"
#include "surfdb/table/solid_distance.hpp"

namespace surfdb {

SphereInSolid sphere_in_solid(const ContactPair& pair, const double* y) {
  const auto* s = std::get_if<SphereOnTables>(&pair.spec().geometry);
  if (!s || !closed_solid(*s->surface_j)) return {};
  const auto state = [&](int body) { return body == kGround ? BodyState{} : body_view(y, body).body_state(); };
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
