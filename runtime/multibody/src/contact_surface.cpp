#include "surfdb/multibody/contact_surface.hpp"

#include <cmath>

namespace surfdb {

Eigen::Vector3d ContactSurface::bounding_centre() const {
  if (kind != Kind::table) return mount.offset;
  return mount.offset + mount.rotation * (tables->meters_per_unit() * tables->bounding_centre());
}

double ContactSurface::bounding_radius() const {
  switch (kind) {
    case Kind::table: return tables->meters_per_unit() * tables->bounding_radius();
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
