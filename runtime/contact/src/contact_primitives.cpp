#include "surfdb/contact/contact_primitives.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>

namespace surfdb {
namespace {

Eigen::Vector3d world_point(const Pose& pose, const Eigen::Vector3d& body_point) {
  return pose.r + pose.A * body_point;
}

// Completes a contact given the world points on both bodies and j's normal (out of j's material):
// status from the signed separation along the normal, indentation rate, tangential velocity.
ContactResult finish(const BodyState& i, const BodyState& j, const Eigen::Vector3d& point_i,
                     const Eigen::Vector3d& point_j, const Eigen::Vector3d& normal, double curvature_i,
                     double curvature_j) {
  ContactResult r;
  r.point_i = point_i;
  r.point_j = point_j;
  r.normal = normal;
  r.curvature_i = curvature_i;
  r.curvature_j = curvature_j;
  const double separation = (point_i - point_j).dot(normal);
  if (separation < 0) {
    r.status = ContactStatus::touching;
    r.indentation = -separation;
  } else {
    r.status = ContactStatus::separated;
    r.gap = separation;
  }
  set_relative_velocity(r, i, j);
  return r;
}

// A ball whose centre is outside a cavity: the cavity's inside is its surface, so it touches nothing
// (a cup in a group with balls in other cups; a ball that went through a wall leaves).
ContactResult outside_cavity(double distance) {
  ContactResult r;
  r.status = ContactStatus::separated;
  r.gap = distance;  // m, of the centre from the cavity
  return r;
}

ContactResult singular() {
  ContactResult r;
  r.status = ContactStatus::singular;
  return r;
}

// A ball whose nearest cavity point lies beyond a cap's rim: apart from the cup, the gap measured
// from the ball's surface to the nearest point of the rim circle (0 where it overlaps the rim).
ContactResult beyond_rim(const Eigen::Vector3d& centre, double radius, const Eigen::Vector3d& cavity_centre,
                         double cavity_radius, const Eigen::Vector3d& axis, double cap_height) {
  const double rise = cap_height - cavity_radius;  // the rim's plane above the cavity's centre
  const Eigen::Vector3d rim_centre = cavity_centre + rise * axis;
  const Eigen::Vector3d across = centre - rim_centre - (centre - rim_centre).dot(axis) * axis;
  const Eigen::Vector3d e = across.norm() > 0 ? across.normalized() : axis.unitOrthogonal();
  const Eigen::Vector3d rim = rim_centre + std::sqrt(std::max(cavity_radius * cavity_radius - rise * rise, 0.0)) * e;
  ContactResult r;
  r.status = ContactStatus::separated;
  r.normal = (centre - rim).norm() > 0 ? (centre - rim).normalized() : axis;
  r.point_j = rim;
  r.point_i = centre - radius * r.normal;
  r.gap = std::max((centre - rim).norm() - radius, 0.0);
  return r;
}

}  // namespace

ContactResult contact_sphere_plane(const BodyState& i, const Sphere& s, const BodyState& j, const Plane& p) {
  const Eigen::Vector3d c = world_point(i.pose, s.centre);
  const Eigen::Vector3d n = j.pose.A * p.normal;
  const Eigen::Vector3d on_plane = c - (c - world_point(j.pose, p.point)).dot(n) * n;
  return finish(i, j, c - s.radius * n, on_plane, n, 1 / s.radius, 0);
}

ContactResult contact_sphere_sphere(const BodyState& i, const Sphere& s, const BodyState& j, const Sphere& other) {
  const Eigen::Vector3d ci = world_point(i.pose, s.centre), cj = world_point(j.pose, other.centre);
  const Eigen::Vector3d d = ci - cj;
  if (!(d.norm() > 0)) return singular();  // concentric: no direction
  const Eigen::Vector3d n = d.normalized();
  return finish(i, j, ci - s.radius * n, cj + other.radius * n, n, 1 / s.radius, 1 / other.radius);
}

ContactResult contact_sphere_in_sphere(const BodyState& i, const Sphere& s, const BodyState& j, const Sphere& cavity,
                                       const CavityCap& cap) {
  const Eigen::Vector3d ci = world_point(i.pose, s.centre), cj = world_point(j.pose, cavity.centre);
  const Eigen::Vector3d d = ci - cj;
  if (!(d.norm() > 0)) return singular();  // the ball at the centre touches nothing, in no direction
  const Eigen::Vector3d out = d.normalized();  // from the cavity's centre towards the ball
  if (d.norm() > cavity.radius) return outside_cavity(d.norm() - cavity.radius);  // its outside is no surface
  const Eigen::Vector3d axis = j.pose.A * cap.axis;
  if (cavity.radius * (1 + out.dot(axis)) > cap.height) return beyond_rim(ci, s.radius, cj, cavity.radius, axis, cap.height);
  // The cavity wall's normal points back to the centre: delta = |d| - (R_cavity - R_ball).
  return finish(i, j, ci + s.radius * out, cj + cavity.radius * out, -out, 1 / s.radius, -1 / cavity.radius);
}

CylinderCavityContacts contact_sphere_in_cylinder(const BodyState& i, const Sphere& s, const BodyState& j,
                                                  const CylinderCavity& c) {
  const Eigen::Vector3d centre = world_point(i.pose, s.centre);
  const Eigen::Vector3d base = world_point(j.pose, c.base), axis = j.pose.A * c.axis;
  const Eigen::Vector3d rel = centre - base;
  const double z = rel.dot(axis);
  const Eigen::Vector3d radial = rel - z * axis;
  CylinderCavityContacts out;
  const double beyond = std::max({radial.norm() - c.radius, -z, z - c.height});
  if (beyond > 0) {  // the centre is outside the can
    out.fill(outside_cavity(beyond));
    return out;
  }
  if (radial.norm() > 0) {
    const Eigen::Vector3d n = radial.normalized();
    // A cylinder's mean curvature is half its circle's, concave seen from inside.
    out[kWall] = finish(i, j, centre + s.radius * n, base + z * axis + c.radius * n, -n, 1 / s.radius,
                        -1 / (2 * c.radius));
  } else {  // on the axis no wall point is nearer than another: none is touched
    out[kWall].gap = std::max(c.radius - s.radius, 0.0);
    out[kWall].normal = -axis.unitOrthogonal();
  }
  out[kBottom] = finish(i, j, centre - s.radius * axis, centre - z * axis, axis, 1 / s.radius, 0);
  out[kTop] = finish(i, j, centre + s.radius * axis, centre + (c.height - z) * axis, -axis, 1 / s.radius, 0);
  return out;
}

ContactResult contact_sphere_cylinder(const BodyState& i, const Sphere& s, const BodyState& j, const Cylinder& c) {
  const Eigen::Vector3d centre = world_point(i.pose, s.centre);
  const Eigen::Vector3d middle = world_point(j.pose, c.centre), axis = j.pose.A * c.axis;
  const double half = 0.5 * c.length;
  const double z = (centre - middle).dot(axis);
  const Eigen::Vector3d radial = centre - middle - z * axis;
  const double rho = radial.norm();
  const Eigen::Vector3d out = rho > 0 ? Eigen::Vector3d(radial / rho) : axis.unitOrthogonal();
  const double z_on = std::clamp(z, -half, half), rho_on = std::min(rho, c.radius);
  if (z_on != z || rho_on != rho) {  // outside: the nearest point of the lateral surface, a base or a rim
    const Eigen::Vector3d nearest = middle + z_on * axis + rho_on * out;
    const Eigen::Vector3d n = (centre - nearest).normalized();
    const bool on_wall = z_on == z;  // else on a base or a rim, taken as flat
    return finish(i, j, centre - s.radius * n, nearest, n, 1 / s.radius, on_wall ? 1 / (2 * c.radius) : 0);
  }
  // Inside: out through the nearer of the lateral surface and the bases.
  if (c.radius - rho < half - std::abs(z)) {
    if (!(rho > 0)) return singular();
    return finish(i, j, centre - s.radius * out, middle + z * axis + c.radius * out, out, 1 / s.radius, 1 / (2 * c.radius));
  }
  const Eigen::Vector3d n = z < 0 ? Eigen::Vector3d(-axis) : axis;
  return finish(i, j, centre - s.radius * n, centre + (half - std::abs(z)) * n, n, 1 / s.radius, 0);
}

ContactResult contact_sphere_box(const BodyState& i, const Sphere& s, const BodyState& j, const Box& b) {
  const Eigen::Matrix3d R = j.pose.A * b.axes;  // box axes to world
  const Eigen::Vector3d origin = world_point(j.pose, b.centre);
  const Eigen::Vector3d centre = world_point(i.pose, s.centre);
  const Eigen::Vector3d local = R.transpose() * (centre - origin);
  const Eigen::Vector3d closest = local.cwiseMax(-b.half_extents).cwiseMin(b.half_extents);
  const Eigen::Vector3d outside = local - closest;
  if (outside.norm() > 0) {  // nearest face, edge or corner: as many coordinates clamped
    const Eigen::Vector3d n = R * outside.normalized();
    const Eigen::Vector3d on_box = origin + R * closest;
    return finish(i, j, centre - s.radius * n, on_box, n, 1 / s.radius, 0);
  }
  // The centre is inside the box: push out through the nearest face.
  int axis = 0;
  double least = std::numeric_limits<double>::infinity();
  for (int k = 0; k < 3; ++k) {
    const double depth = b.half_extents[k] - std::abs(local[k]);
    if (depth < least) {
      least = depth;
      axis = k;
    }
  }
  Eigen::Vector3d face = local;
  face[axis] = local[axis] < 0 ? -b.half_extents[axis] : b.half_extents[axis];
  Eigen::Vector3d n_local = Eigen::Vector3d::Zero();
  n_local[axis] = local[axis] < 0 ? -1 : 1;
  const Eigen::Vector3d n = R * n_local;
  return finish(i, j, centre - s.radius * n, origin + R * face, n, 1 / s.radius, 0);
}

}  // namespace surfdb
