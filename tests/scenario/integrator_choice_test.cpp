// [simulation] integrator from a scenario file: "dormand_prince" loads and runs a tumbling body in
// free flight against its closed form (the centre on its parabola, the mechanical energy constant);
// an unknown name fails naming the valid ones; without the key the default is BDF.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "../support/temp_dir.hpp"
#include "surfdb/multibody/multibody_state.hpp"
#include "surfdb/scenario/scenario.hpp"

using namespace surfdb;
using surfdb::test::TempDir;

namespace {

constexpr double kEnd = 0.5, g = 9.81;
constexpr double kVx = 1.0, kVz = 2.0;  // m/s, at t = 0 from the origin

// One body, no contacts: thrown from the origin, spinning about no principal axis.
std::filesystem::path write_scenario(const TempDir& dir, const std::string& integrator) {
  const std::filesystem::path path = dir / "flight.toml";
  std::ofstream f(path);
  f << "[simulation]\nend_time = " << kEnd << "\nintegrator = \"" << integrator << "\"\nmax_step = 0.01\n"
    << "[[body]]\nname = \"brick\"\nmass = 2.0\ninertia = [0.01, 0.02, 0.025]\nposition = [0, 0, 0]\n"
    << "velocity = [" << kVx << ", 0, " << kVz << "]\nangular_velocity = [3, 1, 2]\n";
  return path;
}

}  // namespace

TEST_CASE("integrator = \"dormand_prince\" runs a tumbling body in free flight on its closed form") {
  const TempDir dir;
  Scenario s = load_scenario(write_scenario(dir, "dormand_prince"));
  REQUIRE(s.run.integrator == IntegratorKind::dormand_prince);
  const std::unique_ptr<Simulation> sim = make_simulation(s);
  std::vector<double> y = s.initial_state;
  RunObserver silent;
  const RunStatistics run = sim->run(y, s.run, silent);
  MESSAGE(run.steps << " steps, " << run.rhs_evaluations << " evaluations, " << run.failures << " failures");
  CHECK(run.end_time == kEnd);
  CHECK(run.steps >= kEnd / s.run.sundials.max_step);  // the largest step bounds it
  const Eigen::Vector3d r = body_view(y.data(), 0).r();
  CHECK(r.x() == doctest::Approx(kVx * kEnd).epsilon(1e-9));
  CHECK(std::abs(r.y()) < 1e-12);
  CHECK(r.z() == doctest::Approx(kVz * kEnd - 0.5 * g * kEnd * kEnd).epsilon(1e-9));
  const double energy = sim->mechanical_energy(y.data());
  CHECK(std::abs(energy - run.initial_energy) < 1e-8 * std::abs(run.initial_energy));
}

TEST_CASE("an unknown integrator fails naming the valid ones") {
  const TempDir dir;
  CHECK_THROWS_WITH_AS(
      load_scenario(write_scenario(dir, "ode45")),
      doctest::Contains("flight.toml:3: simulation.integrator: must be ab4, rk4, adams, bdf or dormand_prince"),
      ScenarioError);
}

TEST_CASE("without an integrator key a scenario runs CVODE BDF, as docs/scenario.md says, and so does RunSettings") {
  const TempDir dir;
  const std::filesystem::path path = dir / "bare.toml";
  std::ofstream(path) << "[simulation]\nend_time = 0.1\n[[body]]\nname = \"brick\"\nmass = 2.0\n"
                      << "inertia = [0.01, 0.02, 0.025]\nposition = [0, 0, 0]\n";
  CHECK(load_scenario(path).run.integrator == IntegratorKind::bdf);
  CHECK(RunSettings{}.integrator == IntegratorKind::bdf);
}
