// The primitive scenes of samples/primitive_scenes/ (Corral et al. 2021) against closed forms,
// read from the very files the demo runs, changed only by --set overrides:
// - the bearing's balls, rolling without slip, orbit at w_i r_i / (r_i + r_o);
// - a ball bouncing on a frictionless step of the stairs rebounds to c_r^2 of its height each time;
// - with conservative laws and no friction every scene keeps its mechanical energy; with their own
//   dissipative laws and friction, the billiard and the stairs keep E + W = E0.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "../support/approx.hpp"
#include "surfdb/multibody/multibody_state.hpp"
#include "surfdb/scenario/scenario.hpp"
#include "../../runtime/multibody/src/grouped_jacobian.hpp"

using namespace surfdb;
using surfdb::test::relative;

namespace {

std::filesystem::path sample(const std::string& name) {
  return std::filesystem::path(SURFDB_SOURCE_DIR) / "samples/primitive_scenes" / (name + ".toml");
}

struct Run {
  Scenario scenario;
  std::unique_ptr<Simulation> sim;
  std::vector<double> y;
  RunStatistics stats;
};

Run run(const std::string& name, const std::vector<std::string>& overrides, RunObserver& observer) {
  Run r{load_scenario(sample(name), overrides), nullptr, {}, {}};
  r.sim = make_simulation(r.scenario);
  r.y = r.scenario.initial_state;
  r.stats = r.sim->run(r.y, r.scenario.run, observer);
  return r;
}

// Each ball's orbit angle about z, unwrapped, sampled after `from`.
class Orbits : public RunObserver {
 public:
  Orbits(int first_ball, int balls, double from) : first_(first_ball), from_(from), angle_(balls, 0.0), start_(balls) {}
  void accepted(const Simulation&, double t, const double* y) override {
    for (std::size_t k = 0; k < angle_.size(); ++k) {
      const Eigen::Vector3d c = body_view(y, first_ + static_cast<int>(k)).r();
      const double a = std::atan2(c.y(), c.x());
      double& unwrapped = angle_[k];
      unwrapped += std::remainder(a - unwrapped, 2 * M_PI);
      if (t <= from_) start_[k] = unwrapped, t0_ = t;
    }
    t_ = t;
  }
  /// Mean orbit rate of ball k after `from`, rad/s.
  double rate(std::size_t k) const { return (angle_[k] - start_[k]) / (t_ - t0_); }

 private:
  int first_;
  double from_, t0_ = 0, t_ = 0;
  std::vector<double> angle_, start_;
};

// The ball's apexes: the highest centre between two contacts.
class Apexes : public RunObserver {
 public:
  void accepted(const Simulation& sim, double, const double* y) override {
    const double z = body_view(y, 0).r().z();
    bool touching = false;
    for (const ContactGroup& g : sim.contacts()) touching |= g.output().points > 0;
    if (touching && airborne_ && highest_ > 0) heights.push_back(highest_);
    if (!touching) highest_ = airborne_ ? std::max(highest_, z) : z;
    airborne_ = !touching;
  }
  std::vector<double> heights;  // m, of the centre, one per flight between contacts

 private:
  bool airborne_ = false;
  double highest_ = 0;
};

// E + W = E0: the mechanical energy plus the work the contacts dissipated (damping and friction)
// stays the starting energy, to `tolerance` of it (the scenes' integrator tolerances: measured
// 9e-6 for the billiard at 1e-6, 4e-6 for the stairs).
void check_energy_balance(const Run& r, double tolerance) {
  const double e = r.sim->mechanical_energy(r.y.data()), w = r.sim->dissipated_energy(r.y.data());
  const double e0 = r.stats.initial_energy;
  MESSAGE("E0 " << e0 << " J, E " << e << " J, W " << w << " J: E + W - E0 = " << e + w - e0 << " J");
  CHECK(w > 0.1 * std::abs(e0));  // the scene really dissipates
  CHECK(std::abs(e + w - e0) < tolerance * std::abs(e0));
}

}  // namespace

TEST_CASE("billiard: the break dissipates by damping and friction, and E + W = E0") {
  // catches: friction's or damping's work booked with the wrong sign, at the wrong point, or not
  // at all (the cloth's rolling balls and the cushions' impacts).
  RunObserver none;
  const Run r = run("billiard", {"simulation.end_time=0.5"}, none);
  REQUIRE(r.stats.health.status() == RunStatus::ok);
  check_energy_balance(r, 5e-5);
}

TEST_CASE("bearing: the balls orbit at w_i r_i / (r_i + r_o) once they roll") {
  // catches: friction acting at the centre (the balls never turn), a sign of the friction torque
  // (they orbit the wrong way), the contact slots' forces applied to the wrong body.
  constexpr double w_inner = 100, r_i = 0.020, r_o = 0.029998;  // rad/s, m (bearing.toml)
  Orbits orbits(1, 8, 0.1);
  const Run r = run("bearing", {"simulation.end_time=0.2"}, orbits);
  MESSAGE("bearing 0.2 s: " << r.stats.steps << " steps, " << r.stats.cpu_seconds << " s CPU");
  for (std::size_t k = 0; k < 8; ++k) CHECK(orbits.rate(k) == relative(w_inner * r_i / (r_i + r_o), 0.02));
}

