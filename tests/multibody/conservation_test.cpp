// Conservation laws through the whole loop (detection, laws, friction, the contact's wrench on both
// bodies, dynamics, integrator), against no reference run of the code:
// - two free bodies without gravity exchange momentum only with each other: total linear momentum
//   and angular momentum about a fixed point (the origin) stay what they were, in an oblique
//   frictional impact and in sustained sliding contact, for analytic point contact (sphere-sphere,
//   a ball sliding inside a free shell's spherical cavity), a contact group whose pairs the broad
//   phase finds, the polygonal (areal) model between two box meshes, and a surface joint;
// - with friction and damping the mechanical energy E plus the energy the contacts report as
//   dissipated W stays E0 (Simulation::mechanical_energy and dissipated_energy);
// - a solid ball launched sliding without spin on a plane dissipates exactly m v0^2 / 7 by the
//   time it rolls (from 1/2 m v0^2 to 1/2 m (5/7 v0)^2 (1 + 2/5)).
// Linear momentum is a linear invariant of the equations, so the integrator keeps it to rounding;
// angular momentum is kept to the integrator's tolerance (measured 1e-13 to 1e-11 of its scale).
// E + W = E0 holds to within what a point contact's model allows: friction acts on both bodies at
// the midpoint of the two contact points while its power is counted with the slip of the points
// themselves, which differ by (w_i + w_j) x delta n / 2; of order w delta / v_slip of the friction
// work (measured 3e-6 to 3e-4 of E0 here, spins of tens of rad/s and indentations of some 10 um;
// the polygonal model's elements on tilted faces likewise, areal_contact_test.cpp). Each bound is
// some five times the measured error; a sign error in the friction power is 2 W_friction, far
// beyond them.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "../support/approx.hpp"
#include "../support/ball_scene.hpp"
#include "../support/meshes.hpp"
#include "surfdb/multibody/multibody_state.hpp"
#include "surfdb/multibody/simulation.hpp"

using namespace surfdb;
using surfdb::test::relative;
using Eigen::Matrix3d;
using Eigen::Quaterniond;
using Eigen::Vector3d;

