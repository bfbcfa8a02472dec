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

/// A solid box with its centre and axes in the body.
struct Box {
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();  // box axes to body axes
  Eigen::Vector3d half_extents = Eigen::Vector3d::Zero();
};

/// Up to three simultaneous contacts (a ball in the corner of a cylinder touches wall and base).
struct ContactList {
  int count = 0;
  std::array<ContactResult, 3> items;
};

ContactResult contact_sphere_plane(const BodyState& i, const Sphere& s, const BodyState& j, const Plane& p);
/// Two convex spheres.
ContactResult contact_sphere_sphere(const BodyState& i, const Sphere& s, const BodyState& j, const Sphere& other);
/// A ball inside a spherical cavity (a cup) of radius cavity.radius > s.radius, limited to a cap:
/// where the wall point nearest the ball lies beyond the rim the ball touches nothing (separated,
/// the gap measured to the rim circle).
ContactResult contact_sphere_in_sphere(const BodyState& i, const Sphere& s, const BodyState& j, const Sphere& cavity,
                                       const CavityCap& cap = {});
/// A ball inside a closed cylinder: wall, bottom and top, each a contact when it is touched.
ContactList contact_sphere_in_cylinder(const BodyState& i, const Sphere& s, const BodyState& j, const CylinderCavity& c);
/// A ball against a solid box: the nearest face, edge or corner; from inside, the nearest face.
ContactResult contact_sphere_box(const BodyState& i, const Sphere& s, const BodyState& j, const Box& b);

}  // namespace surfdb
