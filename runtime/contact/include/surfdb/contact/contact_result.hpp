// What every contact detector returns, free-form or analytic, so a scenario can mix them.
// Bodies i and j; the normal is body j's, out of its material, so the force on i acts along +normal.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <cstdint>

#include "surfdb/contact/body_state.hpp"

namespace surfdb {

enum class ContactStatus : std::uint8_t {
  separated = 0,       // solved: the surfaces do not overlap
  touching = 1,        // solved: indentation > 0
  no_convergence = 2,  // Newton did not converge within its iterations (guess reset for next time)
  invalid_cell = 3,    // the contact point is on a trimmed-away or padding cell
  outside_domain = 4,  // the contact point left a surface's parameter domain
  singular = 5,        // parallel or zero normals, or a singular Jacobian
};

const char* contact_status_name(ContactStatus s);

struct ContactResult {
  ContactStatus status = ContactStatus::separated;
  double u_i = 0, v_i = 0, u_j = 0, v_j = 0;  // contact parameters (free-form; 0 for primitives)
  Eigen::Vector3d point_i = Eigen::Vector3d::Zero();  // contact point on i, world, m
  Eigen::Vector3d point_j = Eigen::Vector3d::Zero();  // contact point on j, world, m
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  // unit, world: out of j's material
  double indentation = 0;       // delta >= 0, m (0 unless touching)
  /// Where the load is spread (an edge, contact_sphere_edge.hpp): the indentation at which the
  /// law's elastic energy K delta^(n+1) / (n+1) is the spread load's, m; NaN: `indentation`'s.
  double energy_indentation = NAN;
  double gap = 0;               // separation >= 0, m, when separated
  double indentation_rate = 0;  // d(delta)/dt, m/s, > 0 while approaching
  Eigen::Vector3d tangential_velocity = Eigen::Vector3d::Zero();  // of i relative to j, m/s
  double curvature_i = 0, curvature_j = 0;  // mean curvatures at the points, 1/m, convex > 0
  int iterations = 0;  // of the solve; 0 where none ran (a closed form, far apart, or skipped: skip_while_apart)

  bool in_contact() const { return status == ContactStatus::touching; }
};

/// Sets r's indentation rate and tangential velocity from the bodies' velocities at its points.
inline void set_relative_velocity(ContactResult& r, const BodyState& body_i, const BodyState& body_j) {
  const Eigen::Vector3d v_rel = body_i.point_velocity(r.point_i) - body_j.point_velocity(r.point_j);
  r.indentation_rate = -v_rel.dot(r.normal);
  r.tangential_velocity = v_rel - v_rel.dot(r.normal) * r.normal;
}

}  // namespace surfdb