namespace {

struct Momentum {
  Vector3d linear = Vector3d::Zero();   // sum of m v, kg m/s
  Vector3d angular = Vector3d::Zero();  // about the origin: sum of r x m v + A I w', kg m^2/s
};

Momentum momentum(const MultibodyModel& model, const double* y) {
  Momentum p;
  for (std::size_t k = 0; k < model.bodies.size(); ++k) {
    const BodyStateView s = body_view(y, static_cast<int>(k));
    const RigidBody& b = model.bodies[k];
    p.linear += b.mass * s.v();
    p.angular += s.r().cross(b.mass * s.v()) + s.orientation().toRotationMatrix() * (b.inertia * s.w_body());
  }
  return p;
}

// What a run kept and what it exchanged.
struct Balance {
  Momentum start, end;
  double momentum_scale = 0, angular_scale = 0;  // sum of |m v|, of |r x m v| + |I w| at the start
  double e0 = 0, energy = 0, dissipated = 0;     // J
  long impacts = 0;
  std::size_t pairs_touched = 0;
  double exchanged = 0;  // the largest change of one body's linear momentum, kg m/s
};

RunSettings tight(double end, IntegratorKind integrator = IntegratorKind::adams) {
  RunSettings s{.end_time = end, .integrator = integrator};
  s.sundials.relative_tolerance = 1e-10;
  s.sundials.absolute_tolerance = 1e-13;
  return s;
}

Balance run_and_balance(Simulation& sim, std::vector<double>& y, const RunSettings& settings) {
  Balance b;
  const MultibodyModel& model = sim.model();
  b.start = momentum(model, y.data());
  for (std::size_t k = 0; k < model.bodies.size(); ++k) {
    const BodyStateView s = body_view(y.data(), static_cast<int>(k));
    const RigidBody& body = model.bodies[k];
    b.momentum_scale += body.mass * s.v().norm();
    b.angular_scale += s.r().norm() * body.mass * s.v().norm() + (body.inertia * s.w_body()).norm();
  }
  const std::vector<double> y0 = y;
  sim.accept(0, y.data());  // the elastic energy it starts with
  b.e0 = sim.mechanical_energy(y.data());
  RunObserver none;
  sim.run(y, settings, none);
  b.end = momentum(model, y.data());
  b.energy = sim.mechanical_energy(y.data());
  b.dissipated = sim.dissipated_energy(y.data());
  for (const ContactGroup& c : sim.contacts()) {
    b.impacts += c.statistics().impacts;
    b.pairs_touched += c.statistics().pairs_touched;
  }
  for (std::size_t k = 0; k < model.bodies.size(); ++k)
    b.exchanged = std::max(b.exchanged, model.bodies[k].mass * (body_view(y.data(), static_cast<int>(k)).v() -
                                                                body_view(y0.data(), static_cast<int>(k)).v()).norm());
  MESSAGE("momentum change " << (b.end.linear - b.start.linear).norm() << " of " << b.momentum_scale
                             << " (exchanged " << b.exchanged << "); angular momentum change "
                             << (b.end.angular - b.start.angular).norm() << " of " << b.angular_scale << "; E0 " << b.e0
                             << " J, E " << b.energy << " J, W " << b.dissipated << " J, E + W - E0 "
                             << b.energy + b.dissipated - b.e0 << " J; impacts " << b.impacts);
  return b;
}

// Momentum to rounding, angular momentum and energy to the integrator's tolerance, and something
// exchanged and dissipated (the laws did act).
void check_balance(const Balance& b, double angular_tolerance, double energy_tolerance) {
  CHECK(b.exchanged > 0.05 * b.momentum_scale);
  CHECK(b.dissipated > 0.01 * b.e0);
  CHECK((b.end.linear - b.start.linear).norm() < 1e-12 * b.momentum_scale);
  CHECK((b.end.angular - b.start.angular).norm() < angular_tolerance * b.angular_scale);
  CHECK(b.energy + b.dissipated == relative(b.e0, energy_tolerance));
}

constexpr double kRadiusA = 0.028575, kMassA = 0.17;  // a billiard ball
constexpr double kRadiusB = 0.04, kMassB = 0.3;

MultibodyModel two_bodies(const Matrix3d& inertia_b) {
  MultibodyModel model;
  model.gravity = Vector3d::Zero();
  model.bodies = {{"a", kMassA, Matrix3d::Identity() * 0.4 * kMassA * kRadiusA * kRadiusA}, {"b", kMassB, inertia_b}};
  return model;
}

// Ball a at 2 m/s, spinning, into ball b coming the other way off its line, also spinning.
std::vector<double> oblique_approach() {
  std::vector<double> y(2 * kBodyStateSize);
  set_body_state(y.data(), 0, {-0.12, 0.03, 0.012}, Quaterniond(0.9, 0.1, 0.3, -0.2).normalized(), {2, 0, 0},
                 {5, -20, 40});
  set_body_state(y.data(), 1, {0.01, -0.005, 0.0}, Quaterniond(0.6, -0.2, 0.1, 0.7).normalized(), {-0.5, 0.2, 0},
                 {10, 3, -8});
  return y;
}

const Matrix3d kInertiaB = Vector3d(2e-4, 3e-4, 2.5e-4).asDiagonal();  // not a sphere's: L = A I w'

}  // namespace

TEST_CASE("an oblique frictional impact of two free balls keeps momentum and angular momentum, and E + W = E0") {
  // catches: friction or the normal force on body j not the opposite of body i's, body j's torque
  // as F x r or about the wrong point, friction power counted with the wrong sign.
  AnalyticContact spheres;
  spheres.shape = AnalyticContact::Shape::sphere;
  spheres.sphere = {Vector3d::Zero(), kRadiusA};
  spheres.other = {Vector3d::Zero(), kRadiusB};
  ContactSpec spec{.name = "a-b", .surface_i = "a", .surface_j = "b", .body_i = 0, .body_j = 1};
  spec.geometry = spheres;
  spec.law = HuntCrossley{1e8, 1.5, 0.6};
  spec.friction = CoulombRegularised{0.3, 1e-4};
  std::vector<ContactPair> pairs;
  pairs.emplace_back(spec);
  Simulation sim(two_bodies(kInertiaB), std::move(pairs));
  std::vector<double> y = oblique_approach();
  const Balance b = run_and_balance(sim, y, tight(0.04, IntegratorKind::bdf));
  CHECK(b.impacts == 1);
  check_balance(b, 1e-9, 5e-4);  // measured 1.1e-4
}

