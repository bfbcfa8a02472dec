// Surfaces that start inside each other (check_initial_penetration): a ball placed into the ground
// plane, its depth known exactly, against the default tolerance (10 m g / K)^(1/n) (checked as
// the depth at which the law carries ten times the weight) and an explicit one.
#include "surfdb/multibody/initial_penetration.hpp"

#include <doctest/doctest.h>

#include <cmath>

#include "../support/approx.hpp"
#include "../support/ball_scene.hpp"

using namespace surfdb;
using surfdb::test::ball_simulation;
using surfdb::test::relative;

namespace {

constexpr double kMass = 0.011, kRadius = 0.01, kStiffness = 5e9, kExponent = 1.5, kG = 9.81;

struct Scene {
  std::unique_ptr<Simulation> sim;
  std::vector<double> y;
};

// The ball's centre `depth` below touching the plane (negative: above it).
Scene ball_into_plane(double depth, std::optional<double> tolerance = {}) {
  AnalyticContact shape;
  shape.shape = AnalyticContact::Shape::plane;
  Scene s{ball_simulation({kMass, kRadius, kG}, shape, Hertz{kStiffness, kExponent}, tolerance),
          std::vector<double>(kBodyStateSize)};
  set_body_state(s.y.data(), 0, {0, 0, kRadius - depth}, Eigen::Quaterniond::Identity(), Eigen::Vector3d::Zero(),
                 Eigen::Vector3d::Zero());
  return s;
}

// The default tolerance from its definition: the depth where K delta^n is ten times m g.
const double kDefault = std::pow(10 * kMass * kG / kStiffness, 1 / kExponent);

}  // namespace

TEST_CASE("initial penetration: the default tolerance carries ten times the body's weight") {
  const double d = default_penetration_tolerance(kStiffness, kExponent, kMass, kG);
  CHECK(kStiffness * std::pow(d, kExponent) == relative(10 * kMass * kG, 1e-12));
  CHECK(d == relative(kDefault, 1e-12));
}

TEST_CASE("initial penetration: 2.4 mm deep is an error naming the contact, the surfaces and the depth") {
  Scene s = ball_into_plane(2.4e-3);
  try {
    check_initial_penetration(*s.sim, s.y.data());
    FAIL("no error");
  } catch (const InitialPenetrationError& e) {
    const std::string what = e.what();
    MESSAGE(what);
    CHECK(what.find("contact 'ball-floor'") != std::string::npos);
    CHECK(what.find("'ball' and 'floor'") != std::string::npos);
    CHECK(what.find("0.0024 m") != std::string::npos);
    CHECK(what.find("initial_penetration_tolerance") != std::string::npos);
  }
}

TEST_CASE("initial penetration: 1 nm deep is reported with its depth and the run goes on") {
  Scene s = ball_into_plane(1e-9);
  const std::vector<InitialPenetration> found = check_initial_penetration(*s.sim, s.y.data());
  REQUIRE(found.size() == 1);
  CHECK(found[0].contact == "ball-floor");
  CHECK(found[0].surface_i == "ball");
  CHECK(found[0].surface_j == "floor");
  CHECK(found[0].depth == relative(1e-9, 1e-6));
  CHECK(found[0].tolerance == relative(kDefault, 1e-12));
  RunObserver silent;
  const RunStatistics stats = s.sim->run(s.y, {.end_time = 1e-3, .integrator = IntegratorKind::rk4, .step = 1e-6}, silent);
  CHECK(stats.steps == 1000);
  CHECK(s.sim->contacts()[0].statistics().impacts == 1);  // the episode begun at t = 0, counted once
}

TEST_CASE("initial penetration: just within the default tolerance passes, just beyond it fails") {
  Scene within = ball_into_plane(0.99 * kDefault), beyond = ball_into_plane(1.01 * kDefault);
  CHECK(check_initial_penetration(*within.sim, within.y.data()).size() == 1);
  CHECK_THROWS_AS(check_initial_penetration(*beyond.sim, beyond.y.data()), InitialPenetrationError);
  // Apart: nothing to report.
  Scene apart = ball_into_plane(-1e-3);
  CHECK(check_initial_penetration(*apart.sim, apart.y.data()).empty());
}

