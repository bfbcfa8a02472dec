// The surfaces of a scene, read-only: each placed in a body, a table set (one or more faces), a
// triangle mesh or an analytic shape (sphere, spherical cavity, plane, solid box, solid cylinder,
// closed cylindrical cavity); and how two of them make a contact pair.
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "surfdb/contact/contact_newton.hpp"
#include "surfdb/contact/triangle_mesh.hpp"
#include "surfdb/contact/force_laws.hpp"
#include "surfdb/multibody/multibody_model.hpp"
#include "surfdb/table/table_set.hpp"

namespace surfdb {

struct ContactSurface {
  enum class Kind { table, sphere, cavity, plane, box, cylinder, cylinder_cavity, mesh };
  std::string name;
  int body = kGround;
  /// Where the surface sits in its body (m, body axes): a table's frame; a sphere's, cavity's,
  /// box's or cylinder's centre and axes (a cylinder along the mount's z); a point on a plane.
  SurfaceMount mount;
  Kind kind = Kind::table;
  std::shared_ptr<const TableSet> tables;  // table
  /// mesh; a table's grid as a mesh when a polygonal contact uses it (mesh_from_tables.hpp)
  std::shared_ptr<const TriangleMesh> mesh;
  /// The surface's elastic layer for the polygonal model: modulus K (Pa) and thickness b (m).
  std::optional<std::pair<double, double>> foundation_layer;  WindowSize window{5, 5};                 // table: storage window per face, records
  Residency residency = Residency::direct_mapping;
  double radius = 0;                                   // sphere, cavity, cylinder, cylinder cavity: m
  double length = 0;                                   // cylinder, cylinder cavity: m, along the mount's z
  Eigen::Vector3d half_extents = Eigen::Vector3d::Zero();  // box: m, along the mount's axes
  double cap_height = std::numeric_limits<double>::infinity();  // cavity: m, the cap kept (CavityCap)
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  // plane: surface axes
  std::optional<Material> material;                    // for stiffness from curvature

  /// Whether the surface has bounds for the broad phase (a plane and a spherical cavity have none:
  /// a cavity's inside is where its partners are).
  bool bounded() const { return kind != Kind::plane && kind != Kind::cavity; }
  /// A sphere holding the surface in body axes: centre (m) and radius (m, inflated by the bound on
  /// how far interpolation strays from a table's nodes); infinite for unbounded surfaces.
  Eigen::Vector3d bounding_centre() const;
  double bounding_radius() const;
};

/// Whether a surface of kind i (as surface_i) and one of kind j make a pair a point-contact
/// detector takes: a table with a table (the common-normal solve), a sphere with anything but a
/// mesh (its centre projected on a table, or a closed form). Meshes, and tables as meshes, pair
/// with each other under the polygonal model.
inline bool can_pair(ContactSurface::Kind i, ContactSurface::Kind j) {
  using Kind = ContactSurface::Kind;
  return (i == Kind::table && j == Kind::table) || (i == Kind::sphere && j != Kind::mesh);
}

}  // namespace surfdb
