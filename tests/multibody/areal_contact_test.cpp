// The polygonal contact model in the multibody loop: a box on a floor, both meshes, against closed
// forms: it settles at m g / (c A), bounces without losing energy when undamped, and slides to a
// stop in v0^2 / (2 mu g) with friction, the energy it loses counted as dissipated; and the demo's
// ball in its cup on the tables' grids, against the Hertz run on the tables.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "../support/approx.hpp"
#include "../support/cup_and_ball_demo.hpp"
#include "../support/meshes.hpp"
#include "surfdb/contact/mesh_from_tables.hpp"
#include "surfdb/multibody/multibody_state.hpp"
#include "surfdb/multibody/simulation.hpp"

using namespace surfdb;
using surfdb::test::relative;

namespace {

constexpr double kMass = 1.0, kG = 9.81, kC = 1e8;  // kg, m/s^2, N/m^3
const Eigen::Vector3d kSize(0.1, 0.06, 0.04);         // m
const double kArea = kSize.x() * kSize.y();

std::unique_ptr<Simulation> box_on_floor(ElasticFoundation law) {
  MultibodyModel model;
  const Eigen::Vector3d s2 = kSize.cwiseProduct(kSize);
  model.bodies.push_back({"box", kMass, kMass / 12 * Eigen::Vector3d(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y()).asDiagonal()});
  model.gravity = {0, 0, -kG};
  ContactSpec spec{.name = "box-floor", .surface_i = "box", .surface_j = "floor", .body_i = 0, .body_j = kGround};
  spec.geometry = ArealMeshes{test::box(kSize, 4).build(), test::square(1.0, 1).build(), {}, {}, law};
  std::vector<ContactPair> pairs;
  pairs.emplace_back(spec);
  return std::make_unique<Simulation>(std::move(model), std::move(pairs));
}

std::vector<double> box_at(double bottom, Eigen::Vector3d velocity = Eigen::Vector3d::Zero()) {
  std::vector<double> y(kBodyStateSize);
  set_body_state(y.data(), 0, {0, 0, bottom + kSize.z() / 2}, Eigen::Quaterniond::Identity(), velocity,
                 Eigen::Vector3d::Zero());
  return y;
}

RunSettings tight(double end) {
  RunSettings s{.end_time = end, .integrator = IntegratorKind::bdf};
  s.sundials.relative_tolerance = 1e-8;
  s.sundials.absolute_tolerance = 1e-11;
  return s;
}

}  // namespace

TEST_CASE("a box placed on a floor settles at m g / (c A) on its whole base") {
  ElasticFoundation law;
  law.stiffness = kC;
  law.damping = 1.5e5;  // about 0.6 of critical for the box on c A
  const auto sim = box_on_floor(law);
  std::vector<double> y = box_at(0);
  RunObserver none;
  sim->run(y, tight(0.1), none);
  const double static_depth = kMass * kG / (kC * kArea);
  CHECK(-(body_view(y.data(), 0).r().z() - kSize.z() / 2) == relative(static_depth, 1e-3));
  const ContactPair& pair = *sim->contacts()[0].single();
  CHECK(pair.state().points == 2 * 4 * 4);
  CHECK(pair.areal()->patches == 1);
  CHECK(pair.state().last_force == relative(kMass * kG, 1e-3));
  CHECK(pair.state().statistics.impacts == 1);
}

TEST_CASE("an undamped box bounces on the floor and keeps its energy") {
  ElasticFoundation law;
  law.stiffness = kC;
  const auto sim = box_on_floor(law);
  std::vector<double> y = box_at(1e-3);
  const double e0 = sim->mechanical_energy(y.data());
  RunObserver none;
  sim->run(y, tight(0.05), none);
  CHECK(sim->contacts()[0].single()->state().statistics.impacts >= 2);
  CHECK(sim->mechanical_energy(y.data()) == relative(e0, 1e-5));
}

