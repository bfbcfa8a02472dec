// A ball sent round the inside of a hemispherical cup (a cavity capped at its centre's plane, as
// cup.step is): it follows the wall up to the rim exactly as in the whole sphere, then leaves the
// cup and flies straight up, with no contact force, to the height its speed gives; in the whole
// sphere the wall carries it on past the rim's plane.
#include <doctest/doctest.h>

#include <cmath>

#include "../support/approx.hpp"
#include "../support/ball_scene.hpp"
#include "surfdb/multibody/simulation.hpp"

using namespace surfdb;
using surfdb::test::ball_simulation;
using surfdb::test::relative;

namespace {

constexpr double kMass = 0.011, kRadius = 0.01, kCup = 0.05, kG = 9.81, kSpeed = 1.2;

struct Path {
  double rim_time = NAN;       // s, the first accepted step with the ball's centre above the rim's plane
  Eigen::Vector3d rim_velocity = Eigen::Vector3d::Zero();
  double rim_height = 0;       // m, the centre's height there
  double apex = -INFINITY;     // m, the centre's highest point
  long steps_above_touching = 0, steps_above = 0;
  std::vector<Eigen::Vector3d> below;  // the centre at every step before the rim
};

class Recorder : public RunObserver {
 public:
  explicit Recorder(Path& p) : p_(p) {}
  void accepted(const Simulation& sim, double t, const double* y) override {
    const auto b = body_view(y, 0);
    const Eigen::Vector3d r = b.r();
    if (r.z() <= 0 && std::isnan(p_.rim_time)) return p_.below.push_back(r);
    if (std::isnan(p_.rim_time)) p_.rim_time = t, p_.rim_velocity = b.v(), p_.rim_height = r.z();
    p_.apex = std::max(p_.apex, r.z());
    if (r.z() > 0) ++p_.steps_above, p_.steps_above_touching += sim.contacts()[0].output().points > 0;
  }

 private:
  Path& p_;
};

Path send_round(double cap_height) {
  AnalyticContact shape;
  shape.shape = AnalyticContact::Shape::cavity;
  shape.other = {Eigen::Vector3d::Zero(), kCup};
  shape.cap = {Eigen::Vector3d::UnitZ(), cap_height};
  const auto simulation = ball_simulation({kMass, kRadius, kG, "ball-cup", "cup"}, shape, Hertz{5e9, 1.5});
  Simulation& sim = *simulation;
  std::vector<double> y(kBodyStateSize);
  // At the bottom, just touching, rolling off along x fast enough to pass the rim.
  set_body_state(y.data(), 0, {0, 0, -(kCup - kRadius)}, Eigen::Quaterniond::Identity(), {kSpeed, 0, 0},
                 Eigen::Vector3d::Zero());
  Path path;
  Recorder recorder(path);
  sim.run(y, {.end_time = 0.2, .integrator = IntegratorKind::rk4, .step = 1e-6}, recorder);
  return path;
}

}  // namespace

TEST_CASE("a ball leaves a hemispherical cup over its rim, where the whole sphere carries it on a while") {
  const Path capped = send_round(kCup), whole = send_round(INFINITY);
  REQUIRE(!std::isnan(capped.rim_time));
  // Up to the rim the cap changes nothing: the same path, step for step.
  CHECK(capped.rim_time == whole.rim_time);
  REQUIRE(capped.below.size() == whole.below.size());
  CHECK(capped.below.back() == whole.below.back());
  // Beyond it: never a contact point with the cap, always one with the whole sphere at first.
  MESSAGE("above the rim: " << capped.steps_above << " steps, " << capped.steps_above_touching << " touching (capped), "
                            << whole.steps_above_touching << " of " << whole.steps_above << " (whole sphere)");
  CHECK(capped.steps_above > 1000);
  CHECK(capped.steps_above_touching == 0);
  CHECK(whole.steps_above_touching > 1000);
  // Free flight: the apex is where gravity stops the rim's vertical speed, the horizontal one kept.
  const double vz = capped.rim_velocity.z();
  MESSAGE("rim crossed at " << capped.rim_time << " s at " << vz << " m/s upwards; apex " << capped.apex << " m");
  CHECK(vz > 0.5);
  CHECK(capped.apex == relative(capped.rim_height + vz * vz / (2 * kG), 1e-6));
}
