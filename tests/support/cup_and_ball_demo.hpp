// The paper's demonstration (Machado, Flores and Ambrósio 2014, §6): the slider-crank carrying the
// cup, and the marble ball dropped into it, with the contact either on the 999 x 999 lookup tables
// or analytic.
#pragma once

#include "ball_and_cup.hpp"
#include "slider_crank.hpp"
#include "surfdb/multibody/simulation.hpp"

namespace surfdb::test {

inline constexpr int kCupBody = 3, kBallBody = 4;

inline MultibodyModel cup_and_ball_model() {
  MultibodyModel m = slider_crank();
  const double mass = 0.011, inertia = 0.4 * mass * 0.01 * 0.01;  // solid glass ball, R 10 mm
  m.bodies.push_back({"ball", mass, Eigen::Matrix3d::Identity() * inertia});
  return m;
}

inline std::vector<double> cup_and_ball_initial_state() {
  std::vector<double> y = slider_crank_initial_state(2.0);
  y.resize(5 * kBodyStateSize);
  set_body_state(y.data(), kBallBody, {0.4572, 0.0056, 0.012}, Eigen::Quaterniond::Identity(),
                 Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
  return y;
}

/// The ball-cup contact; the cup's sphere is centred on the cup body's reference point.
inline ContactSpec ball_cup_contact(bool tables, NormalLaw law) {
  ContactSpec c{.name = "ball-cup", .surface_i = "ball", .surface_j = "cup", .body_i = kBallBody, .body_j = kCupBody};
  if (tables) {
    const BallAndCup& t = ball_and_cup();
    // As a scenario's contact between tables (pair_spec): no solve while the ball is surely apart.
    c.geometry = FreeformSurfaces{TableSet::single(t.ball), TableSet::single(t.cup), t.mount, t.mount,
                                  ContactOptions{.skip_while_apart = true}};
  } else {
    AnalyticContact a;
    a.shape = AnalyticContact::Shape::cavity;
    a.sphere = {Eigen::Vector3d::Zero(), 0.010};
    a.other = {Eigen::Vector3d::Zero(), 0.050};
    c.geometry = a;
  }
  c.law = law;
  return c;
}

}  // namespace surfdb::test