TEST_CASE("stairs: on a frictionless step the rebound heights fall by c_r^2") {
  // The ball dropped 0.2 m onto step 2 (frictionless, top at z = 0.4 m), drifting slowly along it.
  // Flores et al.'s law at c_r = 0.9 returns 0.894 of the approach speed (the head-on test), so the
  // heights fall by 0.80 where c_r^2 = 0.81. catches: a law that ignores its restitution, a
  // damping floor that lifts a ball's hops.
  Apexes apexes;
  const Run r = run("stairs", {"simulation.end_time=1.2", "body.ball.position=[0.6, 0, 0.65]", "body.ball.velocity=[0.02, 0, 0]"},
                    apexes);
  check_energy_balance(r, 2e-5);
  REQUIRE(apexes.heights.size() >= 4);
  constexpr double top = 0.4 + 0.05;  // the centre's height on the step, m
  for (std::size_t k = 1; k < 4; ++k) {
    CAPTURE(k);
    CHECK((apexes.heights[k] - top) / (apexes.heights[k - 1] - top) == relative(0.81, 0.03));
  }
}

TEST_CASE("bearing: BDF's grouped Jacobian is the dense difference Jacobian, from two groups of columns") {
  // The driven race's motion is prescribed (its revolute joint and driver take its six freedoms),
  // so its rows depend on no ball: the race's columns form one group, all eight balls' another.
  // Against df/dy by one-sided differences of every column (the energy rows aside, which the
  // grouped Jacobian leaves 0): catches a prescribed group's rows wrongly taken as independent, a
  // ball pair's rows attributed to the wrong ball.
  Scenario s = load_scenario(sample("bearing"));
  const std::unique_ptr<Simulation> sim = make_simulation(s);
  std::vector<double> y = s.initial_state;
  y.resize(static_cast<std::size_t>(sim->size()), 0.0);
  const std::size_t n = y.size(), bodies = 9 * static_cast<std::size_t>(kBodyStateSize);
  std::vector<double> f(n), g(n), weights(n), grouped(n * n);
  for (std::size_t c = 0; c < n; ++c) weights[c] = 1 / (1e-6 * std::abs(y[c]) + 1e-10);  // bearing.toml's tolerances
  sim->derivative(0, y.data(), f.data());
  JacobianBlocks blocks;
  REQUIRE(sim->jacobian_blocks(blocks));
  GroupedJacobian jacobian;
  constexpr double min_increment = 100;  // 1e-8 for a state at 0 (weight 1e10)
  jacobian.evaluate(*sim, blocks, 0, y.data(), f.data(), weights.data(), min_increment, grouped.data());
  CHECK(jacobian.colours() == 2);
  CHECK(jacobian.evaluations() == 2 * kBodyStateSize);
  for (std::size_t column = 0; column < bodies; ++column) {
    std::vector<double> perturbed = y;
    // The increments the grouped differences take, so that the two differ only by what is grouped.
    const double step = std::max(std::sqrt(2.2e-16) * std::abs(y[column]), min_increment / weights[column]);
    perturbed[column] += step;
    sim->derivative(0, perturbed.data(), g.data());
    double largest = 0;
    for (std::size_t row = 0; row < bodies; ++row) largest = std::max(largest, std::abs((g[row] - f[row]) / step));
    for (std::size_t row = 0; row < bodies; ++row) {
      CAPTURE(row);
      CAPTURE(column);
      CHECK(std::abs(grouped[column * n + row] - (g[row] - f[row]) / step) <= 1e-6 * largest);
    }
  }
}

TEST_CASE("every primitive scene keeps its energy with conservative laws and no friction") {
  const auto conservative = [](const std::vector<std::string>& contacts) {
    std::vector<std::string> o{"simulation.relative_tolerance=1e-11", "simulation.absolute_tolerance=1e-14"};
    for (const std::string& c : contacts) {
      o.push_back("contact." + c + ".law=hertz");
      o.push_back("contact." + c + ".friction=0");
    }
    return o;
  };
  std::vector<std::string> bearing;
  for (int k = 0; k < 8; ++k)
    for (const char* race : {"inner", "outer"}) bearing.push_back("ball" + std::to_string(k) + "-" + race);
  // Without friction the bearings' balls do not move but for the preload's vibration (13 kHz,
  // undamped): 5 ms of it, 65 periods (the whole 0.5 s at this tolerance takes minutes).
  std::vector<std::string> bearing_overrides = conservative(bearing);
  bearing_overrides.push_back("simulation.end_time=0.005");
  bearing_overrides.push_back("simulation.integrator=adams");
  const struct {
    const char* name;
    std::vector<std::string> overrides;
  } scenes[] = {{"billiard", conservative({"cloth", "balls", "cushions"})},
                {"bearing", bearing_overrides},
                {"bearing_axial", bearing_overrides},
                {"stairs", conservative({"rough", "floor", "smooth"})}};
  for (const auto& scene : scenes) {
    CAPTURE(scene.name);
    RunObserver silent;
    const Run r = run(scene.name, scene.overrides, silent);
    const double energy = r.sim->mechanical_energy(r.y.data());
    MESSAGE(std::string(scene.name) << ": " << r.stats.steps << " steps, " << r.stats.cpu_seconds << " s CPU, energy "
                       << r.stats.initial_energy << " J -> " << energy << " J");
    CHECK(r.sim->dissipated_energy(r.y.data()) == 0);
    CHECK(energy == relative(r.stats.initial_energy, 1e-6));
  }
}