TEST_CASE("a ball sliding round inside a free shell's cavity keeps momentum and angular momentum, and E + W = E0") {
  // No gravity: the ball, launched along the wall without spin, presses on it by m v^2 / (R - r)
  // and is braked by friction until it rolls; the shell takes what the ball loses.
  constexpr double R = 0.05, r = 0.01, m = 0.05;
  MultibodyModel model;
  model.gravity = Vector3d::Zero();
  model.bodies = {{"ball", m, Matrix3d::Identity() * 0.4 * m * r * r},
                  {"shell", 0.4, Vector3d(1.0e-3, 1.2e-3, 1.4e-3).asDiagonal()}};
  AnalyticContact cavity;
  cavity.shape = AnalyticContact::Shape::cavity;
  cavity.sphere = {Vector3d::Zero(), r};
  cavity.other = {Vector3d::Zero(), R};
  ContactSpec spec{.name = "ball-shell", .surface_i = "ball", .surface_j = "shell", .body_i = 0, .body_j = 1};
  spec.geometry = cavity;
  spec.law = HuntCrossley{1e9, 1.5, 0.5};
  spec.friction = CoulombRegularised{0.2, 1e-4};
  std::vector<ContactPair> pairs;
  pairs.emplace_back(spec);
  Simulation sim(std::move(model), std::move(pairs));
  std::vector<double> y(2 * kBodyStateSize);
  set_body_state(y.data(), 0, {0.2 + (R - r), 0.1, 0}, Quaterniond::Identity(), {0.1, 1.0, 0.05}, Vector3d::Zero());
  set_body_state(y.data(), 1, {0.2, 0.1, 0}, Quaterniond(0.8, 0.3, -0.1, 0.5).normalized(), {0.1, 0, 0},
                 {2, -1, 3});
  const Balance b = run_and_balance(sim, y, tight(0.1));
  CHECK(b.impacts >= 1);
  CHECK(sim.contacts()[0].single()->state().points == 1);  // still sliding on the wall at the end
  check_balance(b, 1e-9, 3e-5);  // measured 3.4e-6
}

TEST_CASE("three free balls in a contact group (broad phase) keep momentum and angular momentum, and E + W = E0") {
  MultibodyModel model = two_bodies(kInertiaB);
  model.bodies.push_back({"c", 0.2, Matrix3d::Identity() * 0.4 * 0.2 * 0.03 * 0.03});
  const auto sphere = [](const char* name, int body, double radius) {
    ContactSurface s;
    s.name = name;
    s.body = body;
    s.kind = ContactSurface::Kind::sphere;
    s.radius = radius;
    return s;
  };
  std::vector<ContactSurface> surfaces = {sphere("a", 0, kRadiusA), sphere("b", 1, kRadiusB), sphere("c", 2, 0.03)};
  ContactGroupSpec group{.name = "balls", .surfaces_i = {0, 1, 2}, .surfaces_j = {0, 1, 2}};
  group.law = HuntCrossley{1e8, 1.5, 0.6};
  group.friction = CoulombRegularised{0.3, 1e-4};
  Simulation sim(std::move(model), std::move(surfaces), {group});
  REQUIRE(sim.contacts()[0].single() == nullptr);  // the broad phase's
  std::vector<double> y = oblique_approach();
  y.resize(3 * kBodyStateSize);
  // Ball c comes up from below into b after a and b have met.
  set_body_state(y.data(), 2, {0.0, 0.0, -0.2}, Quaterniond::Identity(), {-0.3, 0.1, 2.5}, {0, 15, 0});
  // BDF: a and b stick during their impact, where the regularised friction's slope mu N / v_reg
  // makes the equations stiff (a time constant near 1e-7 s). Adams took 88,000 or 1.8 million steps
  // there depending on where its steps fell (0.8 s or 27 s of CPU), BDF 2,722 steps (0.05 s).
  const Balance b = run_and_balance(sim, y, tight(0.08, IntegratorKind::bdf));
  CHECK(b.pairs_touched >= 2);
  check_balance(b, 1e-9, 1e-7);  // measured 3.6e-9 (3.0e-4 before friction's work was booked at the wrench's point)
}

