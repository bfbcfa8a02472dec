// One solid ball (body 0) under gravity (along -z unless told) against a fixed analytic surface of the ground:
// the single-contact scenes of the multibody tests.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "surfdb/multibody/simulation.hpp"

namespace surfdb::test {

struct BallScene {
  double mass = 0.011, radius = 0.01, gravity = 9.81;  // kg, m, m/s^2
  std::string contact = "ball-floor", ground = "floor";
  FrictionLaw friction = NoFriction{};
  Eigen::Vector3d down = -Eigen::Vector3d::UnitZ();  // unit, gravity's direction
};

/// The ball of `scene` against `shape` (its sphere set here: radius at the ball's centre) with
/// `law`; `tolerance` is the contact's initial_penetration_tolerance.
inline std::unique_ptr<Simulation> ball_simulation(const BallScene& scene, AnalyticContact shape, NormalLaw law,
                                                   std::optional<double> tolerance = {}) {
  MultibodyModel model;
  model.bodies.push_back({"ball", scene.mass, Eigen::Matrix3d::Identity() * 0.4 * scene.mass * scene.radius * scene.radius});
  model.gravity = scene.gravity * scene.down;
  ContactSpec spec{.name = scene.contact, .surface_i = "ball", .surface_j = scene.ground, .body_i = 0, .body_j = kGround};
  shape.sphere = {Eigen::Vector3d::Zero(), scene.radius};
  spec.geometry = shape;
  spec.law = law;
  spec.friction = scene.friction;
  spec.initial_penetration_tolerance = tolerance;
  std::vector<ContactPair> pairs;
  pairs.emplace_back(spec);
  return std::make_unique<Simulation>(std::move(model), std::move(pairs));
}

}  // namespace surfdb::test