TEST_CASE("initial penetration: a contact's explicit tolerance replaces the default") {
  Scene allowed = ball_into_plane(2.4e-3, 3e-3), refused = ball_into_plane(2.4e-3, 2e-3);
  const std::vector<InitialPenetration> found = check_initial_penetration(*allowed.sim, allowed.y.data());
  REQUIRE(found.size() == 1);
  CHECK(found[0].tolerance == 3e-3);
  CHECK_THROWS_AS(check_initial_penetration(*refused.sim, refused.y.data()), InitialPenetrationError);
}

TEST_CASE("initial penetration: a ball straddling a spherical cavity's wall from outside is an error") {
  // catches: the cavity's outside taken as no surface at t = 0 too, so that a ball placed 1.5 mm
  // beyond a cup's wall (its centre outside the cavity) starts as if apart and falls through.
  AnalyticContact cup;
  cup.shape = AnalyticContact::Shape::cavity;
  cup.other = {Eigen::Vector3d(0, 0, 0.05), 0.05};  // a cup of radius 50 mm about z = 0.05, open at its top
  cup.cap = {Eigen::Vector3d::UnitZ(), 0.05};
  const auto start = [&](double below_wall) {  // the ball's centre below the cup's bottom, m
    Scene s{ball_simulation({kMass, kRadius, kG}, cup, Hertz{kStiffness, kExponent}),
            std::vector<double>(kBodyStateSize)};
    set_body_state(s.y.data(), 0, {0, 0, -below_wall}, Eigen::Quaterniond::Identity(), Eigen::Vector3d::Zero(),
                   Eigen::Vector3d::Zero());
    return s;
  };
  Scene crossing = start(1.5e-3);
  try {
    check_initial_penetration(*crossing.sim, crossing.y.data());
    FAIL("no error");
  } catch (const InitialPenetrationError& e) {
    // The ball reaches R + 1.5 mm into the wall: 11.5 mm.
    CHECK(std::string(e.what()).find("0.0115 m") != std::string::npos);
  }
  Scene clear = start(kRadius + 1e-4);  // wholly outside the cup: apart
  CHECK(check_initial_penetration(*clear.sim, clear.y.data()).empty());
}

TEST_CASE("initial penetration: a ball inside a solid box or cylinder is an error at any depth, its centre's included") {
  // The box 100 x 100 x 20 mm and the cylinder of radius 50 mm, 20 mm long, both centred at the
  // origin (top face z = 10 mm). A ball of radius 10 mm whose centre lies d below the top face
  // (inside the solid) reaches R + d into it, the nearest face being the top for d < 10 mm.
  // catches: a shape whose centre-inside case gives no contact (the ball starts as if apart and
  // falls through), or the depth measured from the centre only.
  AnalyticContact box;
  box.shape = AnalyticContact::Shape::box;
  box.box = {Eigen::Vector3d::Zero(), Eigen::Matrix3d::Identity(), Eigen::Vector3d(0.05, 0.05, 0.01)};
  AnalyticContact cylinder;
  cylinder.shape = AnalyticContact::Shape::cylinder;
  cylinder.cylinder = {Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitZ(), 0.05, 0.02};
  for (const AnalyticContact& shape : {box, cylinder})
    for (const double d : {1e-3, 5e-3, 9.9e-3}) {
      CAPTURE(static_cast<int>(shape.shape));
      CAPTURE(d);
      Scene s{ball_simulation({kMass, kRadius, kG}, shape, Hertz{kStiffness, kExponent}), std::vector<double>(kBodyStateSize)};
      set_body_state(s.y.data(), 0, {0.01, 0.003, 0.01 - d}, Eigen::Quaterniond::Identity(), Eigen::Vector3d::Zero(),
                     Eigen::Vector3d::Zero());
      try {
        check_initial_penetration(*s.sim, s.y.data());
        FAIL("no error");
      } catch (const InitialPenetrationError& e) {
        const std::string text = e.what();  // the depth to four digits
        CHECK(std::stod(text.substr(text.find("start ") + 6)) == relative(kRadius + d, 1e-3));
      }
    }
}
