// [simulation] stabilisation_gain as docs/scenario.md means it: the Baumgarte gains alpha = beta =
// the gain, so that a joint started off its place, at rest and without gravity, closes as the
// critically damped Phi'' + 2 alpha Phi' + beta^2 Phi = 0 does: Phi0 (1 + beta t) e^(-beta t).
// The scene is read from a file; the bob is then moved 1 mm off its spherical joint (a scenario
// places bodies on their joints) and run; the largest violation the run reports at each output
// instant is compared with the closed form, for the default gain (20 1/s) and for 45 1/s.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../support/scenario_text.hpp"
#include "../support/temp_dir.hpp"
#include "surfdb/multibody/multibody_state.hpp"

using namespace surfdb;

namespace {

class Violations : public RunObserver {
 public:
  void output(const Simulation&, double t, const double*, double violation) override {
    time.push_back(t);
    value.push_back(violation);
  }
  std::vector<double> time, value;
};

// The largest |violation(t) - violation(0) (1 + beta t) e^(-beta t)| over the outputs, relative
// to violation(0).
double worst_against_closed_form(const std::string& gain_line, double beta) {
  const test::TempDir dir;
  Scenario s = test::load_text(dir, "[simulation]\nend_time = 0.2\nintegrator = \"rk4\"\nstep = 1e-4\n"
                                    "output_interval = 0.01\ngravity = [0, 0, 0]\n" + gain_line +
                                    "[[body]]\nname = \"bob\"\nmass = 1.0\ninertia = [1e-3, 2e-3, 3e-3]\n"
                                    "position = [0.1, 0.0, 0.0]\n"
                                    "[[joint]]\nname = \"pivot\"\ntype = \"spherical\"\nbody_i = \"ground\"\n"
                                    "body_j = \"bob\"\npoint = [0.0, 0.0, 0.0]\n");
  std::vector<double> y = s.initial_state;
  y[1] += 1e-3;  // the bob 1 mm off its joint along y, at rest
  const std::unique_ptr<Simulation> sim = make_simulation(s);
  Violations v;
  sim->run(y, s.run, v);
  REQUIRE(v.time.size() > 10);
  REQUIRE(v.value.front() == doctest::Approx(1e-3).epsilon(1e-12));
  double worst = 0;
  for (std::size_t k = 0; k < v.time.size(); ++k) {
    const double expected = v.value.front() * (1 + beta * v.time[k]) * std::exp(-beta * v.time[k]);
    worst = std::max(worst, std::abs(v.value[k] - expected) / v.value.front());
  }
  MESSAGE("gain " << beta << ": violation " << v.value.back() << " m at " << v.time.back() << " s, worst relative "
                  << worst);
  return worst;
}

}  // namespace

TEST_CASE("stabilisation_gain: a joint started off its place closes as Phi0 (1 + beta t) e^(-beta t), beta the gain") {
  CHECK(worst_against_closed_form("", 20) < 1e-8);
  CHECK(worst_against_closed_form("stabilisation_gain = 45\n", 45) < 1e-8);
}
