// The bowl of balls side by side with MuJoCo: samples/parts_in_contact/bowl_of_balls.toml (a
// hundred steel balls, r 5 mm, poured into the bowl's table, Hertz contact without damping) run by
// surfdb, and the same balls at the same places in MuJoCo (Debian's libmujoco-dev): the bowl a
// height field of its inner sphere, each contact a linear spring whose static indentation under
// one ball's weight is Hertz's (MuJoCo's direct stiffness k = g / delta, per unit mass), no
// damping. For each engine: steps, CPU seconds for the simulated time and per simulated second,
// the energy's drift, the deepest a ball went into the bowl and into another ball (against
// Hertz's indentation under one ball's weight), and whether every ball stayed in the bowl.
//
// Usage: bench_bowl [SCENARIO] [REPORT]   (SCENARIO defaults to the sample; run its prepare.sh first)
#include <mujoco/mujoco.h>
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "surfdb/multibody/data.hpp"
#include "surfdb/multibody/multibody_state.hpp"
#include "surfdb/scenario/scenario.hpp"

namespace {

using surfdb::Model;

constexpr double kBowlRadius = 0.060, kBallRadius = 0.005, kG = 9.81;  // m, m, m/s^2
constexpr double kDensity = 7850, kYoung = 2.07e11, kPoisson = 0.3;     // steel
constexpr double kMujocoStep = 1e-5;                                    // s

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec) + 1e-6 * static_cast<double>(u.ru_utime.tv_usec);
}

// Hertz's indentation under one ball's weight: K delta^1.5 = m g, K = 4/3 E* sqrt(R_eff).
double hertz_indentation(double effective_radius) {
  const double mass = kDensity * 4.0 / 3.0 * M_PI * std::pow(kBallRadius, 3);
  const double e_star = kYoung / (2 * (1 - kPoisson * kPoisson));
  return std::pow(mass * kG / (4.0 / 3.0 * e_star * std::sqrt(effective_radius)), 2.0 / 3.0);
}
const double kBowlDelta = hertz_indentation(1 / (1 / kBallRadius - 1 / kBowlRadius));
const double kBallDelta = hertz_indentation(kBallRadius / 2);

struct Result {
  const char* engine;
  long steps = 0;
  double cpu = 0;             // s
  double drift = 0;           // |E_end - E_0| / |E_0|, E mechanical (+ dissipated for surfdb)
  double bowl_depth = 0;      // m, the deepest any ball went into the bowl
  double ball_depth = 0;      // m, the deepest any two balls went into each other
  int outside = 0;            // balls whose centre left the bowl's sphere
};

// Depths of the balls at centres `c` (m, the bowl's sphere centred at the origin).
void depths(const std::vector<Eigen::Vector3d>& c, Result& r) {
  for (std::size_t i = 0; i < c.size(); ++i) {
    r.bowl_depth = std::max(r.bowl_depth, c[i].norm() - (kBowlRadius - kBallRadius));
    for (std::size_t j = i + 1; j < c.size(); ++j) r.ball_depth = std::max(r.ball_depth, 2 * kBallRadius - (c[i] - c[j]).norm());
  }
}

Result run_surfdb(const std::shared_ptr<const Model>& model, double end) {
  Result r{"surfdb (tables, Hertz, CVODE Adams)"};
  surfdb::Data data(model);
  const double e0 = data.mechanical_energy();
  const double start = cpu_seconds();
  std::vector<Eigen::Vector3d> centres(model->multibody.bodies.size());
  while (data.time() < end) {
    if (!surfdb::advance(*model, data, std::min(end, data.time() + 1e-4))) break;
    for (std::size_t b = 0; b < centres.size(); ++b) centres[b] = surfdb::body_view(data.state().data(), static_cast<int>(b)).r();
    depths(centres, r);
  }
  r.cpu = cpu_seconds() - start;
  r.steps = data.statistics().steps;
  r.drift = std::abs(data.mechanical_energy() + data.dissipated_energy() - e0) / std::abs(e0);
  for (const Eigen::Vector3d& c : centres) r.outside += c.norm() > kBowlRadius;
  return r;
}

// The scene as MJCF: the bowl's inner sphere as a height field (filled after loading), the balls
// as free spheres at the scenario's initial positions.
std::string mjcf(const std::vector<Eigen::Vector3d>& balls, double ball_k, double bowl_k) {
  const double mass = kDensity * 4.0 / 3.0 * M_PI * std::pow(kBallRadius, 3);
  std::string x = "<mujoco><option timestep=\"" + std::to_string(kMujocoStep) +
                  "\" gravity=\"0 0 -9.81\" integrator=\"Euler\"/>"
                  "<asset><hfield name=\"bowl\" nrow=\"101\" ncol=\"101\" size=\"0.06 0.06 0.06 0.005\"/></asset>"
                  "<worldbody>";
  // Mixed solref: the average of the two geoms' (solmix 1): ball-ball k, ball-bowl bowl_k.
  x += "<geom type=\"hfield\" hfield=\"bowl\" pos=\"0 0 -0.06\" solref=\"" + std::to_string(-(2 * bowl_k - ball_k)) +
       " 0\" solimp=\"0.9999 0.9999 0.0001 0.5 2\" condim=\"1\"/>";
  char line[512];
  for (std::size_t k = 0; k < balls.size(); ++k) {
    std::snprintf(line, sizeof(line),
                  "<body pos=\"%.9g %.9g %.9g\"><freejoint/><geom type=\"sphere\" size=\"%g\" mass=\"%.9g\" "
                  "solref=\"%.9g 0\" solimp=\"0.9999 0.9999 0.0001 0.5 2\" condim=\"1\"/></body>",
                  balls[k].x(), balls[k].y(), balls[k].z(), kBallRadius, mass, -ball_k);
    x += line;
  }
  return x + "</worldbody></mujoco>";
}

