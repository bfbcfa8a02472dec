// Analytic contact between a sphere and simple shapes (Corral et al. 2021, §3), returning the same
// ContactResult as the free-form pair so scenarios can mix them, and serving as exact references.
// Body i always carries the sphere; shapes are given in their body's axes, SI units.
#pragma once

#include <array>
#include <limits>

#include "surfdb/contact/body_state.hpp"
#include "surfdb/contact/contact_result.hpp"

namespace surfdb {

struct Sphere {
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();  // body axes, m
  double radius = 0;                                  // m
};

/// The half-space below a plane; normal out of the material.
struct Plane {
  Eigen::Vector3d point = Eigen::Vector3d::Zero();
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  // unit
};

/// The part of a spherical cavity a cup keeps: the cap up to `height` above the cavity's lowest
/// point, measured along `axis` (the cup's opening, body axes); the whole sphere by default.
struct CavityCap {
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();         // unit
  double height = std::numeric_limits<double>::infinity();  // m
};

/// A closed cylindrical container: the inside of the wall and the two bases.
struct CylinderCavity {
  Eigen::Vector3d base = Eigen::Vector3d::Zero();   // centre of the bottom base
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();  // unit, from the bottom base to the top
  double radius = 0, height = 0;
};

/// A solid cylinder: its lateral surface, two flat bases and the two rim edges between them.
struct Cylinder {
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();  // of the axis segment
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();   // unit
  double radius = 0, length = 0;                     // m; length along the axis, base to base
};

/// A solid box with its centre and axes in the body.
struct Box {
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();  // box axes to body axes
  Eigen::Vector3d half_extents = Eigen::Vector3d::Zero();
};

/// A ball in a closed cylinder, one result per part of the container, each touching or not (a
/// ball in a corner touches the wall and a base at once): indices kWall, kBottom, kTop.
using CylinderCavityContacts = std::array<ContactResult, 3>;
inline constexpr std::size_t kWall = 0, kBottom = 1, kTop = 2;

ContactResult contact_sphere_plane(const BodyState& i, const Sphere& s, const BodyState& j, const Plane& p);
/// Two convex spheres.
ContactResult contact_sphere_sphere(const BodyState& i, const Sphere& s, const BodyState& j, const Sphere& other);
/// A ball inside a spherical cavity (a cup) of radius cavity.radius > s.radius, limited to a cap:
/// where the wall point nearest the ball lies beyond the rim the ball touches nothing (separated,
/// the gap measured to the rim circle). A ball whose centre is outside the cavity's sphere touches
/// nothing either: the cavity's outside is no surface.
ContactResult contact_sphere_in_sphere(const BodyState& i, const Sphere& s, const BodyState& j, const Sphere& cavity,
                                       const CavityCap& cap = {});
/// A ball inside a closed cylinder: wall, bottom and top. On the axis the wall has no nearest
/// point; its result is then separated by the radial clearance. A ball whose centre is outside
/// the cylinder touches none of them.
CylinderCavityContacts contact_sphere_in_cylinder(const BodyState& i, const Sphere& s, const BodyState& j,
                                                  const CylinderCavity& c);
/// A ball against a solid cylinder: the nearest point of its lateral surface, a base or a rim edge;
/// from inside, out through the nearest of lateral surface and bases (singular on the axis when the
/// lateral surface is nearer: no direction is preferred).
ContactResult contact_sphere_cylinder(const BodyState& i, const Sphere& s, const BodyState& j, const Cylinder& c);
/// A ball against a solid box: the nearest face, edge or corner; from inside, the nearest face.
ContactResult contact_sphere_box(const BodyState& i, const Sphere& s, const BodyState& j, const Box& b);

}  // namespace surfdb
