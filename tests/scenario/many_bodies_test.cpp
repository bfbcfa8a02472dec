// A hundred balls (analytic spheres, radius 5 mm) poured into a bowl (the inner face of a surface
// set converted from the sample's part), two [[contact]] groups named by glob patterns, Hertz
// contact: the broad phase passes only close pairs, energy stays constant, no pair is deeper than
// the pile's energy allows, and every ball stays inside the bowl.
#include <Message.hxx>
#include <Message_Messenger.hxx>
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <numbers>

#include "../support/temp_dir.hpp"
#include "contact_parts.hpp"
#include "surfdb/libsurfdb/surface_set_writer.hpp"
#include "surfdb/multibody/multibody_state.hpp"
#include "surfdb/scenario/scenario.hpp"

using namespace surfdb;
using surfdb::test::TempDir;

namespace {

[[maybe_unused]] const bool quiet = (Message::DefaultMessenger()->ChangePrinters().Clear(), true);

constexpr int kBalls = 100;
constexpr double r = 0.005, mass = 7850 * 4.0 / 3 * std::numbers::pi * r * r * r, g = 9.81;
constexpr double E_star = 2.07e11 / (2 * (1 - 0.3 * 0.3));
// Hertz K = 4/3 E* sqrt(R_eff): ball on ball R_eff = r / 2; ball in the bowl 1 / (1/r - 1/R_bowl).
const double K_balls = 4.0 / 3 * E_star * std::sqrt(r / 2);
const double K_bowl = 4.0 / 3 * E_star * std::sqrt(1 / (1 / r - 1 / (samples::kBowlRadius * 1e-3)));

// Five by five by four balls 11 mm apart, nudged off the lattice so the pile is not symmetric.
std::filesystem::path write_scenario(const TempDir& dir, const std::filesystem::path& bowl, double end_time,
                                     int balls = kBalls, const char* integrator = "adams") {
  const std::filesystem::path path = dir / "bowl.toml";
  std::ofstream f(path);
  f.precision(17);
  f << "[simulation]\nend_time = " << end_time << "\nmax_step = 1e-4\nrelative_tolerance = 1e-10\n"
    << "integrator = \"" << integrator << "\"\n"
    << "[[surface]]\nname = \"bowl\"\nbody = \"ground\"\ntable = \"" << bowl.string() << "\"\nfaces = [4]\n";
  for (int k = 0; k < balls; ++k) {
    const double x = 0.011 * (k % 5 - 2) + 3e-4 * std::sin(k), y = 0.011 * (k / 5 % 5 - 2) + 3e-4 * std::cos(k);
    const double z = -0.040 + 0.0104 * (k / 25);
    f << "[[body]]\nname = \"ball" << k << "\"\nmass = " << mass << "\ninertia = [" << 0.4 * mass * r * r << ", "
      << 0.4 * mass * r * r << ", " << 0.4 * mass * r * r << "]\nposition = [" << x << ", " << y << ", " << z << "]\n"
      << "[[surface]]\nname = \"ball" << k << "\"\nbody = \"ball" << k << "\"\nsphere_radius = " << r << "\n";
  }
  f << "[[contact]]\nname = \"balls\"\nsurface_i = \"ball*\"\nsurface_j = \"ball*\"\nstiffness = " << K_balls << "\n"
    << "[[contact]]\nname = \"bowl\"\nsurface_i = \"ball*\"\nsurface_j = \"bowl\"\nstiffness = " << K_bowl << "\n";
  return path;
}

class Watch : public RunObserver {
 public:
  void accepted(const Simulation& sim, double, const double*) override {
    most_candidates = std::max(most_candidates, sim.broad_phase_pairs());
  }
  std::size_t most_candidates = 0;
};

// The bowl's surface set (the sample's part, 1 mm spacing) in dir.
std::filesystem::path write_bowl(const TempDir& dir) {
  const std::filesystem::path step = dir / "bowl.step", set = dir / "bowl.sdbs";
  samples::write_step(samples::bowl(), step);
  const CadModel model = CadModel::load(step);
  SurfaceSetOptions o;
  o.spacing = 1.0;
  o.table.threads = 1;
  write_surface_set(model, plan_surface_set(model, o), o, set);
  return set;
}

// `balls` of the lattice poured into the bowl (its tables in dir) for `end_time` seconds by `integrator`.
struct Pour {
  std::unique_ptr<Simulation> sim;
  std::vector<double> y;
  RunStatistics run;
  std::size_t most_candidates = 0;  // the broad phase's most pairs at an accepted step
  double available = 0;  // J: the most potential energy the balls could give up (all at the bottom)
};

Pour pour(const TempDir& dir, int balls, double end_time, const char* integrator) {
  Scenario s = load_scenario(write_scenario(dir, write_bowl(dir), end_time, balls, integrator));
  Pour p{make_simulation(s), s.initial_state, {}};
  for (int k = 0; k < balls; ++k)
    p.available += mass * g * (body_view(p.y.data(), k).r().z() - (-samples::kBowlRadius * 1e-3 + r));
  Watch watch;
  p.run = p.sim->run(p.y, s.run, watch);
  p.most_candidates = watch.most_candidates;
  return p;
}

// What every pour keeps: the run to its end with no solver failure, the bottom layer in the bowl,
// Hertz's energy constant (nothing dissipated), every ball inside the bowl (its centre within
// R_bowl - r, less an indentation, of the bowl's centre, below the rim).
void check_pour(const Pour& p, int balls, double end_time) {
  const GroupStatistics& pairs = p.sim->contacts()[0].statistics();
  const GroupStatistics& bowl = p.sim->contacts()[1].statistics();
  CHECK(p.run.end_time == end_time);
  CHECK(pairs.solver_failures == 0);
  CHECK(bowl.solver_failures == 0);
  CHECK(bowl.pairs_touched >= 9);
  CHECK(p.sim->dissipated_energy(p.y.data()) == 0);
  CHECK(std::abs(p.sim->mechanical_energy(p.y.data()) - p.run.initial_energy) < 1e-6 * std::abs(p.run.initial_energy));
  for (int k = 0; k < balls; ++k) {
    const BodyStateView b = body_view(p.y.data(), k);
    CHECK(b.r().norm() < samples::kBowlRadius * 1e-3 - r + 1e-5);
    CHECK(b.r().z() < 0);
  }
  MESSAGE("steps " << p.run.steps << ", rhs " << p.run.rhs_evaluations << ", failures " << p.run.failures << ", cpu "
                   << p.run.cpu_seconds << " s, candidates " << p.most_candidates << ", pairs touched "
                   << pairs.pairs_touched << " + " << bowl.pairs_touched);
}

}  // namespace

