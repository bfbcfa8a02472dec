// The surface_contact joint's two formulations of paper 004 side by side: the sliding plane (one
// equation, the contact point solved at every evaluation) and the five equations (the four surface
// parameters as states, surface_joint_parameters.hpp), on the paper's ball sliding without
// friction in its cup, both 999 x 999 lookup tables, for 1 s:
//  - the spherical pendulum released at rest 0.35 rad from the bottom: period error against the
//    closed form (an elliptic integral), between the first two upward crossings of x = 0;
//  - the conical pendulum circling at 0.5 rad from the vertical at sqrt(g / (L cos α)): the
//    largest error of its centre's height, which is constant.
// Each with CVODE Adams (tolerances 1e-10 / 1e-13) and fixed-step RK4 at 1e-4 s: accepted steps,
// right-hand sides, CPU seconds (the process's, in Simulation::run), microseconds per right-hand
// side, the accuracy figure, the largest |Phi| at accepted steps and, for the five equations, the
// largest |c| of the tangential equations (m, rad). The sliding plane runs with its global search
// every 0.1 s (the default) and, marked *, at t = 0 only: the search's cost is per accepted step.
// The ball's table is mounted with its seam (u = 0) away from the contact.
// Usage: bench_surface_joint [RESULTS_FILE]   (default bench_surface_joint.txt)
#include <Eigen/Geometry>
#include <cmath>
#include <numbers>
#include <vector>

#include "bench_support.hpp"
#include "surfdb/libsurfdb/analytic_surfaces.hpp"
#include "surfdb/libsurfdb/converter.hpp"
#include "surfdb/multibody/simulation.hpp"

using namespace surfdb;
using namespace surfdb::bench;

namespace {

constexpr double kMass = 0.011, kG = 9.81, kBall = 0.010, kCavity = 0.050, kLength = kCavity - kBall;

struct Tables {
  std::shared_ptr<const Database> ball, cup;
  // Poles horizontal: the contact stays away from them, and from the ball's seam (u = 0 = 2 pi),
  // where a query on either side reads records at the other end of the table.
  SurfaceMount ball_mount, cup_mount;
};

Tables make_tables() {
  const auto dir = std::filesystem::temp_directory_path() / "surfdb-bench-surface-joint";
  std::filesystem::create_directories(dir);
  AnalyticSpec ball;
  ball.kind = AnalyticKind::sphere;
  ball.radius = 10;
  AnalyticSpec cup = ball;
  cup.radius = 50;
  cup.u_range = std::pair{-std::numbers::pi / 2, std::numbers::pi / 2};
  ConvertOptions o;
  convert_surface(*make_analytic_surface(ball), o, dir / "ball.sdb");
  o.flip_normals = true;
  convert_surface(*make_analytic_surface(cup), o, dir / "cup.sdb");
  Tables t{Database::open(dir / "ball.sdb"), Database::open(dir / "cup.sdb"), {}, {}};
  t.cup_mount.rotation << 0, 0, 1, 0, 1, 0, -1, 0, 0;   // surface x (u = 0) down
  t.ball_mount.rotation << 0, 0, -1, 0, 1, 0, 1, 0, 0;  // surface -x (u = pi) down: the seam u = 0 away
  return t;
}

double elliptic_k(double k) {  // K(k) by the arithmetic-geometric mean
  double a = 1, b = std::sqrt(1 - k * k);
  for (int i = 0; i < 40; ++i) {
    const double m = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = m;
  }
  return std::numbers::pi / (2 * a);
}

std::unique_ptr<Simulation> ball_in_cup(const Tables& tables, SurfaceJointFormulation formulation,
                                        double search_interval) {
  MultibodyModel model;
  model.bodies.push_back({"ball", kMass, 0.4 * kMass * kBall * kBall * Eigen::Matrix3d::Identity()});
  model.gravity = {0, 0, -kG};
  std::vector<ContactSurface> surfaces(2);
  for (int k = 0; k < 2; ++k) {
    surfaces[k].name = k == 0 ? "ball" : "cup";
    surfaces[k].body = k == 0 ? 0 : kGround;
    surfaces[k].tables = TableSet::single(k == 0 ? tables.ball : tables.cup);
    surfaces[k].mount = k == 0 ? tables.ball_mount : tables.cup_mount;
  }
  SurfaceJointSpec joint{.name = "slide", .surface_i = 0, .surface_j = 1, .body_i = 0, .body_j = kGround};
  joint.formulation = formulation;
  joint.search_interval = search_interval;
  model.surface_joints.push_back(joint);
  return std::make_unique<Simulation>(std::move(model), std::move(surfaces), std::vector<ContactGroupSpec>{});
}

// The ball's centre at each accepted step: upward crossings of x = 0 and the height's range.
struct Track : RunObserver {
  std::vector<double> t, x;
  double z_low = INFINITY, z_high = -INFINITY;
  void accepted(const Simulation&, double time, const double* y) override {
    const Eigen::Vector3d r = body_view(y, 0).r();
    t.push_back(time);
    x.push_back(r.x());
    z_low = std::min(z_low, r.z()), z_high = std::max(z_high, r.z());
  }
  double period() const {
    std::vector<double> up;
    for (std::size_t k = 1; k < t.size(); ++k)
      if (x[k - 1] < 0 && x[k] >= 0) up.push_back(t[k - 1] + (t[k] - t[k - 1]) * -x[k - 1] / (x[k] - x[k - 1]));
    return up.size() >= 2 ? up[1] - up[0] : NAN;
  }
};

struct Scene {
  const char* name;
  Eigen::Vector3d position, velocity;
};

// One run of 1 s (end_time), reported unless `report` is null.
void run(Report* report, const Tables& tables, const Scene& scene, SurfaceJointFormulation formulation, bool rk4,
         double search_interval, double end_time = 1.0) {
  const auto sim = ball_in_cup(tables, formulation, search_interval);
  std::vector<double> y(kBodyStateSize);
  set_body_state(y.data(), 0, scene.position, Eigen::Quaterniond::Identity(), scene.velocity, Eigen::Vector3d::Zero());
  sim->check_surface_joints(y.data());
  RunSettings settings{
      .end_time = end_time, .integrator = rk4 ? IntegratorKind::rk4 : IntegratorKind::adams, .step = 1e-4};
  settings.sundials.relative_tolerance = 1e-10;
  settings.sundials.absolute_tolerance = 1e-13;
  settings.output.interval = end_time;
  Track track;
  const RunStatistics s = sim->run(y, settings, track);
  const SurfaceJointStatistics& j = sim->surface_joints()[0].statistics();
  const bool conical = scene.velocity.y() != 0;
  double accuracy;
  if (conical) {
    accuracy = std::max(track.z_high - scene.position.z(), scene.position.z() - track.z_low);
  } else {
    const double theta0 = std::asin(scene.position.x() / kLength);
    const double closed_form = 4 * std::sqrt(kLength / kG) * elliptic_k(std::sin(theta0 / 2));
    accuracy = (track.period() - closed_form) / closed_form;
  }
  if (!report) return;
  const bool five = formulation == SurfaceJointFormulation::five_equations;
  const char* name = five ? "five_equations" : search_interval < end_time ? "sliding_plane" : "sliding_plane*";
  report->line("%-9s %-14s %-5s %4llu %7ld %8ld %7.2f %7.2f %11.2e %9.2e %9.2e %9.2e", scene.name, name,
               rk4 ? "rk4" : "adams", static_cast<unsigned long long>(j.global_searches), s.steps, s.rhs_evaluations,
               s.cpu_seconds, 1e6 * s.cpu_seconds / static_cast<double>(s.rhs_evaluations), accuracy, j.max_gap,
               five ? j.max_tangential_offset : NAN, five ? j.max_normal_error : NAN);
}

}  // namespace