TEST_CASE("two free boxes in oblique areal contact (polygonal model) keep momentum and angular momentum, and E + W = E0") {
  const Vector3d size(0.1, 0.06, 0.04);
  const Vector3d s2 = size.cwiseProduct(size);
  const Matrix3d box_inertia = Vector3d(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y()).asDiagonal();
  MultibodyModel model;
  model.gravity = Vector3d::Zero();
  model.bodies = {{"top", 1.0, box_inertia / 12}, {"bottom", 2.0, 2.0 * box_inertia / 12}};
  ElasticFoundation law;
  law.stiffness = 1e9;
  law.damping = 2e5;
  law.friction = 0.3;
  law.friction_velocity = 1e-4;
  ContactSpec spec{.name = "top-bottom", .surface_i = "top", .surface_j = "bottom", .body_i = 0, .body_j = 1};
  spec.geometry = ArealMeshes{test::box(size, 4).build(), test::box(size, 4).build(), {}, {}, law};
  std::vector<ContactPair> pairs;
  pairs.emplace_back(spec);
  Simulation sim(std::move(model), std::move(pairs));
  std::vector<double> y(2 * kBodyStateSize);
  // The top box 1 mm above the bottom one, shifted along x and y so that their faces overlap in
  // part, coming down obliquely and turning; the bottom one moving up and sideways.
  set_body_state(y.data(), 0, {0.02, 0.01, size.z() + 1e-3}, Quaterniond::Identity(), {0.4, -0.2, -0.3},
                 {0.5, -0.3, 2.0});
  set_body_state(y.data(), 1, {0, 0, 0}, Quaterniond::Identity(), {-0.1, 0.1, 0.1}, {0, 0, -1.0});
  const Balance b = run_and_balance(sim, y, tight(0.03, IntegratorKind::bdf));
  CHECK(b.impacts >= 1);
  check_balance(b, 1e-9, 2e-3);  // measured 4.1e-4
}

