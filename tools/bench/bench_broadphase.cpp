// Many bodies: the right-hand side (contacts included) of N balls (analytic spheres, r 5 mm) packed
// in a bowl (an analytic spherical cavity), N = 10, 100, 1,000 and 4,000, with two glob contact
// groups (ball*-ball*, ball*-bowl) as in a scenario. Reports the time per evaluation and per ball,
// the broad phase (the box grid) alone over the same boxes, a brute-force test of all N (N - 1) / 2 box pairs
// over the same boxes for comparison, and how many candidate pairs the broad phase passed.
// Usage: bench_broadphase [RESULTS_FILE]   (default bench_broadphase.txt)
#include <Eigen/Geometry>
#include <chrono>
#include <cmath>
#include <numbers>
#include <vector>

#include "bench_support.hpp"
#include "surfdb/multibody/multibody_state.hpp"
#include "surfdb/multibody/simulation.hpp"

using namespace surfdb;

namespace {

constexpr double r = 0.005, mass = 7850 * 4.0 / 3 * std::numbers::pi * r * r * r;
constexpr double K = 7.6e9;  // Hertz, steel on steel, R_eff 2.5 mm

struct Scene {
  MultibodyModel model;
  std::vector<ContactSurface> surfaces;
  std::vector<ContactGroupSpec> contacts;
  std::vector<double> y;
};

// N balls on a cubic lattice 2r (1 - 1e-6) apart (each touching its neighbours), the lowest N
// lattice points inside a hemispherical cavity just large enough.
Scene pile(int n) {
  Scene s;
  const double spacing = 2 * r * (1 - 1e-6);
  const double R = 2 * r * std::cbrt(3.0 * n / (2 * std::numbers::pi)) * 1.3 + 2 * r;
  std::vector<Eigen::Vector3d> points;
  const int m = static_cast<int>(R / spacing) + 1;
  for (int k = 0; k <= 2 * m; ++k)
    for (int i = -m; i <= m; ++i)
      for (int j = -m; j <= m; ++j) {
        const Eigen::Vector3d p(i * spacing, j * spacing, -R + r + k * spacing);
        if (p.norm() <= R - r && p.z() < 0) points.push_back(p);
      }
  std::stable_sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.z() < b.z(); });
  points.resize(static_cast<std::size_t>(n));
  ContactSurface bowl;
  bowl.name = "bowl";
  bowl.kind = ContactSurface::Kind::cavity;
  bowl.radius = R;
  s.surfaces.push_back(bowl);
  s.y.resize(static_cast<std::size_t>(kBodyStateSize * n));
  for (int b = 0; b < n; ++b) {
    const std::string name = "ball" + std::to_string(b);
    s.model.bodies.push_back({name, mass, Eigen::Matrix3d::Identity() * 0.4 * mass * r * r});
    set_body_state(s.y.data(), b, points[static_cast<std::size_t>(b)], Eigen::Quaterniond::Identity(),
                   Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
    ContactSurface ball;
    ball.name = name;
    ball.body = b;
    ball.kind = ContactSurface::Kind::sphere;
    ball.radius = r;
    s.surfaces.push_back(ball);
  }
  ContactGroupSpec balls{.name = "balls", .surfaces_i = {}, .surfaces_j = {}, .law = HuntCrossley{K, 1.5, 0.5}};
  ContactGroupSpec in_bowl{.name = "bowl", .surfaces_i = {}, .surfaces_j = {0}, .law = HuntCrossley{K, 1.5, 0.5}};
  for (int b = 1; b <= n; ++b) balls.surfaces_i.push_back(b), balls.surfaces_j.push_back(b), in_bowl.surfaces_i.push_back(b);
  s.contacts = {balls, in_bowl};
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  bench::Report report(argc > 1 ? argv[1] : "bench_broadphase.txt");
  report.line("# bench_broadphase: N balls (r 5 mm) packed in a bowl, two glob contact groups; one evaluation = the "
              "right-hand side with contacts");
  report.line("%6s %10s %11s %8s %9s %10s %10s %10s %8s", "N", "rhs_us", "us_per_ball", "grid_us", "brute_us",
              "grid_tests", "candidates", "N^2/2", "points");
  for (const int n : {10, 100, 1000, 4000}) {
    Scene scene = pile(n);
    std::vector<double> y = scene.y;
    Simulation sim(std::move(scene.model), std::move(scene.surfaces), std::move(scene.contacts));
    y.resize(static_cast<std::size_t>(sim.size()), 0.0);
    std::vector<double> ydot(y.size());
    sim.derivative(0, y.data(), ydot.data());  // pairs made once
    sim.accept(0, y.data());
    const std::size_t points = sim.contacts()[0].output().points + sim.contacts()[1].output().points;
    const int calls = std::max(20, 200000 / n);
    const double rhs = bench::best_seconds([&] {
      for (int c = 0; c < calls; ++c) sim.derivative(0, y.data(), ydot.data());
    }) / calls;
    // The broad phase alone over the balls' boxes, and the brute force over the same boxes.
    std::vector<Aabb> boxes(static_cast<std::size_t>(n));
    for (int b = 0; b < n; ++b) {
      const Eigen::Vector3d c = body_view(y.data(), b).r(), h = Eigen::Vector3d::Constant(r);
      boxes[static_cast<std::size_t>(b)] = {c - h, c + h};
    }
    BoxGrid grid;
    std::size_t overlaps = grid.update(boxes).size();
    const double grid_time = bench::best_seconds([&] {
      for (int c = 0; c < calls; ++c) overlaps = grid.update(boxes).size();
    }) / calls;
    std::size_t brute_overlaps = 0;
    const int brute_calls = std::max(1, calls / 20);
    const double brute = bench::best_seconds([&] {
      for (int c = 0; c < brute_calls; ++c) {
        brute_overlaps = 0;
        for (int a = 0; a < n; ++a)
          for (int b = a + 1; b < n; ++b) {
            const Aabb &p = boxes[static_cast<std::size_t>(a)], &q = boxes[static_cast<std::size_t>(b)];
            brute_overlaps += (p.min.array() <= q.max.array()).all() && (q.min.array() <= p.max.array()).all();
          }
      }
    }) / brute_calls;
    if (brute_overlaps != overlaps) report.line("# MISMATCH: the grid finds %zu pairs, brute force %zu", overlaps, brute_overlaps);
    report.line("%6d %10.1f %11.3f %8.1f %9.1f %10zu %10zu %10zu %8zu", n, 1e6 * rhs, 1e6 * rhs / n, 1e6 * grid_time,
                1e6 * brute, grid.tested(), sim.broad_phase_pairs(), static_cast<std::size_t>(n) * (n - 1) / 2, points);
  }
  return 0;
}
