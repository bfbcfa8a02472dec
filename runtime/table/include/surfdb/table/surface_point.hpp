// The answer to a query at (u,v): point and frame interpolated in the grid cell, with the cell
// derivatives a Newton solver needs. Lengths are in the database's length unit (mm for CAD input).
#pragma once

#include <Eigen/Core>
#include <cstdint>

namespace surfdb {

enum class QueryStatus : std::uint8_t {
  valid = 0,           // inside the domain, all four cell corners valid
  outside_domain = 1,  // (u,v) beyond a non-periodic bound: values at the nearest boundary point
  invalid_cell = 2,    // a corner is trimmed away or padding: values interpolated all the same
};

const char* status_name(QueryStatus s);  // "valid", "outside_domain", "invalid_cell"

struct SurfacePoint {
  QueryStatus status = QueryStatus::valid;
  double u = 0, v = 0;         // parameters used: wrapped into a periodic range, clamped otherwise
  Eigen::Vector3d p, n, t, b;  // point; orthonormal right-handed frame (n out of the material)
  Eigen::Vector3d dp_du, dp_dv;  // partial derivatives of the bilinear point over the cell
  Eigen::Vector3d dn_du, dn_dv;  // partial derivatives of the unit normal over the cell
  double k1 = 0, k2 = 0;         // principal curvatures, interpolated (0 where not stored)
  bool degenerate = false;       // a corner's frame is a limit (pole)
};

/// The lighter answer: point, its first derivatives and the unit normal, what a CAD kernel's D1
/// evaluation plus a normal gives (OpenCASCADE's `D1`). Same values as the SurfacePoint fields of
/// the same name; about a third of the work, for callers that need no frame or normal derivatives.
struct SurfaceD1 {
  QueryStatus status = QueryStatus::valid;
  double u = 0, v = 0;
  Eigen::Vector3d p, dp_du, dp_dv, n;
};

}  // namespace surfdb
