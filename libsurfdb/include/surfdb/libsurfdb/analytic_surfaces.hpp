// Built-in closed-form surfaces, for tests, demos and reference solutions. Lengths in millimetres.
//   octant    x = R cos u cos v, y = R cos u sin v, z = R sin u; u, v in [0, pi/2] (Machado, Flores and Ambrósio 2014, Eq. 3;
//             ds/du x ds/dv points to the centre, the pole is at u = pi/2)
//   sphere    x = R cos v cos u, y = R cos v sin u, z = R sin v; u in [0, 2pi], v in [-pi/2, pi/2]
//   plane     x = u, y = v, z = 0; u, v in [0, L]
//   cylinder  x = R cos u, y = R sin u, z = v; u in [0, 2pi], v in [0, L]
//   torus     x = (R + r cos v) cos u, y = (R + r cos v) sin u, z = r sin v; u, v in [0, 2pi]
// The sphere, cylinder and torus use OpenCASCADE's parameterisations and outward normals.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "surfdb/libsurfdb/surface_source.hpp"

namespace surfdb {

enum class AnalyticKind { octant, sphere, plane, cylinder, torus };

struct AnalyticSpec {
  AnalyticKind kind = AnalyticKind::octant;
  double radius = 50.0;        // R, mm
  double minor_radius = 10.0;  // r of the torus, mm
  double length = 100.0;       // L: plane side, cylinder height, mm
  std::optional<std::pair<double, double>> u_range;  // overrides the default parameter range
  std::optional<std::pair<double, double>> v_range;
};

/// Parses "octant", "sphere", "plane", "cylinder" or "torus"; throws std::invalid_argument.
AnalyticKind parse_analytic_kind(const std::string& name);

/// Throws std::invalid_argument for non-positive sizes or an empty or reversed range.
std::unique_ptr<SurfaceSource> make_analytic_surface(const AnalyticSpec& spec);

}  // namespace surfdb
