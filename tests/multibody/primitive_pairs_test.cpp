// The analytic pairs of a scene (sphere against box, solid cylinder and closed cylindrical cavity)
// through the multibody loop: a ball left at rest against each settles where statics says, with
// the force statics says on each of its contact points. The closed cylinder is the pair with
// several result slots: a ball in the corner of wall and bottom holds two points at once.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>

#include "../support/approx.hpp"
#include "../support/ball_scene.hpp"
#include "surfdb/multibody/multibody_state.hpp"

using namespace surfdb;
using surfdb::test::relative;

namespace {

constexpr double kMass = 0.011, kRadius = 0.01, kG = 9.81, kStiffness = 1e8;

// Runs the ball from `centre` at rest for 0.3 s (long enough to settle, critically damped) and
// returns the simulation with the pair's last detection at the final state.
std::unique_ptr<Simulation> settle(AnalyticContact shape, const Eigen::Vector3d& centre, const Eigen::Vector3d& down,
                                   std::vector<double>& y) {
  test::BallScene scene{kMass, kRadius, kG};
  scene.down = down;
  auto sim = test::ball_simulation(scene, shape, HuntCrossley{kStiffness, 1.5, 0.5});
  y.assign(kBodyStateSize, 0);
  set_body_state(y.data(), 0, centre, Eigen::Quaterniond::Identity(), Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
  RunObserver silent;
  sim->run(y, {.end_time = 0.3}, silent);
  return sim;
}

double force(const Simulation& sim, std::size_t slot) { return sim.contacts()[0].single()->forces(slot).normal; }

}  // namespace

TEST_CASE("a ball in the corner of a closed cylinder rests on the wall and the bottom at once") {
  // Gravity tilted 30 degrees towards +x: the wall carries m g sin 30, the bottom m g cos 30.
  // catches: slots merged (one point carrying everything), wall and bottom swapped, the cavity's
  // length taken from its centre rather than its base.
  AnalyticContact can;
  can.shape = AnalyticContact::Shape::cylinder_cavity;
  can.cylinder_cavity = {Eigen::Vector3d(0, 0, -0.05), Eigen::Vector3d::UnitZ(), 0.03, 0.1};
  const double tilt = M_PI / 6;
  std::vector<double> y;
  const auto sim = settle(can, {0.03 - kRadius, 0, -0.05 + kRadius}, Eigen::Vector3d(std::sin(tilt), 0, -std::cos(tilt)), y);
  const ContactPair& pair = *sim->contacts()[0].single();
  CHECK(pair.state().points == 2);
  CHECK(force(*sim, kWall) == relative(kMass * kG * std::sin(tilt), 1e-6));
  CHECK(force(*sim, kBottom) == relative(kMass * kG * std::cos(tilt), 1e-6));
  CHECK(force(*sim, kTop) == 0);
  CHECK(pair.state().statistics.impacts == 2);
}

TEST_CASE("a ball on a box's top face and on a lying solid cylinder settles at the static indentation") {
  const double resting = std::pow(kMass * kG / kStiffness, 2.0 / 3);
  std::vector<double> y;
  SUBCASE("box: the face near an edge, the box turned 90 degrees about z") {
    // The ball settles on the face 5 mm from two edges: the box's axes and half extents carry
    // through the pair into the dynamics (their reading from a scenario: primitive_keys_test).
    AnalyticContact box;
    box.shape = AnalyticContact::Shape::box;
    box.box = {Eigen::Vector3d(0, 0, -0.1), Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitZ()).toRotationMatrix(),
               Eigen::Vector3d(0.2, 0.05, 0.1)};
    const auto sim = settle(box, {0.045, 0.19, kRadius}, -Eigen::Vector3d::UnitZ(), y);
    CHECK(force(*sim, 0) == relative(kMass * kG, 1e-6));
    CHECK(body_view(y.data(), 0).r().z() == relative(kRadius - resting, 1e-9));
  }
  SUBCASE("solid cylinder lying along x: the ball on its crest") {
    // catches: the cylinder's length halved twice (the ball, 5 mm from the end, would roll off).
    AnalyticContact rod;
    rod.shape = AnalyticContact::Shape::cylinder;
    rod.cylinder = {Eigen::Vector3d(0, 0, -0.02), Eigen::Vector3d::UnitX(), 0.02, 0.2};
    const auto sim = settle(rod, {0.095, 0, kRadius}, -Eigen::Vector3d::UnitZ(), y);
    // Ball (R 10 mm) on the rod's crest (R 20 mm across, flat along): Hertz with the same K here,
    // the law's K being given, so the same static indentation.
    CHECK(force(*sim, 0) == relative(kMass * kG, 1e-6));
    CHECK(body_view(y.data(), 0).r().z() == relative(kRadius - resting, 1e-9));
    CHECK(std::abs(body_view(y.data(), 0).r().y()) < 1e-12);  // balanced on the crest
  }
}
