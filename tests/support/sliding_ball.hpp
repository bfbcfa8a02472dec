// The paper's marble (R 10 mm, 11 g) sliding in its cup (R 50 mm) under a surface_contact joint,
// shared by the joint's tests: the constants, the surfaces as the ball-and-cup tables give them, a
// one-ball model, a recorder of the ball's path, and the closed form of a pendulum's period.
#pragma once

#include <cmath>
#include <memory>
#include <numbers>
#include <vector>

#include "ball_and_cup.hpp"
#include "surfdb/multibody/simulation.hpp"

namespace surfdb::test {

inline constexpr double kBallMass = 0.011, kGravity = 9.81;
inline constexpr double kBallRadius = 0.010, kCupRadius = 0.050;  // m
inline constexpr double kPendulumLength = kCupRadius - kBallRadius;  // cup centre to ball centre

/// K(k), the complete elliptic integral of the first kind, by the arithmetic-geometric mean:
/// K = pi / (2 AGM(1, sqrt(1 - k^2))). A pendulum of length L from rest at theta0 has the period
/// 4 sqrt(L / g) K(sin(theta0 / 2)).
inline double elliptic_k(double k) {
  double a = 1, b = std::sqrt(1 - k * k);
  for (int i = 0; i < 40; ++i) {
    const double m = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = m;
  }
  return std::numbers::pi / (2 * a);
}

/// A table surface of the ball-and-cup fixture, mounted with its contact region away from the poles.
inline ContactSurface table_surface(const char* name, int body, std::shared_ptr<const Database> table) {
  ContactSurface s;
  s.name = name;
  s.body = body;
  s.kind = ContactSurface::Kind::table;
  s.tables = TableSet::single(std::move(table));
  s.mount = ball_and_cup().mount;
  return s;
}

/// The ball as body 0, a solid sphere, under gravity along -z.
inline MultibodyModel ball_model() {
  MultibodyModel m;
  m.bodies.push_back({"ball", kBallMass, 0.4 * kBallMass * kBallRadius * kBallRadius * Eigen::Matrix3d::Identity()});
  m.gravity = {0, 0, -kGravity};
  return m;
}

/// Every accepted step's time and ball (body 0) centre.
struct Track : RunObserver {
  std::vector<double> t;
  std::vector<Eigen::Vector3d> r;
  void accepted(const Simulation&, double time, const double* y) override {
    t.push_back(time);
    r.push_back(body_view(y, 0).r());
  }
  /// Times at which x crosses 0 upwards, interpolated.
  std::vector<double> upward_crossings() const {
    std::vector<double> out;
    for (std::size_t k = 1; k < t.size(); ++k)
      if (r[k - 1].x() < 0 && r[k].x() >= 0)
        out.push_back(t[k - 1] + (t[k] - t[k - 1]) * -r[k - 1].x() / (r[k].x() - r[k - 1].x()));
    return out;
  }
};

}  // namespace surfdb::test
