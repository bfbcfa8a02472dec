// A ball placed at rest on a plane, touching it (no indentation), under every dissipative law and
// every integrator: it settles at the static Hertz indentation (m g / K)^(2/3) without a hop or a
// jitter, in few right-hand sides. The laws divide by the impact velocity, about zero for a
// contact that begins at rest; without the bound on their damping (force_laws.hpp,
// critical_impact_velocity) CVODE Adams takes some 16,000 steps per hundredth of a second here
// (the right-hand-side count below fails), and stalls for a ball placed at its static indentation.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "../support/approx.hpp"
#include "../support/ball_scene.hpp"
#include "surfdb/multibody/multibody_state.hpp"

using namespace surfdb;
using surfdb::test::relative;

namespace {

// A billiard ball on the cloth (samples/primitive_scenes/billiard.toml).
constexpr double kMass = 0.17, kRadius = 0.028575, kStiffness = 1e8, kG = 9.81, kEnd = 0.1;
const double kStatic = std::pow(kMass * kG / kStiffness, 2.0 / 3);  // 6.53 um

struct Settled {
  double indentation = 0, max_indentation = 0, speed = 0;  // m, m, m/s at the end
  int impacts = 0;
  RunStatistics run;
};

class Deepest : public RunObserver {
 public:
  void accepted(const Simulation& sim, double, const double*) override {
    deepest = std::max(deepest, sim.contacts()[0].single()->state().last.indentation);
  }
  double deepest = 0;
};

Settled settle(NormalLaw law, IntegratorKind integrator) {
  AnalyticContact floor;
  floor.shape = AnalyticContact::Shape::plane;
  floor.plane = {Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitZ()};
  test::BallScene scene{kMass, kRadius, kG};
  scene.friction = CoulombRegularised{0.2, 1e-4};
  const auto simulation = test::ball_simulation(scene, floor, law);
  std::vector<double> y(kBodyStateSize);
  set_body_state(y.data(), 0, {0, 0, kRadius}, Eigen::Quaterniond::Identity(), Eigen::Vector3d::Zero(),
                 Eigen::Vector3d::Zero());
  Deepest watch;
  Settled s;
  s.run = simulation->run(y, {.end_time = kEnd, .integrator = integrator, .step = 1e-5}, watch);
  const ContactPair& pair = *simulation->contacts()[0].single();
  s.indentation = pair.state().last.indentation;
  s.max_indentation = watch.deepest;
  s.speed = body_view(y.data(), 0).v().norm();
  s.impacts = pair.state().statistics.impacts;
  return s;
}

}  // namespace

TEST_CASE("a ball placed on a plane settles at the static indentation under every law and integrator") {
  const struct {
    const char* name;
    NormalLaw law;
  } laws[] = {{"hunt_crossley", HuntCrossley{kStiffness, 1.5, 0.5}},
              {"lankarani_nikravesh", LankaraniNikravesh{kStiffness, 1.5, 0.5}},
              {"flores", FloresEtAl{kStiffness, 1.5, 0.5}},
              {"gonthier", Gonthier{kStiffness, 1.5, 0.5}}};
  const struct {
    const char* name;
    IntegratorKind kind;
  } integrators[] = {{"ab4 1e-5 s", IntegratorKind::ab4},
                     {"rk4 1e-5 s", IntegratorKind::rk4},
                     {"adams", IntegratorKind::adams},
                     {"bdf", IntegratorKind::bdf},
                     {"dormand_prince", IntegratorKind::dormand_prince}};
  for (const auto& law : laws)
    for (const auto& integrator : integrators) {
      CAPTURE(law.name);
      CAPTURE(integrator.name);
      const Settled s = settle(law.law, integrator.kind);
      MESSAGE(std::string(law.name) << ", " << std::string(integrator.name) << ": " << s.run.steps << " steps, " << s.run.rhs_evaluations
                       << " right-hand sides, " << s.run.cpu_seconds << " s CPU for " << kEnd << " s");
      CHECK(s.indentation == relative(kStatic, 1e-6));
      CHECK(s.max_indentation < 1.01 * kStatic);  // critically damped: no overshoot to speak of
      CHECK(s.speed < 1e-6);
      CHECK(s.impacts == 1);  // it never lifts off
      // The run's cost, as a count that does not depend on the machine: at well under 1 us per
      // right-hand side of this scene, 50,000 of them are faster than real time.
      CHECK(s.run.rhs_evaluations < 50000);
    }
}
