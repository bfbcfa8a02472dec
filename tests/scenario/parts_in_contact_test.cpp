// A ball on multi-face parts (tools/samples/contact_parts.hpp), each part a surface set converted
// here, simulated from scenario files, against closed forms: two contact points in a V-groove
// carrying m g / sqrt(2) each; a ball sliding over the seam of two coplanar faces and over a
// cylindrical fillet keeps exactly one contact point whose force never drops out nor doubles.
#include <Message.hxx>
#include <Message_Messenger.hxx>
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <numbers>

#include "../support/ball_and_cup.hpp"
#include "../support/temp_dir.hpp"
#include "contact_parts.hpp"
#include "surfdb/libsurfdb/surface_set_writer.hpp"
#include "surfdb/multibody/multibody_state.hpp"
#include "surfdb/scenario/scenario.hpp"

using namespace surfdb;
using namespace surfdb::test;

namespace {

// OpenCASCADE's STEP writer reports each transfer on standard output.
[[maybe_unused]] const bool quiet = (Message::DefaultMessenger()->ChangePrinters().Clear(), true);

// A steel ball of radius 10 mm on steel: Hertz K = 4/3 E* sqrt(R), E* = E / (2 (1 - nu^2)).
constexpr double R = BallAndCup::ball_radius, mass = 7850 * 4.0 / 3 * std::numbers::pi * R * R * R;
constexpr double K = 4.0 / 3 * 2.07e11 / (2 * (1 - 0.3 * 0.3)) * 0.1, g = 9.81;
// Static Hertz indentation under a normal force N.
double static_indentation(double N) { return std::pow(N / K, 2.0 / 3); }

// Every face of `part` as a surface set with nodes about 1 mm apart.
std::filesystem::path convert_part(const TempDir& dir, const TopoDS_Shape& part, const std::string& name) {
  const std::filesystem::path step = dir / (name + ".step"), set = dir / (name + ".sdbs");
  samples::write_step(part, step);
  const CadModel model = CadModel::load(step);
  SurfaceSetOptions o;
  o.spacing = 1.0;
  o.table.threads = 1;
  write_surface_set(model, plan_surface_set(model, o), o, set);
  return set;
}

// The ball (the shared 999 x 999 table, poles along body x) on the ground part, dropped from a
// gap of 10 um at height z0 with horizontal velocity vx, Hunt-Crossley contact (c_r 0.5): the
// drop latches an impact velocity, whose damping settles the ball in a few milliseconds.
std::filesystem::path write_scenario(const TempDir& dir, const std::filesystem::path& set, double x0, double z0,
                                     double vx, double end_time, const char* integrator = "bdf") {
  const std::filesystem::path path = dir / "scene.toml";
  std::ofstream f(path);
  f.precision(17);
  f << "[simulation]\nend_time = " << end_time << "\nmax_step = 1e-4\nintegrator = \"" << integrator << "\"\n"
    << "[[body]]\nname = \"ball\"\nmass = " << mass << "\ninertia = [" << 0.4 * mass * R * R << ", "
    << 0.4 * mass * R * R << ", " << 0.4 * mass * R * R << "]\nposition = [" << x0 << ", 0, " << z0 << "]\n"
    << "velocity = [" << vx << ", 0, 0]\n"
    << "[[surface]]\nname = \"ball\"\nbody = \"ball\"\ntable = \"" << ball_and_cup().ball->path().string() << "\"\n"
    << "rotation = [[0, 0, 1], [0, 1, 0], [-1, 0, 0]]\n"
    << "[[surface]]\nname = \"part\"\nbody = \"ground\"\ntable = \"" << set.string() << "\"\n"
    << "[[contact]]\nname = \"c\"\nsurface_i = \"ball\"\nsurface_j = \"part\"\nlaw = \"hunt_crossley\"\n"
    << "restitution = 0.5\nstiffness = " << K << "\n";
  return path;
}

struct Sample {
  double t;
  Eigen::Vector3d centre;
  std::vector<double> forces;  // N, per contact point
};

class Recorder : public RunObserver {
 public:
  void accepted(const Simulation& sim, double t, const double* y) override {
    const ContactPair& p = *sim.contacts()[0].single();
    Sample s{t, body_view(y, 0).r(), {}};
    for (std::size_t k = 0; k < p.freeform()->size(); ++k)
      if (p.active(k)) s.forces.push_back(p.forces(k).normal);
    samples.push_back(std::move(s));
  }
  std::vector<Sample> samples;
};

std::vector<Sample> simulate(const std::filesystem::path& scenario, RunStatistics* stats = nullptr) {
  Scenario s = load_scenario(scenario);
  const std::unique_ptr<Simulation> sim = make_simulation(s);
  std::vector<double> y = s.initial_state;
  Recorder recorder;
  const RunStatistics run = sim->run(y, s.run, recorder);
  if (stats) *stats = run;
  CHECK(sim->contacts()[0].single()->state().statistics.solver_failures == 0);
  return std::move(recorder.samples);
}

double sum(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

}  // namespace

TEST_CASE("a ball settled in a 90-degree V-groove: two contact points of m g / sqrt(2), centre R sqrt(2) up") {
  TempDir dir;
  const std::filesystem::path set = convert_part(dir, samples::v_groove_block(), "v_groove");
  const double gap = 1e-5;
  // Adams, as the sample sets it: BDF's Jacobian evaluates both table points at every perturbed state.
  const std::vector<Sample> run = simulate(write_scenario(dir, set, 0, std::sqrt(2.0) * (R + gap), 0, 0.1, "adams"));
  const Sample& end = run.back();
  REQUIRE(end.forces.size() == 2);
  const double N = mass * g / std::sqrt(2.0), delta = static_indentation(N);
  for (double f : end.forces) CHECK(f == doctest::Approx(N).epsilon(0.005));
  // Each wall's indentation delta lowers the centre by delta sqrt(2) from R sqrt(2).
  CHECK(std::abs(end.centre.z() - std::sqrt(2.0) * R) <= 2 * std::sqrt(2.0) * delta);
  CHECK(std::abs(end.centre.y()) < 1e-9);
}

TEST_CASE("a ball sliding over the seam of two coplanar faces: one point, m g throughout, height R - delta") {
  TempDir dir;
  const std::filesystem::path set = convert_part(dir, samples::seam_plate(), "seam_plate");
  // From x = -15 mm at 0.15 m/s: over the seam (x = 0) at t = 0.1 s.
  const std::vector<Sample> run = simulate(write_scenario(dir, set, -0.015, R + 1e-5, 0.15, 0.2));
  const double delta = static_indentation(mass * g);
  bool crossed = false;
  for (const Sample& s : run) {
    if (s.t < 0.03) continue;  // the drop's bounces settle first
    INFO("t = " << s.t << " s, x = " << s.centre.x());
    REQUIRE(s.forces.size() == 1);
    CHECK(s.forces[0] == doctest::Approx(mass * g).epsilon(0.01));
    CHECK(std::abs(s.centre.z() - (R - delta)) <= delta);
    crossed |= s.centre.x() > 0.005;
  }
  CHECK(crossed);

  // At rest on the seam itself both faces find the point, on their common edge: it counts once.
  const Sample end = simulate(write_scenario(dir, set, 0, R + 1e-5, 0, 0.05)).back();
  REQUIRE(end.forces.size() == 1);
  CHECK(end.forces[0] == doctest::Approx(mass * g).epsilon(0.01));
}

TEST_CASE("a ball sliding over a cylindrical fillet: one point, its force never drops out nor doubles") {
  TempDir dir;
  const std::filesystem::path set = convert_part(dir, samples::fillet_ramp(), "fillet_ramp");
  const double a = samples::kRampAngleDeg * std::numbers::pi / 180, rho = samples::kFilletRadius * 1e-3;
  const double x_start = -rho * std::tan(a / 2);  // the fillet begins, and the ball's centre turns, here (m)
  const double vx = 0.1;
  RunStatistics stats;
  const std::vector<Sample> run = simulate(write_scenario(dir, set, -0.01, R + 1e-5, vx, 0.25), &stats);
  const Eigen::Vector3d axis(x_start, 0, -rho);  // the fillet's axis (along y)
  const double delta = static_indentation(mass * g);
  bool over_slope = false;
  for (const Sample& s : run) {
    if (s.t < 0.03) continue;
    INFO("t = " << s.t << " s, centre " << s.centre.transpose());
    REQUIRE(s.forces.size() == 1);
    const double force = sum(s.forces);
    CHECK(force > 0.5 * mass * g);
    CHECK(force < 1.1 * mass * g);
    // The centre stays R above the surface, less the indentation (the flat, the fillet, the slope).
    const Eigen::Vector3d from_axis(s.centre.x() - axis.x(), 0, s.centre.z() - axis.z());
    const double angle = std::atan2(from_axis.x(), from_axis.z());  // 0 above the axis, a at the slope
    double height;
    if (angle <= 0) {
      height = s.centre.z();
      if (s.centre.x() < x_start - 0.002) CHECK(force == doctest::Approx(mass * g).epsilon(0.01));
    } else if (angle <= a) {
      height = from_axis.norm() - rho;
    } else {
      const Eigen::Vector3d n(std::sin(a), 0, std::cos(a));  // the slope's normal; it passes (0, 0, 0)
      height = s.centre.dot(n);
      if (s.t > 0.2) {
        over_slope = true;
        CHECK(force == doctest::Approx(mass * g * std::cos(a)).epsilon(0.01));
      }
    }
    CHECK(std::abs(height - (R - delta)) <= 2 * delta);
  }
  CHECK(over_slope);
}

TEST_CASE("a ball held on a two-face plate by a surface_contact joint slides over the seam: one face change") {
  // The plate's top is two faces meeting at x = 0, its underside a third (behind them, facing
  // away): the joint starts on the top face the ball touches, not the underside, and hands the
  // point to the neighbour face at the seam.
  const TempDir dir;
  const std::filesystem::path set = convert_part(dir, samples::seam_plate(), "seam_plate");
  const std::filesystem::path path = dir / "joint.toml";
  std::ofstream(path) << "[simulation]\nend_time = 0.1\nmax_step = 1e-4\n"
                      << "[[body]]\nname = \"ball\"\nmass = 0.03\ninertia = [1.2e-6, 1.2e-6, 1.2e-6]\n"
                      << "position = [-0.005, 0, 0.01]\nvelocity = [0.1, 0, 0]\n"
                      << "[[surface]]\nname = \"ball\"\nbody = \"ball\"\nsphere_radius = 0.01\n"
                      << "[[surface]]\nname = \"plate\"\nbody = \"ground\"\ntable = \"" << set.string() << "\"\n"
                      << "[[joint]]\nname = \"slide\"\ntype = \"surface_contact\"\nsurface_i = \"ball\"\n"
                      << "surface_j = \"plate\"\nsearch_interval = 0.02\n";
  Scenario scenario = load_scenario(path);
  const auto sim = make_simulation(scenario);
  std::vector<double> y = scenario.initial_state;
  RunObserver none;
  sim->run(y, scenario.run, none);
  const SurfaceJointStatistics& s = sim->surface_joints()[0].statistics();
  const Eigen::Vector3d r = body_view(y.data(), 0).r();
  MESSAGE("ball at " << r.transpose() << "; force " << s.min_force << ".." << s.max_force << " N; face changes "
                     << s.face_changes << ", jumps " << s.jumps << ", searches " << s.global_searches);
  CHECK(r.x() == doctest::Approx(0.005).epsilon(1e-6));  // slid 0.1 m/s for 0.1 s, over the seam
  CHECK(std::abs(r.z() - 0.01) < 1e-9);
  CHECK(s.face_changes == 1);
  CHECK(s.jumps == 0);
  CHECK(s.solver_failures == 0);
  CHECK(s.min_force == doctest::Approx(0.03 * 9.81).epsilon(1e-6));  // its weight, throughout
  CHECK(s.max_force == doctest::Approx(0.03 * 9.81).epsilon(1e-6));
}
