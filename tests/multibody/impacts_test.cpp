// A contact's record of its impacts (ContactGroup::impacts_detail) against closed forms: a ball
// dropped from rest onto the ground plane, Hertz contact. Free fall gives the start and the
// approach velocity, the energy balance the deepest indentation and with it the largest force,
// Hertz's impact duration the end; a conservative law bounces the ball back to the same speed, a
// dissipative one returns it slower by exactly the energy the first impact dissipated.
#include <doctest/doctest.h>

#include <cmath>

#include "../support/approx.hpp"
#include "../support/ball_scene.hpp"
#include "surfdb/multibody/simulation.hpp"

using namespace surfdb;
using surfdb::test::ball_simulation;
using surfdb::test::relative;

namespace {

constexpr double kMass = 0.011, kRadius = 0.01, kStiffness = 1e8, kG = 9.81;
constexpr double kDrop = 0.02;   // m, from the ball's lowest point to the plane
constexpr double kStep = 1e-6;   // s, RK4
// Hertz's duration of an impact (n = 3/2, gravity neglected): T = (2 delta_max / v) times
// the integral of (1 - x^(5/2))^(-1/2) over [0, 1], which is B(2/5, 1/2) / (5/2): 2.9432 delta_max / v
// (= 3.2145 (m / K)^(2/5) v^(-1/5)).
const double kHertzDuration = 2 * std::tgamma(0.4) * std::tgamma(0.5) / std::tgamma(0.9) / 2.5;

struct Drop {
  std::vector<ImpactRecord> impacts;
  double max_indentation = 0;  // the group's statistic
  double dissipated = 0;       // J at the end
};

Drop drop(NormalLaw law, double end_time) {
  AnalyticContact shape;
  shape.shape = AnalyticContact::Shape::plane;
  shape.plane = {Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitZ()};
  const auto simulation = ball_simulation({kMass, kRadius, kG}, shape, law);
  Simulation& sim = *simulation;
  std::vector<double> y(kBodyStateSize);
  set_body_state(y.data(), 0, {0, 0, kRadius + kDrop}, Eigen::Quaterniond::Identity(), Eigen::Vector3d::Zero(),
                 Eigen::Vector3d::Zero());
  RunObserver silent;
  sim.run(y, {.end_time = end_time, .integrator = IntegratorKind::rk4, .step = kStep}, silent);
  return {sim.contacts()[0].impacts_detail(), sim.contacts()[0].statistics().max_indentation,
          sim.dissipated_energy(y.data())};
}

// The deepest indentation of a Hertz impact at speed v, gravity's work included:
// K delta^2.5 / 2.5 = m v^2 / 2 + m g delta, by Newton's method from the gravity-free answer.
double deepest(double v) {
  double d = std::pow(5 * kMass * v * v / (4 * kStiffness), 0.4);
  for (int k = 0; k < 20; ++k)
    d -= (kStiffness * std::pow(d, 2.5) / 2.5 - 0.5 * kMass * v * v - kMass * kG * d) /
         (kStiffness * std::pow(d, 1.5) - kMass * kG);
  return d;
}

const double kFallTime = std::sqrt(2 * kDrop / kG), kImpactSpeed = std::sqrt(2 * kG * kDrop);

}  // namespace

TEST_CASE("a ball dropped on a plane, Hertz: each impact's start, approach speed, depth, force and end") {
  const Drop d = drop(Hertz{kStiffness, 1.5}, 0.2);
  REQUIRE(d.impacts.size() == 2);  // down, up, down again at about 0.192 s
  const ImpactRecord& first = d.impacts[0];
  const double delta = deepest(kImpactSpeed), duration = kHertzDuration * delta / kImpactSpeed;
  MESSAGE("first impact: start " << first.start << " s (free fall " << kFallTime << "), approach "
                                 << first.approach_velocity << " m/s (" << kImpactSpeed << "), depth "
                                 << first.max_indentation << " m (" << delta << "), force " << first.max_force
                                 << " N (" << kStiffness * std::pow(delta, 1.5) << "), duration "
                                 << first.end - first.start << " s (" << duration << ")");
  // The first accepted step in contact: within a step after the free fall's end.
  CHECK(first.start >= kFallTime);
  CHECK(first.start <= kFallTime + kStep);
  CHECK(first.approach_velocity == relative(kImpactSpeed, 1e-4));
  CHECK(first.max_indentation == relative(delta, 1e-5));
  CHECK(first.max_force == relative(kStiffness * std::pow(delta, 1.5), 1e-5));
  // The first accepted step apart: within a step of Hertz's duration (gravity adds 1e-3 of it).
  CHECK(first.end - first.start == relative(duration, 4e-3));
  // Elastic: back up and down to the same speed, a flight of 2 v / g later.
  const ImpactRecord& second = d.impacts[1];
  CHECK(second.approach_velocity == relative(kImpactSpeed, 1e-4));
  CHECK(second.start - first.end == relative(2 * kImpactSpeed / kG, 1e-4));
  CHECK(std::isnan(second.end) == (second.start + duration > 0.2));
  // The group's max_indentation stays the overall maximum.
  CHECK(d.max_indentation == std::max(first.max_indentation, second.max_indentation));
}

TEST_CASE("a ball dropped on a plane, Hunt-Crossley: the second impact slower by the energy dissipated") {
  const HuntCrossley law{kStiffness, 1.5, 0.8};
  const Drop between = drop(law, 0.15);  // after the first impact, before the second
  REQUIRE(between.impacts.size() == 1);
  REQUIRE(between.dissipated > 0);
  const Drop d = drop(law, 0.2);
  REQUIRE(d.impacts.size() == 2);
  const double v1 = d.impacts[0].approach_velocity, v2 = d.impacts[1].approach_velocity;
  MESSAGE("approach " << v1 << " then " << v2 << " m/s; the first impact dissipated " << between.dissipated << " J");
  CHECK(v1 == relative(kImpactSpeed, 1e-4));
  CHECK(v2 < v1);
  CHECK(v2 == relative(std::sqrt(v1 * v1 - 2 * between.dissipated / kMass), 1e-4));
  // Damping shallows the impact: less deep than the elastic closed form.
  CHECK(d.impacts[0].max_indentation < deepest(kImpactSpeed));
}
