// The fixed-step integrators against a closed form: a harmonic oscillator x'' = -w^2 x, whose
// exact solution is x = cos(w t). Both are fourth order: halving the step divides the error by 16.
// Dormand-Prince (ARKODE) on the same oscillator against its tolerances and its order; the
// variable-step integrators' failure counts and error paths.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "surfdb/multibody/integrator_ab4.hpp"
#include "surfdb/multibody/integrator_sundials.hpp"
#include "surfdb/multibody/integrator_rk4.hpp"

using namespace surfdb;

namespace {

struct Oscillator : OdeSystem {
  double w = 3;
  int evaluations = 0;
  int size() const override { return 2; }
  void derivative(double, const double* y, double* ydot) override {
    ++evaluations;
    ydot[0] = y[1];
    ydot[1] = -w * w * y[0];
  }
};

// |x(T) - cos(w T)| and the derivatives spent, integrating to T = 2 s with n steps.
template <class Integrator>
std::pair<double, int> error_at_end(int n) {
  Oscillator s;
  Integrator integrator(2);
  double y[2] = {1, 0};
  const double T = 2, h = T / n;
  for (int k = 0; k < n; ++k) integrator.step(s, k * h, h, y);
  return {std::abs(y[0] - std::cos(s.w * T)), s.evaluations};
}

}  // namespace

TEST_CASE("RK4 and fourth-order Adams-Bashforth converge at fourth order on an oscillator") {
  for (int n : {400, 800}) {
    const auto [rk4, rk4_calls] = error_at_end<Rk4>(n);
    const auto [rk4_fine, rk4_fine_calls] = error_at_end<Rk4>(2 * n);
    const auto [ab4, ab4_calls] = error_at_end<AdamsBashforth4>(n);
    const auto [ab4_fine, ab4_fine_calls] = error_at_end<AdamsBashforth4>(2 * n);
    CAPTURE(n);
    CHECK(rk4 / rk4_fine == doctest::Approx(16).epsilon(0.15));
    CHECK(ab4 / ab4_fine == doctest::Approx(16).epsilon(0.15));
    CHECK(ab4 < 1e-5);
    CHECK(rk4_calls == 4 * n);
    CHECK(ab4_calls == n + 3 * 3);  // one per step; RK4's three more in each of the three starting steps
    MESSAGE("n " << n << ": RK4 error " << rk4 << ", AB4 error " << ab4);
  }
}

TEST_CASE("Adams-Bashforth starts again after restart()") {
  Oscillator s;
  AdamsBashforth4 ab4(2);
  double y[2] = {1, 0};
  for (int k = 0; k < 10; ++k) ab4.step(s, k * 0.01, 0.01, y);
  // A jump in the state (an event) makes the history meaningless: restart from the new state.
  y[0] = 0.5;
  y[1] = 0;
  ab4.restart();
  const double t0 = 0.1, h = 0.001;
  for (int k = 0; k < 500; ++k) ab4.step(s, t0 + k * h, h, y);
  CHECK(std::abs(y[0] - 0.5 * std::cos(s.w * 500 * h)) < 1e-9);
}

namespace {

const SundialsMethod kMethods[] = {SundialsMethod::adams, SundialsMethod::bdf, SundialsMethod::dormand_prince};

struct DormandPrinceRun {
  double error;  // |x(T) - cos(w T)|
  long steps, evaluations, failures;
};

// Dormand-Prince on the oscillator to T = 10 s (almost five periods) with relative tolerance rtol
// and no step limit that would make the tolerance moot.
DormandPrinceRun dormand_prince(double rtol) {
  Oscillator s;
  SundialsIntegrator dp(s, {.method = SundialsMethod::dormand_prince, .relative_tolerance = rtol, .absolute_tolerance = rtol * 1e-3, .max_step = 1.0});
  const double y0[2] = {1, 0}, T = 10;
  dp.reset(0, y0);
  double t = 0;
  while (t < T) t = dp.step(T);
  CHECK(t == T);
  CHECK(dp.rhs_evaluations() == s.evaluations);
  return {std::abs(dp.state()[0] - std::cos(s.w * T)), dp.steps(), dp.rhs_evaluations(), dp.failures()};
}

}  // namespace

