#include "surfdb/multibody/contact_surface.hpp"

namespace surfdb {
namespace {
// The interpolated surface strays from the nodes the table's sphere holds by far less than this
// fraction of its radius for any table fine enough to use (as in contact_newton.cpp).
constexpr double kBoundingInflation = 1.01;
}  // namespace

Eigen::Vector3d ContactSurface::bounding_centre() const {
  if (kind != Kind::table) return mount.offset;
  return mount.offset + mount.rotation * (tables->meters_per_unit() * tables->bounding_centre());
}

double ContactSurface::bounding_radius() const {
  switch (kind) {
    case Kind::table: return kBoundingInflation * tables->meters_per_unit() * tables->bounding_radius();
    case Kind::sphere: return radius;
    case Kind::cavity:
    case Kind::plane: break;
  }
  return std::numeric_limits<double>::infinity();
}

}  // namespace surfdb
