#include "surfdb/multibody/contact_surface.hpp"

#include <cmath>

namespace surfdb {

Eigen::Vector3d ContactSurface::bounding_centre() const {
  if (kind == Kind::mesh) {
    const MeshTree::Node& root = mesh->tree().root();
    return mount.offset + mount.rotation * (0.5 * (root.lo + root.hi));
  }
  if (kind != Kind::table) return mount.offset;
  return mount.offset + mount.rotation * (tables->meters_per_unit() * tables->bounding_centre());
}

double ContactSurface::bounding_radius() const {
  switch (kind) {
    case Kind::table: return tables->meters_per_unit() * tables->bounding_radius();
    case Kind::mesh: return 0.5 * (mesh->tree().root().hi - mesh->tree().root().lo).norm();
    case Kind::sphere: return radius;
    case Kind::box: return half_extents.norm();
    case Kind::cylinder:
    case Kind::cylinder_cavity: return std::hypot(radius, 0.5 * length);
    case Kind::cavity:
    case Kind::plane: break;
  }
  return std::numeric_limits<double>::infinity();
}

}  // namespace surfdb