TEST_CASE("a damped box bounces and what it loses is counted as dissipated") {
  ElasticFoundation law;
  law.stiffness = kC;
  law.damping = 5e4;
  law.damping_depth = 2e-6;
  const auto sim = box_on_floor(law);
  std::vector<double> y = box_at(1e-3);
  const double e0 = sim->mechanical_energy(y.data());
  RunObserver none;
  sim->run(y, tight(0.05), none);
  CHECK(sim->contacts()[0].single()->state().statistics.impacts >= 2);  // it leaves the floor again
  CHECK(sim->dissipated_energy(y.data()) > 0.1 * (e0 - sim->mechanical_energy(y.data())));
  CHECK(sim->mechanical_energy(y.data()) + sim->dissipated_energy(y.data()) == relative(e0, 1e-5));
}

TEST_CASE("a box launched along the floor slides v0^2 / (2 mu g) and the kinetic energy is dissipated") {
  ElasticFoundation law;
  law.stiffness = kC;
  law.damping = 1.5e5;
  law.friction = 0.3;
  law.friction_velocity = 1e-4;
  const auto sim = box_on_floor(law);
  const double v0 = 0.5, depth = kMass * kG / (kC * kArea);
  std::vector<double> y = box_at(-depth, {v0, 0, 0});
  sim->accept(0, y.data());  // the elastic energy it starts with
  const double e0 = sim->mechanical_energy(y.data());
  RunObserver none;
  sim->run(y, tight(v0 / (law.friction * kG) + 0.03), none);
  CHECK(body_view(y.data(), 0).r().x() == relative(v0 * v0 / (2 * law.friction * kG), 1e-2));
  CHECK(std::abs(body_view(y.data(), 0).v().x()) < 1e-3);
  CHECK(sim->dissipated_energy(y.data()) == relative(0.5 * kMass * v0 * v0, 1e-2));
  // To 1e-3: friction at the base pitches the box a little, and the elements' springs along its
  // tilted normal are conservative only to second order in the tilt.
  CHECK(sim->mechanical_energy(y.data()) + sim->dissipated_energy(y.data()) == relative(e0, 1e-3));
}

TEST_CASE("the demo's ball drops into the cup's grid with the polygonal model when it does on the tables with Hertz") {
  // Both runs as the demo: AB4 at 1 us, the Hertz law of paper Table 3. The foundation is matched
  // to it by the impact's energy: with R* = R_b R_c / (R_c - R_b) = 12.5 mm, pi c R* d^3 / 3 =
  // 2 K d^2.5 / 5 at the Hertz run's deepest indentation d = 5.911 um (docs/demo.md).
  const double K = 5.0181e9, d_max = 5.911e-6, R_star = 0.0125;
  const double c = 1.2 * K / (std::numbers::pi * R_star * std::sqrt(d_max));
  const auto first_contact = [](ContactSpec spec, double& deepest) {
    std::vector<ContactPair> pairs;
    pairs.emplace_back(std::move(spec));
    Simulation sim(test::cup_and_ball_model(), std::move(pairs));
    std::vector<double> y = test::cup_and_ball_initial_state();
    RunObserver none;
    sim.run(y, {.end_time = 0.025, .integrator = IntegratorKind::ab4, .step = 1e-6}, none);
    deepest = sim.contacts()[0].statistics().max_indentation;
    return sim.contacts()[0].statistics().first_contact_time;
  };
  double hertz_depth = 0, areal_depth = 0;
  const double hertz = first_contact(test::ball_cup_contact(true, Hertz{K, 1.5}), hertz_depth);
  ContactSpec areal = test::ball_cup_contact(true, Hertz{K, 1.5});
  const test::BallAndCup& t = test::ball_and_cup();
  ElasticFoundation law;
  law.stiffness = c;
  areal.geometry = ArealMeshes{mesh_from_tables(*TableSet::single(t.ball), 2), mesh_from_tables(*TableSet::single(t.cup), 2),
                               t.mount, t.mount, law};
  const double polygonal = first_contact(areal, areal_depth);
  MESSAGE("first contact: Hertz on the tables " << hertz << " s, polygonal on their grids " << polygonal
                                                << " s; deepest " << hertz_depth << " m and " << areal_depth << " m");
  CHECK(hertz == doctest::Approx(0.0180951).epsilon(1e-3));
  CHECK(std::abs(polygonal - hertz) <= 1e-5);  // within one output interval of the demo
  // Matched by energy, the polygonal impact goes as deep to the grids' chords (2.2 % here).
  CHECK(areal_depth == relative(hertz_depth, 0.05));
}
