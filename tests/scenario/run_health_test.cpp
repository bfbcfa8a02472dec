// The health of a run (docs/scenario.md, run_health.hpp): scenes that make each kind of warning
// happen, checked for the kind, the count, the time and the status against what the scene's
// geometry says, and healthy scenes (a bounce, a slide with friction, a pendulum) that must stay
// "ok": a monitor that cries wolf is as useless as one that never does.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "../support/scenario_text.hpp"
#include "../support/temp_dir.hpp"
#include "surfdb/libsurfdb/analytic_surfaces.hpp"
#include "surfdb/libsurfdb/converter.hpp"
#include "surfdb/multibody/multibody_state.hpp"

using namespace surfdb;

namespace {

// A square plate's top face as a table: x = u, y = v in [0, 100] mm, z = 0, normal +z.
const test::TempDir& plate_dir() {
  static test::TempDir dir;
  static const bool made = [] {
    AnalyticSpec plate;
    plate.kind = AnalyticKind::plane;
    plate.length = 100;
    ConvertOptions o;
    o.grid = {101, 101};
    o.record = {11, 11};
    convert_surface(*make_analytic_surface(plate), o, dir / "plate.sdb");
    return true;
  }();
  (void)made;
  return dir;
}

struct Outcome {
  RunStatistics stats;
  std::vector<double> y;
};

Outcome run(const std::string& text) {
  Scenario s = test::load_text(plate_dir(), text);
  const std::unique_ptr<Simulation> sim = make_simulation(s);
  Outcome o{{}, s.initial_state};
  RunObserver none;
  o.stats = sim->run(o.y, s.run, none);
  return o;
}

const RunWarning* find(const RunHealth& h, HealthKind kind) {
  for (const RunWarning& w : h.warnings())
    if (w.kind == kind) return &w;
  return nullptr;
}

// A 4 g steel ball of radius 5 mm over the plate table (the ground's), Hertz K = 1e8 N/m^1.5.
std::string ball_on_plate(const std::string& simulation, const std::string& ball, const std::string& law = "") {
  return "[simulation]\n" + simulation +
         "\n[[body]]\nname = \"ball\"\nmass = 0.004\ninertia = [4e-8, 4e-8, 4e-8]\n" + ball +
         "\n[[surface]]\nname = \"ball\"\nbody = \"ball\"\nsphere_radius = 0.005\n"
         "\n[[surface]]\nname = \"plate\"\nbody = \"ground\"\ntable = \"plate.sdb\"\n"
         "\n[[contact]]\nname = \"ball_plate\"\nsurface_i = \"ball\"\nsurface_j = \"plate\"\nstiffness = 1e8\n" +
         law;
}

}  // namespace

TEST_CASE("a ball that slides onto the plate's face from beyond its edge, 1 mm low, appears deep and gains energy") {
  // No gravity; the centre 4 mm above the face's plane, so the face's contact begins 1 mm deep as
  // the centre crosses the edge x = 0 at t = 0.01 m / 0.1 m/s = 0.1 s.
  const Outcome o = run(ball_on_plate("end_time = 0.15\ngravity = [0.0, 0.0, 0.0]\n",
                                      "position = [-0.01, 0.05, 0.004]\nvelocity = [0.1, 0.0, 0.0]\n"));
  const RunHealth& h = o.stats.health;
  CHECK(h.status() == RunStatus::warnings);
  const RunWarning* deep = find(h, HealthKind::deep_appearance);
  REQUIRE(deep);
  CHECK(deep->subject == "contact 'ball_plate'");
  CHECK(deep->count == 1);
  CHECK(deep->first_time == doctest::Approx(0.1).epsilon(0.01));
  CHECK(deep->worst == doctest::Approx(1e-3).epsilon(0.01));  // the 1 mm the centre lies low
  const RunWarning* gain = find(h, HealthKind::energy_gain);
  REQUIRE(gain);
  // The elastic energy the appearance stored, K d^2.5 / 2.5 (the kinetic energy at start is 2e-5 J).
  CHECK(gain->worst > 0.5 * 1e8 * std::pow(1e-3, 2.5) / 2.5);
  CHECK(h.describe(*deep).find("contact 'ball_plate': 1 contact point appeared deeper") == 0);
}

TEST_CASE("healthy scenes report nothing: a bounce with restitution, a slide with friction") {
  SUBCASE("a drop with Hunt-Crossley restitution 0.5: energy dissipated, none gained") {
    const Outcome o = run(ball_on_plate("end_time = 0.2\n", "position = [0.05, 0.05, 0.015]\n",
                                        "law = \"hunt_crossley\"\nrestitution = 0.5\n"));
    CHECK(o.stats.health.warnings().empty());
    CHECK(o.stats.health.status() == RunStatus::ok);
  }
  SUBCASE("a ball sliding at 0.2 m/s with Coulomb friction 0.3 comes to roll") {
    const Outcome o = run(ball_on_plate("end_time = 0.1\n",
                                        "position = [0.03, 0.05, 0.004999]\nvelocity = [0.2, 0.0, 0.0]\n",
                                        "friction = 0.3\n"));
    CHECK(o.stats.health.warnings().empty());
  }
}

