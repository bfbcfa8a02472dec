// The surfaces of a scene, read-only: each placed in a body, a table set (one or more faces) or an
// analytic sphere, spherical cavity or plane; and how two of them make a contact pair.
#pragma once

#include <limits>
#include <optional>
#include <string>

#include "surfdb/contact/contact_newton.hpp"
#include "surfdb/contact/force_laws.hpp"
#include "surfdb/multibody/multibody_model.hpp"
#include "surfdb/table/table_set.hpp"

namespace surfdb {

struct ContactSurface {
  enum class Kind { table, sphere, cavity, plane };
  std::string name;
  int body = kGround;
  SurfaceMount mount;  // for spheres and cavities the centre, for a plane a point on it (m, body axes)
  Kind kind = Kind::table;
  std::shared_ptr<const TableSet> tables;  // table
  WindowSize window{5, 5};                 // table: storage window per face, records
  Residency residency = Residency::direct_mapping;
  double radius = 0;                                   // sphere, cavity: m
  double cap_height = std::numeric_limits<double>::infinity();  // cavity: m, the cap kept (CavityCap)
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  // plane: surface axes
  std::optional<Material> material;                    // for stiffness from curvature

  /// Whether the surface has bounds (a plane and a cavity have none for the broad phase).
  bool bounded() const { return kind == Kind::table || kind == Kind::sphere; }
  /// A sphere holding the surface in body axes: centre (m) and radius (m, inflated by the bound on
  /// how far interpolation strays from a table's nodes); infinite for unbounded surfaces.
  Eigen::Vector3d bounding_centre() const;
  double bounding_radius() const;
};

}  // namespace surfdb