int main(int argc, char** argv) {
  Report report(argc > 1 ? argv[1] : "bench_surface_joint.txt");
  const Tables tables = make_tables();
  const double theta0 = 0.35, alpha = 0.5, omega = std::sqrt(kG / (kLength * std::cos(alpha)));
  const Scene scenes[] = {
      {"pendulum", {kLength * std::sin(theta0), 0, -kLength * std::cos(theta0)}, Eigen::Vector3d::Zero()},
      {"conical",
       {kLength * std::sin(alpha), 0, -kLength * std::cos(alpha)},
       {0, omega * kLength * std::sin(alpha), 0}}};
  report.line(
      "ball (R 10 mm) sliding in the cup (R 50 mm), 999 x 999 tables, 1 s; adams: CVODE 1e-10 / 1e-13, rk4: 1e-4 s");
  report.line(
      "accuracy: pendulum, relative period error against the elliptic integral; conical, largest height error (m)");
  report.line(
      "sliding_plane: the global search every 0.1 s (the default search_interval); sliding_plane*: at t = 0 only");
  report.line("%-9s %-14s %-5s %4s %7s %8s %7s %7s %11s %9s %9s %9s", "scene", "formulation", "integ", "srch", "steps",
              "rhs", "cpu_s", "us/rhs", "accuracy", "max|Phi|", "max|c|_m", "max|c|_rad");
  using F = SurfaceJointFormulation;
  for (const Scene& scene : scenes) {
    const double search = SurfaceJointSpec{}.search_interval;
    run(nullptr, tables, scene, F::sliding_plane, false, search, 0.05);  // the tables' pages read once: warm
    for (bool rk4 : {false, true}) {
      run(&report, tables, scene, F::sliding_plane, rk4, search);
      run(&report, tables, scene, F::sliding_plane, rk4, 1e9);
      run(&report, tables, scene, F::five_equations, rk4, search);
    }
  }
  return 0;
}