TEST_CASE("a state that turns infinite stops the run as failed, naming the body, and CVODE fails on it") {
  // A spring of 1e308 N/m stretched 10 m: its force overflows to infinity at once.
  const auto scene = [](const std::string& integrator) {
    return "[simulation]\nend_time = 0.05\n" + integrator +
           "[[body]]\nname = \"ball\"\nmass = 0.004\ninertia = [4e-8, 4e-8, 4e-8]\nposition = [0.0, 0.0, 0.0]\n"
           "[[spring]]\nname = \"rubber\"\nbody_i = \"ground\"\nbody_j = \"ball\"\npoint_i = [0.0, 0.0, 10.0]\n"
           "point_j = [0.0, 0.0, 0.0]\nstiffness = 1e308\nfree_length = 0.0\n";
  };
  const Outcome rk4 = run(scene("integrator = \"rk4\"\nstep = 1e-4\n"));
  CHECK(rk4.stats.health.status() == RunStatus::failed);
  const RunWarning* nan = find(rk4.stats.health, HealthKind::non_finite_state);
  REQUIRE(nan);
  CHECK(nan->subject == "body 'ball'");
  CHECK(nan->first_time == 1e-4);  // the first step, undone: the run ends where it began
  CHECK(rk4.stats.end_time == 0);
  CHECK(rk4.stats.steps == 0);
  CHECK(rk4.y[2] == 0);  // the ball's z: the last accepted state, finite

  const Outcome adams = run(scene("integrator = \"adams\"\n"));
  CHECK(adams.stats.health.status() == RunStatus::failed);
  const RunWarning* failure = find(adams.stats.health, HealthKind::integrator_failure);
  REQUIRE(failure);
  CHECK(failure->message.find("CVODE failed") == 0);
  CHECK(failure->message.find("CVode: At t = 0") != std::string::npos);  // SUNDIALS' own account
  CHECK(adams.stats.end_time == 0);
  // SUNDIALS' warnings come through the run, not standard error.
  CHECK(find(adams.stats.health, HealthKind::integrator_message));
}

TEST_CASE("a ball dropped on a plane with a fixed step far too long for its stiffness appears deep") {
  // rk4 at 0.1 ms against K = 1e300: the first step in contact ends micrometres deep, where the
  // law carries its weight at 1e-200 m.
  const std::string scene = "[simulation]\nend_time = 0.03\nintegrator = \"rk4\"\nstep = 1e-4\n"
                            "[[body]]\nname = \"ball\"\nmass = 0.004\ninertia = [4e-8, 4e-8, 4e-8]\n"
                            "position = [0.0, 0.0, 0.006]\n"
                            "[[surface]]\nname = \"ball\"\nbody = \"ball\"\nsphere_radius = 0.005\n"
                            "[[surface]]\nname = \"floor\"\nbody = \"ground\"\nplane_normal = [0.0, 0.0, 1.0]\n"
                            "[[contact]]\nname = \"ball_floor\"\nsurface_i = \"ball\"\nsurface_j = \"floor\"\n"
                            "stiffness = 1e300\n";
  const Outcome o = run(scene);
  const RunWarning* deep = find(o.stats.health, HealthKind::deep_appearance);
  REQUIRE(deep);
  CHECK(deep->count == 1);
  // Free fall of 1 mm takes sqrt(2 h / g) = 14.3 ms: the first step past it.
  CHECK(deep->first_time == doctest::Approx(0.0143).epsilon(0.01));
  CHECK(deep->worst > 1e-7);
  CHECK(deep->worst < 1e-4 * std::sqrt(2 * 9.81 * 1e-3) * 1.01);  // at most one step's travel
}

TEST_CASE("a pendulum's joint drift is reported beyond the bound set, not below the default") {
  const auto pendulum = [](const std::string& bound) {
    return "[simulation]\nend_time = 0.5\nintegrator = \"rk4\"\nstep = 1e-3\n" + bound +
           "[[body]]\nname = \"bob\"\nmass = 1.0\ninertia = [1e-3, 1e-3, 1e-3]\nposition = [0.1, 0.0, 0.0]\n"
           "[[joint]]\nname = \"pivot\"\ntype = \"spherical\"\nbody_i = \"ground\"\nbody_j = \"bob\"\n"
           "point = [0.0, 0.0, 0.0]\n";
  };
  const Outcome loose = run(pendulum(""));
  CHECK(loose.stats.health.warnings().empty());
  const double drift = loose.stats.constraint_drift;
  REQUIRE(drift > 0);
  REQUIRE(drift < 1e-4);
  char bound[64];
  std::snprintf(bound, sizeof bound, "max_constraint_drift = %.17g\n", drift / 2);
  const Outcome tight = run(pendulum(bound));
  const RunWarning* w = find(tight.stats.health, HealthKind::constraint_drift);
  REQUIRE(w);
  CHECK(w->subject == "joints");
  CHECK(w->worst == doctest::Approx(drift));
  CHECK(tight.stats.health.status() == RunStatus::warnings);
}