TEST_CASE("a ball held in a free shell's cavity by a surface joint keeps momentum and angular momentum") {
  // The joint's force is along the common normal at one point: no friction, no dissipation.
  constexpr double R = 0.05, r = 0.01, m = 0.05;
  MultibodyModel model;
  model.gravity = Vector3d::Zero();
  model.bodies = {{"ball", m, Matrix3d::Identity() * 0.4 * m * r * r},
                  {"shell", 0.4, Vector3d(1.0e-3, 1.2e-3, 1.4e-3).asDiagonal()}};
  const auto surface = [](const char* name, int body, double radius, ContactSurface::Kind kind) {
    ContactSurface s;
    s.name = name;
    s.body = body;
    s.kind = kind;
    s.radius = radius;
    return s;
  };
  SurfaceJointSpec joint;
  joint.name = "slide";
  joint.surface_i = 0;
  joint.surface_j = 1;
  joint.body_i = 0;
  joint.body_j = 1;
  model.surface_joints.push_back(joint);
  Simulation sim(std::move(model),
                 {surface("ball", 0, r, ContactSurface::Kind::sphere), surface("shell", 1, R, ContactSurface::Kind::cavity)},
                 {});
  std::vector<double> y(2 * kBodyStateSize);
  set_body_state(y.data(), 0, {0.2 + (R - r), 0.1, 0}, Quaterniond::Identity(), {0.1, 1.0, 0.05}, {10, 0, 0});
  set_body_state(y.data(), 1, {0.2, 0.1, 0}, Quaterniond(0.8, 0.3, -0.1, 0.5).normalized(), {0.1, 0, 0}, {2, -1, 3});
  sim.check_surface_joints(y.data());
  const MultibodyModel& mb = sim.model();
  const Momentum start = momentum(mb, y.data());
  double scale = 0, angular_scale = 0;
  for (int k = 0; k < 2; ++k) {
    const BodyStateView s = body_view(y.data(), k);
    scale += mb.bodies[static_cast<std::size_t>(k)].mass * s.v().norm();
    angular_scale += s.r().norm() * mb.bodies[static_cast<std::size_t>(k)].mass * s.v().norm() +
                     (mb.bodies[static_cast<std::size_t>(k)].inertia * s.w_body()).norm();
  }
  const double e0 = sim.mechanical_energy(y.data());
  const std::vector<double> y0 = y;
  RunObserver none;
  sim.run(y, tight(0.1), none);
  const Momentum end = momentum(mb, y.data());
  const double exchanged = m * (body_view(y.data(), 0).v() - body_view(y0.data(), 0).v()).norm();
  MESSAGE("surface joint: momentum change " << (end.linear - start.linear).norm() << " of " << scale << " (exchanged "
                                            << exchanged << "); angular " << (end.angular - start.angular).norm()
                                            << " of " << angular_scale << "; energy " << sim.mechanical_energy(y.data()) - e0);
  CHECK(exchanged > 0.05 * scale);
  CHECK((end.linear - start.linear).norm() < 1e-12 * scale);
  CHECK((end.angular - start.angular).norm() < 1e-9 * angular_scale);
  CHECK(sim.mechanical_energy(y.data()) == relative(e0, 1e-7));
}

TEST_CASE("a ball launched sliding on a plane dissipates m v0^2 / 7 by the time it rolls, and E + W = E0") {
  // catches: friction power counted with the wrong sign or not at all, or at another point than
  // the force's, friction at the centre (no torque: the ball never rolls and dissipates
  // everything), mu applied twice.
  constexpr double kMass = 0.17, kRadius = 0.028575, kG = 9.81, K = 1e8, v0 = 2, mu = 0.2;
  AnalyticContact cloth;
  cloth.shape = AnalyticContact::Shape::plane;
  cloth.plane = {Vector3d::Zero(), Vector3d::UnitZ()};
  test::BallScene scene{kMass, kRadius, kG};
  scene.friction = CoulombRegularised{mu, 1e-4};
  const auto sim = test::ball_simulation(scene, cloth, HuntCrossley{K, 1.5, 0.5});
  std::vector<double> y(kBodyStateSize);
  const double resting = kRadius - std::pow(kMass * kG / K, 2.0 / 3);  // at the static indentation
  set_body_state(y.data(), 0, {0, 0, resting}, Quaterniond::Identity(), {v0, 0, 0}, Vector3d::Zero());
  sim->accept(0, y.data());
  const double e0 = sim->mechanical_energy(y.data());
  RunObserver none;
  sim->run(y, {.end_time = 1.2 * 2 * v0 / (7 * mu * kG)}, none);  // rolling from 0.29 s
  const double w = sim->dissipated_energy(y.data()), expected = kMass * v0 * v0 / 7;
  MESSAGE("dissipated " << w << " J against m v0^2 / 7 = " << expected << " J (relative " << (w - expected) / expected
                        << "); E + W - E0 = " << sim->mechanical_energy(y.data()) + w - e0 << " J of " << e0);
  CHECK(body_view(y.data(), 0).v().x() == relative(5.0 / 7 * v0, 0.01));
  CHECK(w == relative(expected, 0.01));
  // Friction's work is booked at the slip of the point the wrench acts at; at the slip between the
  // two surface points instead, E + W drifted by 2.0e-5 (omega x delta / 2 of slip).
  CHECK(std::abs(sim->mechanical_energy(y.data()) + w - e0) < 1e-9 * e0);  // measured 8e-12
}
