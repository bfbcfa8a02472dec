// The surface_contact joint's five-equation formulation (the surface parameters as states,
// surface_joint_parameters.hpp) against closed forms, with the sliding plane as a second check:
// the paper's ball table sliding without friction in its cup table is a spherical pendulum (period
// an elliptic integral, wall force m g (3 - 2 cos θ0) at the bottom, energy kept) and a conical
// pendulum (circling at constant height when its angular speed is sqrt(g / (L cos α))); with the
// cup swinging on a hinge and the ball spinning, both formulations follow the same motion. A point
// that leaves its face (the ball over the cup table's rim) stops the run at the time the closed form
// gives; the parameters are a block of the implicit integrators' Jacobian.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "../support/ball_and_cup.hpp"
#include "../support/sliding_ball.hpp"
#include "surfdb/multibody/simulation.hpp"

using namespace surfdb;

namespace {

using test::ball_model, test::elliptic_k, test::table_surface, test::Track;
constexpr double kMass = test::kBallMass, kG = test::kGravity, kBall = test::kBallRadius, kCavity = test::kCupRadius;
constexpr double kLength = test::kPendulumLength;  // the pendulum's: cup centre to ball centre

// The ball (body 0) in the cup (on `cup_body`) held by a surface joint with `formulation`.
std::unique_ptr<Simulation> ball_in_cup(SurfaceJointFormulation formulation, MultibodyModel model,
                                        int cup_body = kGround) {
  std::vector<ContactSurface> surfaces{table_surface("ball", 0, test::ball_and_cup().ball),
                                       table_surface("cup", cup_body, test::ball_and_cup().cup)};
  SurfaceJointSpec joint;
  joint.name = "slide";
  joint.surface_i = 0;
  joint.surface_j = 1;
  joint.body_i = 0;
  joint.body_j = cup_body;
  joint.formulation = formulation;
  model.surface_joints.push_back(joint);
  return std::make_unique<Simulation>(std::move(model), std::move(surfaces), std::vector<ContactGroupSpec>{});
}

RunSettings adams(double end_time) {
  RunSettings run{.end_time = end_time, .integrator = IntegratorKind::adams};
  run.sundials.relative_tolerance = 1e-10;
  run.sundials.absolute_tolerance = 1e-13;
  return run;
}

// The pendulum released at rest theta0 from the bottom of the cup: its period (between the first
// two upward crossings of x = 0), statistics and energy drift.
struct PendulumRun {
  double period = 0, energy_drift = 0;
  RunStatistics run;
  SurfaceJointStatistics joint;
};

PendulumRun pendulum(SurfaceJointFormulation formulation, double theta0, double periods) {
  const auto sim = ball_in_cup(formulation, ball_model());
  std::vector<double> y(kBodyStateSize);
  set_body_state(y.data(), 0, {kLength * std::sin(theta0), 0, -kLength * std::cos(theta0)},
                 Eigen::Quaterniond::Identity(), Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
  sim->check_surface_joints(y.data());
  const double closed_form = 4 * std::sqrt(kLength / kG) * elliptic_k(std::sin(theta0 / 2));
  Track track;
  PendulumRun out;
  const double e0 = sim->mechanical_energy(y.data());
  out.run = sim->run(y, adams(periods * closed_form), track);
  const std::vector<double> up = track.upward_crossings();
  REQUIRE(up.size() >= 2);
  out.period = up[1] - up[0];
  out.energy_drift = sim->mechanical_energy(y.data()) - e0;
  out.joint = sim->surface_joints()[0].statistics();
  return out;
}

}  // namespace

TEST_CASE("five-equation surface joint: the ball's table in the cup's table is a spherical pendulum") {
  const double theta0 = 0.35;
  const double closed_form = 4 * std::sqrt(kLength / kG) * elliptic_k(std::sin(theta0 / 2));
  const PendulumRun five = pendulum(SurfaceJointFormulation::five_equations, theta0, 2.2);
  const PendulumRun plane = pendulum(SurfaceJointFormulation::sliding_plane, theta0, 2.2);
  const double bottom_force = kMass * kG * (3 - 2 * std::cos(theta0));
  MESSAGE("five equations: period " << five.period << " s against " << closed_form << " (relative "
                                    << (five.period - closed_form) / closed_form << "), sliding plane " << plane.period
                                    << " (relative " << (plane.period - closed_form) / closed_form
                                    << "); wall force at the bottom " << five.joint.max_force << " N against "
                                    << bottom_force << "; energy drift " << five.energy_drift << " J; drift |Phi| "
                                    << five.run.constraint_drift << " m; tangential |c| "
                                    << five.joint.max_tangential_offset << " m, " << five.joint.max_normal_error
                                    << " rad; " << five.run.steps << " steps, " << five.run.rhs_evaluations
                                    << " right-hand sides (sliding plane " << plane.run.steps << ", "
                                    << plane.run.rhs_evaluations << ")");
  // The integrator's tolerance (1e-10) bounds both runs' period errors: measured 9e-10 and 5e-11.
  // Swinging in the plane of its table's v lines, the ball starts at rest: the parameters stay on
  // the common normal to 1e-10 m, and the formulations agree as closely.
  CHECK(std::abs(five.period - closed_form) < 5e-9 * closed_form);
  CHECK(std::abs(five.period - plane.period) < 5e-9 * closed_form);
  CHECK(five.joint.max_force == doctest::Approx(bottom_force).epsilon(1e-6));
  CHECK(five.joint.min_force == doctest::Approx(kMass * kG * std::cos(theta0)).epsilon(1e-6));
  CHECK(std::abs(five.energy_drift) < 1e-6 * kMass * kG * kLength);
  CHECK(five.run.constraint_drift < 1e-8);
  CHECK(five.joint.max_tangential_offset < 1e-8);
  CHECK(five.joint.max_normal_error < 1e-6);
  CHECK(five.joint.singular_steps == 0);
}

// A ball circling inside the cup at the angle alpha from the vertical (centre at height -L cos α)
// stays there when its angular speed is sqrt(g / (L cos α)): gravity and the wall's force, normal
// to it, give exactly the centripetal force. Both contact points then run round circles on their
// surfaces, the cup's at the ball's angular speed: the parameter accelerations are all centripetal
// (the second-derivative terms), and a wrong sign or a swapped side in them would move the points
// off the common normal and the ball off its circle.
TEST_CASE("five-equation surface joint: a conical pendulum keeps its height and its angular speed") {
  const double alpha = 0.5, omega = std::sqrt(kG / (kLength * std::cos(alpha)));
  const double radius = kLength * std::sin(alpha), height = -kLength * std::cos(alpha);
  const double revolution = 2 * std::numbers::pi / omega;
  const auto sim = ball_in_cup(SurfaceJointFormulation::five_equations, ball_model());
  std::vector<double> y(kBodyStateSize);
  set_body_state(y.data(), 0, {radius, 0, height}, Eigen::Quaterniond::Identity(), {0, omega * radius, 0},
                 Eigen::Vector3d::Zero());
  sim->check_surface_joints(y.data());
  Track track;
  const RunStatistics stats = sim->run(y, adams(2 * revolution), track);
  double height_error = 0, radius_error = 0;
  for (const Eigen::Vector3d& r : track.r) {
    height_error = std::max(height_error, std::abs(r.z() - height));
    radius_error = std::max(radius_error, std::abs(r.head<2>().norm() - radius));
  }
  // After two revolutions the ball is back at its start: the angle it has turned through beyond 4 pi.
  const Eigen::Vector3d& end = track.r.back();
  const double lag = std::atan2(end.y(), end.x());
  const SurfaceJointStatistics& s = sim->surface_joints()[0].statistics();
  const double wall_force = kMass * kG / std::cos(alpha);
  MESSAGE("height error " << height_error << " m, radius error " << radius_error << " m, angle after two revolutions "
                          << lag << " rad; wall force " << s.min_force << " to " << s.max_force << " N against "
                          << wall_force << "; tangential |c| " << s.max_tangential_offset << " m, "
                          << s.max_normal_error << " rad; " << stats.steps << " steps");
  // The parameters run over the cells at about 9 rad/s: the tables' first derivatives, constant
  // across a cell and jumping at its edges, leave the tangential equations a cell-periodic error
  // that the Baumgarte terms hold to about 2e-8 m and 2e-6 rad; the ball follows to a few nm
  // (measured: height 3.2e-9 m, radius 9e-9 m, angle 9.4e-7 rad, force within 7e-5). A wrong
  // sign or a swapped side in the centripetal terms moves it by millimetres.
  CHECK(height_error < 1e-8);
  CHECK(radius_error < 3e-8);
  CHECK(std::abs(lag) < 5e-6);
  CHECK(s.min_force == doctest::Approx(wall_force).epsilon(3e-4));
  CHECK(s.max_force == doctest::Approx(wall_force).epsilon(3e-4));
  CHECK(s.max_tangential_offset < 1e-7);
  CHECK(s.max_normal_error < 1e-5);
}

// The cup swings on a hinge (its own pendulum, about a horizontal axis above its centre) while
// the spinning ball slides in it with a velocity across the swing: both bodies move and turn, and
// the contact points run over both tables at once. The two formulations integrate the same motion
// (with the contact point solved at every evaluation, or carried as states): they agree to the
// integrator's tolerance and the tables' interpolation.
TEST_CASE("five-equation surface joint: agrees with the sliding plane with both bodies moving") {
  constexpr double kCupMass = 0.2, kHinge = 0.02;  // kg; m above the cup's centre
  const double cup_inertia = 2.0 / 3.0 * kCupMass * kCavity * kCavity;
  const auto model = [&] {
    MultibodyModel m = ball_model();
    m.bodies.push_back({"cup", kCupMass, cup_inertia * Eigen::Matrix3d::Identity()});
    Joint hinge;
    hinge.name = "hinge";
    hinge.type = JointType::revolute;
    hinge.body_i = 1;
    hinge.body_j = kGround;
    hinge.frame_i.origin = {0, 0, kHinge};
    hinge.frame_i.axes =
        Eigen::AngleAxisd(-std::numbers::pi / 2, Eigen::Vector3d::UnitX()).toRotationMatrix();  // z along y
    hinge.frame_j.origin = {0, 0, kHinge};
    hinge.frame_j.axes = hinge.frame_i.axes;
    m.joints.push_back(hinge);
    return m;
  };
  const double tilt = 0.15, theta0 = 0.3, end_time = 0.3;
  const Eigen::Quaterniond cup(Eigen::AngleAxisd(tilt, Eigen::Vector3d::UnitY()));
  const Eigen::Vector3d hinge(0, 0, kHinge), cup_centre = hinge - cup * hinge;
  const Eigen::Vector3d ball = cup_centre + kLength * Eigen::Vector3d(std::sin(theta0), 0, -std::cos(theta0));
  const auto final_state = [&](SurfaceJointFormulation formulation, RunStatistics& stats) {
    const auto sim = ball_in_cup(formulation, model(), 1);
    std::vector<double> y(2 * kBodyStateSize);
    set_body_state(y.data(), 0, ball, Eigen::Quaterniond::Identity(), {0, 0.15, 0}, {8, 0, 3});
    set_body_state(y.data(), 1, cup_centre, cup, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
    sim->check_surface_joints(y.data());
    RunObserver quiet;
    stats = sim->run(y, adams(end_time), quiet);
    const SurfaceJointStatistics& s = sim->surface_joints()[0].statistics();
    MESSAGE(std::string(formulation == SurfaceJointFormulation::five_equations ? "five equations" : "sliding plane")
            << ": ball at " << body_view(y.data(), 0).r().transpose() << ", force " << s.min_force << " to "
            << s.max_force << " N, tangential |c| " << s.max_tangential_offset << " m, " << s.max_normal_error
            << " rad; " << stats.steps << " steps");
    return y;
  };
  RunStatistics five_stats, plane_stats;
  const std::vector<double> five = final_state(SurfaceJointFormulation::five_equations, five_stats);
  const std::vector<double> plane = final_state(SurfaceJointFormulation::sliding_plane, plane_stats);
  const Eigen::Vector3d ball_five = body_view(five.data(), 0).r(), ball_plane = body_view(plane.data(), 0).r();
  const double cup_five = Eigen::AngleAxisd(body_view(five.data(), 1).orientation()).angle();
  const double cup_plane = Eigen::AngleAxisd(body_view(plane.data(), 1).orientation()).angle();
  const Eigen::Vector3d& start = ball;
  MESSAGE("ball positions differ by " << (ball_five - ball_plane).norm() << " m after moving "
                                      << (ball_plane - start).norm() << " m; cup angles differ by "
                                      << cup_five - cup_plane << " rad after turning " << tilt - cup_plane << " rad");
  // The five equations hold the contact points on the common normal to a few 1e-8 m (the tables'
  // cell-periodic first derivatives, above): the bodies agree to that order (measured 9e-9 m).
  CHECK((ball_five - ball_plane).norm() < 5e-8);
  CHECK(std::abs(cup_five - cup_plane) < 5e-8 / kCavity);
  CHECK((ball_plane - start).norm() > 0.005);  // both did move
  CHECK(std::abs(tilt - cup_plane) > 0.01);
}

// The cup's table covers the sphere below its rim (u in [-pi/2, pi/2] about the horizontal pole
// axis). Launched fast enough across the bottom, the ball climbs the wall on the constraint and
// reaches the rim at the time the pendulum's energy gives, t = ∫ L dθ / sqrt(v0² - 2 g L (1 - cos θ))
// from 0 to pi/2: the parameter leaves the face there, and the run stops naming the joint and time.
TEST_CASE("five-equation surface joint: a contact point leaving its face stops the run with the joint and time") {
  const double v0 = 1.5;  // m/s: enough to reach the rim (2 g L = 0.78 m²/s²)
  double rim_time = 0;
  constexpr int n = 2000;  // Simpson's rule over [0, pi/2]
  const auto integrand = [&](double theta) {
    return kLength / std::sqrt(v0 * v0 - 2 * kG * kLength * (1 - std::cos(theta)));
  };
  for (int k = 0; k <= n; ++k) {
    const double w = k == 0 || k == n ? 1 : k % 2 ? 4 : 2;
    rim_time += w * integrand(k * std::numbers::pi / 2 / n);
  }
  rim_time *= std::numbers::pi / 2 / n / 3;
  const auto sim = ball_in_cup(SurfaceJointFormulation::five_equations, ball_model());
  std::vector<double> y(kBodyStateSize);
  set_body_state(y.data(), 0, {0, 0, -kLength}, Eigen::Quaterniond::Identity(), {0, v0, 0}, Eigen::Vector3d::Zero());
  RunObserver quiet;
  std::string message;
  try {
    sim->run(y, adams(2 * rim_time), quiet);
  } catch (const std::runtime_error& e) {
    message = e.what();
  }
  MESSAGE(message);
  CHECK(message.find("surface joint 'slide': at t = ") == 0);
  CHECK(message.find("left surface j's face 0 (u = 1.5707") != std::string::npos);
  const double t = std::stod(message.substr(std::string("surface joint 'slide': at t = ").size()));
  MESSAGE("stopped at " << t << " s, " << t - rim_time << " s after the rim's time");
  CHECK(std::abs(t - rim_time) < 1e-4);  // the first accepted step past the rim: the steps are ~1e-5 s
}

// An implicit integrator's finite-difference Jacobian perturbs blocks of states together: the
// parameters are a block of their own that the ball's state reaches and that reaches the ball's.
TEST_CASE("five-equation surface joint: its states are a Jacobian block coupled to its bodies'") {
  const auto sim = ball_in_cup(SurfaceJointFormulation::five_equations, ball_model());
  CHECK(sim->size() == kBodyStateSize + SurfaceJointParameters::kStates);
  CHECK(sim->surface_joint_state(0) == kBodyStateSize);
  JacobianBlocks blocks;
  REQUIRE(sim->jacobian_blocks(blocks));
  REQUIRE(blocks.first.size() == 2);
  CHECK(blocks.first[1] == kBodyStateSize);
  CHECK(blocks.size[1] == SurfaceJointParameters::kStates);
  CHECK(blocks.affects[0] == std::vector<int>{0, 1});
  CHECK(blocks.affects[1] == std::vector<int>{0, 1});
  // And BDF, which uses them, runs the pendulum: a quarter period from rest at 0.35 rad reaches the bottom.
  std::vector<double> y(kBodyStateSize);
  const double theta0 = 0.35;
  set_body_state(y.data(), 0, {kLength * std::sin(theta0), 0, -kLength * std::cos(theta0)},
                 Eigen::Quaterniond::Identity(), Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
  const double quarter = std::sqrt(kLength / kG) * elliptic_k(std::sin(theta0 / 2));
  RunSettings run = adams(quarter);
  run.integrator = IntegratorKind::bdf;
  RunObserver quiet;
  sim->run(y, run, quiet);
  MESSAGE("BDF: x after a quarter period " << body_view(y.data(), 0).r().x() << " m");
  CHECK(std::abs(body_view(y.data(), 0).r().x()) < 1e-6 * kLength);
}