TEST_CASE("a hundred balls poured into a bowl: close pairs only, within Hertz, energy conserved, all inside") {
  const TempDir dir;
  const Pour p = pour(dir, kBalls, 0.06, "adams");
  check_pour(p, kBalls, 0.06);
  const GroupStatistics& balls = p.sim->contacts()[0].statistics();
  const GroupStatistics& bowl = p.sim->contacts()[1].statistics();
  CHECK(balls.pairs_touched > kBalls);  // the pile formed
  // The broad phase passed a small part of the N (N - 1) / 2 ball pairs plus N ball-bowl pairs.
  CHECK(p.most_candidates < kBalls * (kBalls - 1) / 2 / 4);
  // No pair deeper than if one contact had taken all the energy the pile could release,
  // K delta^2.5 / 2.5 = available.
  CHECK(balls.max_indentation < std::pow(2.5 * p.available / K_balls, 0.4));
  CHECK(bowl.max_indentation < std::pow(2.5 * p.available / K_bowl, 0.4));
  CHECK(balls.max_indentation > 0);
}

TEST_CASE("twenty-five balls poured into a bowl under BDF: its sparse Newton matrix keeps Hertz's energy") {
  // 325 states: BDF's Newton matrix is sparse (newton_lu.hpp), its pattern following the pairs in
  // play. catches: an entry of I - gamma J in the wrong place or a stale pattern (Newton then
  // fails to converge: integrator failures, or a wrong step that breaks the energy).
  const TempDir dir;
  const Pour p = pour(dir, 25, 0.05, "bdf");
  check_pour(p, 25, 0.05);
  CHECK(p.sim->contacts()[0].statistics().pairs_touched > 0);  // the balls met at the bowl's bottom
}