Result run_mujoco(const std::vector<Eigen::Vector3d>& balls, double end) {
  Result r{"MuJoCo 2.2 (height field, linear springs, Euler 10 us)"};
  const std::string xml = mjcf(balls, kG / kBallDelta, kG / kBowlDelta);
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  if (mj_makeEmptyFileVFS(&vfs, "bowl.xml", static_cast<int>(xml.size())) != 0) throw std::runtime_error("MuJoCo VFS");
  std::memcpy(vfs.filedata[vfs.nfile - 1], xml.data(), xml.size());
  char error[1000] = "";
  mjModel* m = mj_loadXML("bowl.xml", &vfs, error, sizeof(error));
  mj_deleteVFS(&vfs);
  if (!m) throw std::runtime_error(std::string("MuJoCo: ") + error);
  // Elevation above the field's base (0.06 m below the sphere's centre), in [0, 1] of 0.06 m.
  const int n = m->hfield_nrow[0];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double x = 0.06 * (2.0 * j / (n - 1) - 1), y = 0.06 * (2.0 * i / (n - 1) - 1), rr = x * x + y * y;
      const double z = rr < kBowlRadius * kBowlRadius ? -std::sqrt(kBowlRadius * kBowlRadius - rr) : 0.0;
      m->hfield_data[i * n + j] = static_cast<float>((z + 0.06) / 0.06);
    }
  mjData* d = mj_makeData(m);
  mj_forward(m, d);
  // Kinetic plus gravity's energy (the contact springs', at most m g delta a ball, left out).
  const auto energy = [&] {
    mj_energyVel(m, d);
    double e = d->energy[1];
    for (int b = 1; b < m->nbody; ++b) e += m->body_mass[b] * kG * d->xpos[3 * b + 2];
    return e;
  };
  const double e0 = energy();
  const double start = cpu_seconds();
  std::vector<Eigen::Vector3d> centres(balls.size());
  while (d->time < end - 0.5 * kMujocoStep) {
    mj_step(m, d);
    ++r.steps;
    for (std::size_t b = 0; b < centres.size(); ++b) centres[b] = Eigen::Vector3d(d->xpos + 3 * (b + 1));
    if (r.steps % 10 == 0) depths(centres, r);
  }
  r.cpu = cpu_seconds() - start;
  r.drift = std::abs(energy() - e0) / std::abs(e0);
  for (const Eigen::Vector3d& c : centres) r.outside += c.norm() > kBowlRadius;
  mj_deleteData(d);
  mj_deleteModel(m);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string scenario = argc > 1 ? argv[1] : "samples/parts_in_contact/bowl_of_balls.toml";
    const std::shared_ptr<const Model> model = surfdb::load_model(scenario);
    const double end = model->run.end_time;
    std::vector<Eigen::Vector3d> balls;
    for (std::size_t b = 0; b < model->multibody.bodies.size(); ++b)
      balls.emplace_back(surfdb::body_view(model->initial_state.data(), static_cast<int>(b)).r());
    const Result results[] = {run_surfdb(model, end), run_mujoco(balls, end)};
    std::string report;
    char line[512];
    std::snprintf(line, sizeof(line),
                  "%zu balls poured into the bowl for %g s; Hertz under one ball's weight: %.3g m into the bowl, "
                  "%.3g m between balls\n\n| engine | steps | CPU s | CPU s per simulated s | energy drift | deepest "
                  "into the bowl | deepest between balls | balls out |\n|---|---|---|---|---|---|---|---|\n",
                  balls.size(), end, kBowlDelta, kBallDelta);
    report += line;
    for (const Result& r : results) {
      std::snprintf(line, sizeof(line), "| %s | %ld | %.2f | %.1f | %.1e | %.3g m (%.0f x) | %.3g m (%.0f x) | %d |\n",
                    r.engine, r.steps, r.cpu, r.cpu / end, r.drift, r.bowl_depth, r.bowl_depth / kBowlDelta,
                    r.ball_depth, r.ball_depth / kBallDelta, r.outside);
      report += line;
    }
    std::fputs(report.c_str(), stdout);
    if (argc > 2) std::ofstream(argv[2]) << report;
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_bowl: %s\n", e.what());
    return 1;
  }
}
