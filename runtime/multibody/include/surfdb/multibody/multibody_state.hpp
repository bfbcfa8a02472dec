// The state vector of the multibody loop and views into it. Per body, 13 numbers:
// position r (3, world, m), Euler parameters p = (e0, e1, e2, e3) (4, body to world),
// velocity v (3, world, m/s), angular velocity w' (3, body axes, rad/s).
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "surfdb/contact/body_state.hpp"

namespace surfdb {

inline constexpr int kBodyStateSize = 13;

/// Read access to body k's part of a state vector.
struct BodyStateView {
  const double* y;

  Eigen::Map<const Eigen::Vector3d> r() const { return Eigen::Map<const Eigen::Vector3d>(y); }
  Eigen::Quaterniond orientation() const { return Eigen::Quaterniond(y[3], y[4], y[5], y[6]).normalized(); }
  Eigen::Map<const Eigen::Vector3d> v() const { return Eigen::Map<const Eigen::Vector3d>(y + 7); }
  Eigen::Map<const Eigen::Vector3d> w_body() const { return Eigen::Map<const Eigen::Vector3d>(y + 10); }

  /// Pose and world velocities as the contact code takes them.
  BodyState body_state() const {
    BodyState s;
    s.pose.r = r();
    s.pose.A = orientation().toRotationMatrix();
    s.velocity = v();
    s.angular_velocity = s.pose.A * w_body();
    return s;
  }
};

inline BodyStateView body_view(const double* y, int k) { return {y + kBodyStateSize * k}; }

/// Writes body k's initial state.
inline void set_body_state(double* y, int k, const Eigen::Vector3d& r, const Eigen::Quaterniond& q,
                           const Eigen::Vector3d& v, const Eigen::Vector3d& w_body) {
  double* b = y + kBodyStateSize * k;
  const Eigen::Quaterniond n = q.normalized();
  const double values[13] = {r.x(), r.y(), r.z(), n.w(), n.x(), n.y(), n.z(),
                             v.x(), v.y(), v.z(), w_body.x(), w_body.y(), w_body.z()};
  for (int c = 0; c < 13; ++c) b[c] = values[c];
}

}  // namespace surfdb