TEST_CASE("Dormand-Prince meets its tolerance on an oscillator and takes steps of a fifth-order method") {
  // The error controller keeps the global error near the tolerance; a pair with a 4th-order error
  // estimate takes steps h ~ tol^(1/5), so 100x tighter needs 100^(1/5) = 2.5x the steps (a 4(3)
  // pair 3.2x, a 6(5) pair 2.2x, a first-order pair 10x); a wrong table misses the error bounds.
  const DormandPrinceRun loose = dormand_prince(1e-6), tight = dormand_prince(1e-8);
  MESSAGE("rtol 1e-6: error " << loose.error << ", " << loose.steps << " steps, " << loose.evaluations
                              << " evaluations, " << loose.failures << " failures; rtol 1e-8: error " << tight.error
                              << ", " << tight.steps << " steps, " << tight.evaluations << " evaluations");
  CHECK(loose.error < 1e-6);
  CHECK(tight.error < 1e-8);
  CHECK(tight.error < loose.error / 20);
  const double step_ratio = static_cast<double>(tight.steps) / static_cast<double>(loose.steps);
  CHECK(step_ratio > 2.3);
  CHECK(step_ratio < 2.9);
}

TEST_CASE("a variable-step integrator counts the steps a jump in the right-hand side fails") {
  for (const SundialsMethod method : kMethods) {
    CAPTURE(static_cast<int>(method));
    // x' = 0, then 1 from t = 1 s on: the step across the jump cannot pass the error test. Exact: x = t - 1.
    struct Jump : OdeSystem {
      int size() const override { return 1; }
      void derivative(double t, const double*, double* ydot) override { ydot[0] = t < 1 ? 0 : 1; }
    } system;
    SundialsIntegrator integrator(system, SundialsOptions{.method = method, .max_step = 1.0});
    const double y0[1] = {0};
    integrator.reset(0, y0);
    double t = 0;
    while (t < 2) t = integrator.step(2);
    CHECK(integrator.failures() > 0);
    CHECK(integrator.state()[0] == doctest::Approx(1).epsilon(1e-6));
  }
}

TEST_CASE("an exception in a right-hand side reaches the caller of CVODE or ARKODE, not through their C frames") {
  for (const SundialsMethod method : kMethods) {
    CAPTURE(static_cast<int>(method));
    // Catches an exception let loose inside the library's callback (undefined behaviour through C
    // frames; typically std::terminate or a skipped cleanup) and a failure code that loses the message.
    struct Failing : Oscillator {
      void derivative(double t, const double* y, double* ydot) override {
        if (t > 0.5) throw std::runtime_error("surface table damaged at t > 0.5");
        Oscillator::derivative(t, y, ydot);
      }
    } system;
    SundialsIntegrator integrator(system, SundialsOptions{.method = method});
    const double y0[2] = {1, 0};
    integrator.reset(0, y0);
    double t = 0;
    const auto run = [&] {
      while (t < 2) t = integrator.step(2);
    };
    CHECK_THROWS_WITH_AS(run(), "surface table damaged at t > 0.5", std::runtime_error);
    CHECK(t <= 0.5 + SundialsOptions{}.max_step);
  }
}

TEST_CASE("a variable-step integrator takes the same steps whatever the end time, until the end") {
  for (const SundialsMethod method : kMethods) {
    CAPTURE(static_cast<int>(method));
    // CVODE and ARKODE size the first step from the time they are asked for: asked for the end time,
    // runs of one system to 1 s and to 3 s differed from their first step on (and scenes with
    // contact took 15,000 or 159,000 steps by their end time alone).
    const auto step_times = [method](double end) {
      Oscillator system;
      SundialsIntegrator integrator(system, SundialsOptions{.method = method, .max_step = 0.05});
      const double y0[2] = {1, 0};
      integrator.reset(0, y0);
      std::vector<double> times;
      double t = 0;
      while (t < end) times.push_back(t = integrator.step(end));
      return times;
    };
    const std::vector<double> short_run = step_times(1), long_run = step_times(3);
    REQUIRE(short_run.size() > 10);
    REQUIRE(long_run.size() > short_run.size());
    CHECK(short_run.back() == 1.0);
    for (std::size_t k = 0; k + 1 < short_run.size(); ++k) CHECK(short_run[k] == long_run[k]);  // the last stops at 1 s
    CHECK(long_run[short_run.size() - 1] >= 1.0);
  }
}
