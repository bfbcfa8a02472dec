// Two closed forms of rigid-body contact mechanics, through the whole loop (detection, laws,
// friction acting at the contact point, dynamics, integrator):
// - a ball launched sliding without spin on a plane with friction mu rolls without slipping after
//   t = 2 v0 / (7 mu g), at v = 5/7 v0 (a solid ball, I = 2/5 m r^2);
// - two equal balls meeting head on part with the restitution coefficient the law is built for,
//   within what the literature reports of each law (Lankarani-Nikravesh is accurate only near 1),
//   the work each law dissipates the kinetic energy the impact took, E + W = E0.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <variant>

#include "../support/approx.hpp"
#include "../support/ball_scene.hpp"
#include "surfdb/multibody/multibody_state.hpp"

using namespace surfdb;
using surfdb::test::relative;

namespace {

constexpr double kMass = 0.17, kRadius = 0.028575, kG = 9.81;  // a billiard ball

// Watches the slip of a ball rolling along +x: v_x - w_y r, the contact point's speed.
class Slip : public RunObserver {
 public:
  void accepted(const Simulation&, double t, const double* y) override {
    const BodyStateView b = body_view(y, 0);
    const Eigen::Vector3d w = b.orientation() * Eigen::Vector3d(b.w_body());
    const double slip = b.v().x() - w.y() * kRadius;
    if (std::isnan(rolling_from) && std::abs(slip) < 1e-3) rolling_from = t;
  }
  double rolling_from = NAN;  // s, the first accepted step with |slip| < 1 mm/s
};

struct Roll {
  double rolling_from = NAN, final_speed = 0;
};

Roll launch(FrictionLaw friction, double v0, double end_time) {
  AnalyticContact cloth;
  cloth.shape = AnalyticContact::Shape::plane;
  cloth.plane = {Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitZ()};
  test::BallScene scene{kMass, kRadius, kG};
  scene.friction = friction;
  constexpr double K = 1e8;
  const auto simulation = test::ball_simulation(scene, cloth, HuntCrossley{K, 1.5, 0.5});
  std::vector<double> y(kBodyStateSize);
  const double resting = kRadius - std::pow(kMass * kG / K, 2.0 / 3);  // at the static indentation
  set_body_state(y.data(), 0, {0, 0, resting}, Eigen::Quaterniond::Identity(), {v0, 0, 0}, Eigen::Vector3d::Zero());
  Slip slip;
  simulation->run(y, {.end_time = end_time}, slip);
  return {slip.rolling_from, body_view(y.data(), 0).v().x()};
}

// Ball A at 1 m/s into ball B at rest, no gravity: the restitution measured after they part.
double head_on_restitution(NormalLaw law) {
  MultibodyModel model;
  const Eigen::Matrix3d inertia = Eigen::Matrix3d::Identity() * 0.4 * kMass * kRadius * kRadius;
  model.bodies = {{"a", kMass, inertia}, {"b", kMass, inertia}};
  model.gravity = Eigen::Vector3d::Zero();
  AnalyticContact spheres;
  spheres.shape = AnalyticContact::Shape::sphere;
  spheres.sphere = {Eigen::Vector3d::Zero(), kRadius};
  spheres.other = {Eigen::Vector3d::Zero(), kRadius};
  ContactSpec spec{.name = "a-b", .surface_i = "a", .surface_j = "b", .body_i = 0, .body_j = 1};
  spec.geometry = spheres;
  spec.law = law;
  std::vector<ContactPair> pairs;
  pairs.emplace_back(spec);
  Simulation sim(std::move(model), std::move(pairs));
  std::vector<double> y(2 * kBodyStateSize);
  set_body_state(y.data(), 0, {-0.06, 0, 0}, Eigen::Quaterniond::Identity(), {1, 0, 0}, Eigen::Vector3d::Zero());
  set_body_state(y.data(), 1, {0, 0, 0}, Eigen::Quaterniond::Identity(), Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
  sim.accept(0, y.data());
  const double e0 = sim.mechanical_energy(y.data());
  RunObserver silent;
  sim.run(y, {.end_time = 0.02}, silent);
  REQUIRE(sim.contacts()[0].statistics().impacts == 1);
  const double restitution = body_view(y.data(), 1).v().x() - body_view(y.data(), 0).v().x();
  // The work dissipated is the kinetic energy the impact took, m v^2 (1 - e^2) / 4 for two equal
  // balls at 1 m/s, and E + W = E0 (no friction: neither turns); Hertz dissipates nothing.
  // Both to the integrator's tolerance (relative 1e-9 a step: measured 1e-8 to 1.3e-7 of E0).
  const double w = sim.dissipated_energy(y.data());
  CAPTURE(w);
  CHECK(std::abs(sim.mechanical_energy(y.data()) + w - e0) < 1e-6 * e0);
  if (std::holds_alternative<Hertz>(law))
    CHECK(w == 0);
  else
    CHECK(w == relative(kMass * (1 - restitution * restitution) / 4, 1e-5));
  return restitution;
}

}  // namespace

TEST_CASE("a ball launched sliding rolls without slipping after 2 v0 / (7 mu g), at 5/7 v0") {
  // catches: friction applied at the centre (no torque: the ball never rolls), the torque's sign
  // (it spins backwards and takes longer), mu applied twice or not to the normal force.
  constexpr double v0 = 2, mu = 0.2;
  const double t_roll = 2 * v0 / (7 * mu * kG);  // 0.2912 s
  SUBCASE("regularised Coulomb") {
    const Roll r = launch(CoulombRegularised{mu, 1e-4}, v0, 0.4);
    CHECK(r.rolling_from == relative(t_roll, 0.01));
    CHECK(r.final_speed == relative(5.0 / 7 * v0, 0.01));
  }
  SUBCASE("Ambrosio's dynamic correction") {
    const Roll r = launch(CoulombAmbrosio{mu, 1e-4, 1e-3}, v0, 0.4);
    CHECK(r.rolling_from == relative(t_roll, 0.01));
    CHECK(r.final_speed == relative(5.0 / 7 * v0, 0.01));
  }
}

TEST_CASE("two equal balls meeting head on part with the restitution the law is built for") {
  // Hertz K of two phenolic-resin balls (samples/primitive_scenes/billiard.toml).
  constexpr double K = 4.9e8;
  const double hertz = head_on_restitution(Hertz{K, 1.5});
  CHECK(hertz == relative(1, 1e-6));
  for (const double cr : {0.9, 0.5}) {
    const double hunt = head_on_restitution(HuntCrossley{K, 1.5, cr});
    const double lankarani = head_on_restitution(LankaraniNikravesh{K, 1.5, cr});
    const double flores = head_on_restitution(FloresEtAl{K, 1.5, cr});
    const double gonthier = head_on_restitution(Gonthier{K, 1.5, cr});
    MESSAGE("c_r " << cr << ": Hunt-Crossley " << hunt << ", Lankarani-Nikravesh " << lankarani << ", Flores "
                   << flores << ", Gonthier " << gonthier);
    if (cr == 0.9) {  // all but Gonthier's within 2 %
      CHECK(hunt == relative(cr, 0.02));
      CHECK(lankarani == relative(cr, 0.02));
      CHECK(flores == relative(cr, 0.02));
    } else {  // Flores et al. and Gonthier et al. built theirs for low c_r too; the other two are far off there
      CHECK(gonthier == relative(cr, 0.05));
      CHECK(flores == relative(cr, 0.07));
      CHECK(hunt > 1.2 * cr);
      CHECK(lankarani > 1.3 * cr);
    }
  }
}
