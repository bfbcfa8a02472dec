// The polygonal contact model (Hippmann 2003, paper 002) per evaluation, the trees against brute
// force on the same poses, and Simbody's elastic foundation (CompliantContactSubsystem with
// ContactForceGenerator::ElasticFoundation) on the same meshes and poses when libsimbody-dev is
// installed. Three cases: the paper's bouncing bubbles (two UV spheres of 950 triangles, and one
// in a V-trough of 4 triangles) and two icospheres of 20,480 triangles in a contact of a few
// hundred elements. Each case moves the master body along a small closed path (the overlap
// breathing, the direction and the master's rotation swaying) so that the contact walks over the
// triangles; every evaluation is timed on its own and the median reported.
// Usage: bench_polygonal [RESULTS_FILE]   (default bench_polygonal.txt)
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <memory>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Geometry>

#include "bench_support.hpp"
#include "meshes.hpp"  // tests/support: icosphere, MeshArrays
#include "surfdb/contact/polygonal_contact.hpp"

#ifdef SURFDB_BENCH_SIMBODY
#include "simbody_foundation.hpp"
#endif

using namespace surfdb;
using namespace surfdb::bench;

namespace {

constexpr double pi = std::numbers::pi;
constexpr double kC = 2e11;  // N/m^3, the foundation's stiffness c (as in the tests)
constexpr double kR = 0.05;  // m, every sphere's radius

/// A UV sphere of radius R: n_lat bands of n_lon quads (fans at the poles), 2 n_lon (n_lat - 1) triangles.
test::MeshArrays uv_sphere(double R, int n_lon, int n_lat) {
  test::MeshArrays m;
  m.vertices.emplace_back(0, 0, R);
  for (int i = 1; i < n_lat; ++i)
    for (int j = 0; j < n_lon; ++j) {
      const double theta = pi * i / n_lat, phi = 2 * pi * j / n_lon;
      m.vertices.emplace_back(R * std::sin(theta) * std::cos(phi), R * std::sin(theta) * std::sin(phi), R * std::cos(theta));
    }
  m.vertices.emplace_back(0, 0, -R);
  const auto south = static_cast<std::uint32_t>(m.vertices.size() - 1);
  const auto ring = [&](int i, int j) { return static_cast<std::uint32_t>(1 + (i - 1) * n_lon + j % n_lon); };
  for (int j = 0; j < n_lon; ++j) {
    m.triangles.push_back({0, ring(1, j), ring(1, j + 1)});
    for (int i = 1; i + 1 < n_lat; ++i) {
      m.triangles.push_back({ring(i, j), ring(i + 1, j), ring(i + 1, j + 1)});
      m.triangles.push_back({ring(i, j), ring(i + 1, j + 1), ring(i, j + 1)});
    }
    m.triangles.push_back({south, ring(n_lat - 1, j + 1), ring(n_lat - 1, j)});
  }
  test::face_outwards(m, Eigen::Vector3d::Zero());
  return m;
}

/// A plane of the trough: a point on it and its unit normal (pointing into the free space above).
struct Plane {
  Eigen::Vector3d point, normal;
};

/// A V-trough of two inclined planes (each a rectangle of two triangles) meeting along the y axis
/// at the origin, each rising at `slope` radians to x = -/+ L cos(slope), y in [-W, W].
test::MeshArrays v_trough(double slope, double L, double W, std::vector<Plane>& planes) {
  test::MeshArrays m;
  const double c = L * std::cos(slope), s = L * std::sin(slope);
  m.vertices = {{0, -W, 0}, {0, W, 0}, {-c, -W, s}, {-c, W, s}, {c, -W, s}, {c, W, s}};
  m.triangles = {{0, 1, 3}, {0, 3, 2}, {0, 4, 5}, {0, 5, 1}};
  for (auto& t : m.triangles) {  // face up (into the trough)
    const Eigen::Vector3d &a = m.vertices[t[0]], &b = m.vertices[t[1]], &d = m.vertices[t[2]];
    if ((b - a).cross(d - a).z() < 0) std::swap(t[1], t[2]);
  }
  planes = {{Eigen::Vector3d::Zero(), Eigen::Vector3d(std::sin(slope), 0, std::cos(slope))},
            {Eigen::Vector3d::Zero(), Eigen::Vector3d(-std::sin(slope), 0, std::cos(slope))}};
  return m;
}

struct Case {
  std::string name;
  test::MeshArrays master, slave;
  std::vector<Plane> slave_planes;  // Simbody: the slave as half-spaces (else its mesh)
  std::vector<BodyState> path;      // the master's body
  BodyState slave_body;
  int brute_poses = 0;              // brute force on this many poses of the path
  int passes = 0;                   // tree evaluations: passes over the path
  std::function<double(const BodyState&)> closed_form;  // |F| of the smooth spheres, N
};

/// Two spheres of radius R overlapping by delta, the springs along the line of centres:
/// u(r) = delta - r^2 / R, F = pi c R delta^2 / 2 (small overlaps).
double spheres_closed_form(const BodyState& b) {
  const double delta = 2 * kR - b.pose.r.norm();
  return pi * kC * kR * delta * delta / 2;
}

/// A sphere of radius R pressed delta into a plane, the springs normal to it:
/// F = pi c (R delta^2 - delta^3 / 3) along the plane's normal, summed over the planes.
double planes_closed_form(const BodyState& b, const std::vector<Plane>& planes) {
  Eigen::Vector3d F = Eigen::Vector3d::Zero();
  for (const Plane& p : planes) {
    const double delta = kR - p.normal.dot(b.pose.r - p.point);
    if (delta > 0) F += pi * kC * (kR * delta * delta - delta * delta * delta / 3) * p.normal;
  }
  return F.norm();
}

/// The master sphere's body along a closed path of `poses` poses at distance `gap(s)` from the
/// slave's origin in direction `axis` (swaying by 0.1 rad), turning by up to 0.2 rad about z.
template <class Gap>
std::vector<BodyState> sway_path(int poses, const Eigen::Vector3d& axis, Gap&& gap) {
  std::vector<BodyState> path(static_cast<std::size_t>(poses));
  const Eigen::Vector3d u = axis.unitOrthogonal(), w = axis.cross(u);
  for (int k = 0; k < poses; ++k) {
    const double s = 2 * pi * k / poses;
    BodyState& b = path[static_cast<std::size_t>(k)];
    const Eigen::Vector3d dir = (axis + 0.1 * std::sin(s) * u + 0.1 * std::cos(s) * w).normalized();
    b.pose.r = gap(s, dir) * dir;
    b.pose.A = Eigen::AngleAxisd(0.2 * std::sin(s), Eigen::Vector3d::UnitZ()).toRotationMatrix();
  }
  return path;
}

struct Spread {
  double median = 0, p10 = 0, p90 = 0;  // ns
};

Spread spread(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const auto at = [&](double q) { return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5)]; };
  return {at(0.5), at(0.1), at(0.9)};
}

double now_ns() {
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Bytes the heap holds (glibc's count of allocated blocks, small and mapped).
std::size_t heap_in_use() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

/// Averages of a search's counts and totals over the poses evaluated.
struct Figures {
  Spread time;
  double pair_box = 0, pair_tri = 0, element_box = 0, element_tri = 0, segments = 0, elements = 0, force = 0;
  int evaluations = 0;
  void add(const PolygonalContactResult& r) {
    pair_box += double(r.pair_search.box_tests);
    pair_tri += double(r.pair_search.triangle_tests);
    element_box += double(r.element_search.box_tests);
    element_tri += double(r.element_search.triangle_tests);
    segments += double(r.segments);
    elements += double(r.elements);
    force += r.force_i.norm();
    ++evaluations;
  }
  void finish() {
    for (double* x : {&pair_box, &pair_tri, &element_box, &element_tri, &segments, &elements, &force}) *x /= evaluations;
  }
  double tests() const { return pair_box + pair_tri + element_box + element_tri; }
};


}  // namespace

int main(int argc, char** argv) {
  Report report(argc > 1 ? argv[1] : "bench_polygonal.txt");
  ElasticFoundation law;
  law.stiffness = kC;
  const Eigen::Matrix3d turned = Eigen::AngleAxisd(0.3, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();

  std::vector<Case> cases;
  {  // Two bubbles of 950 triangles overlapping by 5 % of the radius (+-25 %); the slave turned
     // so that no edges line up.
    Case c;
    c.name = "bubble-bubble, 950 + 950";
    c.master = c.slave = uv_sphere(kR, 25, 20);
    c.slave_body.pose.A = turned;
    c.path = sway_path(64, Eigen::Vector3d::UnitX(), [](double s, const Eigen::Vector3d&) {
      return 2 * kR - 0.05 * kR * (1 + 0.25 * std::sin(s));
    });
    c.closed_form = spheres_closed_form;
    c.brute_poses = 16;
    c.passes = 200;
    cases.push_back(std::move(c));
  }
  {  // A bubble in a V-trough of 4 triangles (planes at 30 degrees), 5 % into each plane.
    Case c;
    c.name = "bubble-trough, 950 + 4";
    c.master = uv_sphere(kR, 25, 20);
    const double slope = pi / 6;
    c.slave = v_trough(slope, 4 * kR, 2 * kR, c.slave_planes);
    c.path = sway_path(64, Eigen::Vector3d::UnitZ(), [&](double s, const Eigen::Vector3d& dir) {
      // The distance along dir that puts the sphere (R - delta) from the nearer plane.
      const double delta = 0.05 * kR * (1 + 0.25 * std::sin(s));
      return (kR - delta) / std::max(dir.dot(Eigen::Vector3d(std::sin(slope), 0, std::cos(slope))),
                                     dir.dot(Eigen::Vector3d(-std::sin(slope), 0, std::cos(slope))));
    });
    c.closed_form = [planes = c.slave_planes](const BodyState& b) { return planes_closed_form(b, planes); };
    c.brute_poses = 16;
    c.passes = 200;
    cases.push_back(std::move(c));
  }
  {  // Two icospheres of 20,480 triangles overlapping by 6 % of the radius: a few hundred elements.
    Case c;
    c.name = "icosphere-icosphere, 20480 + 20480";
    c.master = c.slave = test::icosphere(kR, 5);
    c.slave_body.pose.A = turned;
    c.path = sway_path(32, Eigen::Vector3d::UnitX(), [](double s, const Eigen::Vector3d&) {
      return 2 * kR - 0.06 * kR * (1 + 0.25 * std::sin(s));
    });
    c.closed_form = spheres_closed_form;
    c.brute_poses = 1;
    c.passes = 20;
    cases.push_back(std::move(c));
  }

  double sink = 0;
  struct Row {
    Figures tree, brute;
    double brute_mismatch = 0;  // the largest |F_tree - F_brute| / F_tree on the brute poses
    double closed_form = 0;     // the closed form's |F| averaged over the path, N
    bool simbody = false;
    Spread simbody_time, simbody_bare;
    double simbody_force = 0, simbody_elements = 0, force_ratio_lo = 1e300, force_ratio_hi = 0;
  };
  std::vector<Row> rows(cases.size());
  for (std::size_t n = 0; n < cases.size(); ++n) {
    const Case& c = cases[n];
    Row& row = rows[n];
    PolygonalContact contact(c.master.build(), {}, c.slave.build(), {}, law);
    for (const BodyState& b : c.path) sink += contact.evaluate(b, c.slave_body).normal_force;  // warm-up
    std::vector<double> times;
    for (int pass = 0; pass < c.passes; ++pass)
      for (const BodyState& b : c.path) {
        const double t0 = now_ns();
        const PolygonalContactResult& r = contact.evaluate(b, c.slave_body);
        times.push_back(now_ns() - t0);
        if (pass == 0) {
          row.tree.add(r);
          row.closed_form += c.closed_form(b) / double(c.path.size());
        }
        sink += r.normal_force;
      }
    row.tree.time = spread(times);
    row.tree.finish();
    times.clear();
    const std::size_t stride = c.path.size() / static_cast<std::size_t>(c.brute_poses);
    for (std::size_t k = 0; k < c.path.size(); k += stride) {
      const double f_tree = contact.evaluate(c.path[k], c.slave_body).force_i.norm();
      const double t0 = now_ns();
      const PolygonalContactResult& r = contact.evaluate(c.path[k], c.slave_body, PolygonalContact::Search::brute_force);
      times.push_back(now_ns() - t0);
      row.brute.add(r);
      row.brute_mismatch = std::max(row.brute_mismatch, std::abs(r.force_i.norm() - f_tree) / std::max(f_tree, 1e-300));
    }
    row.brute.time = spread(times);
    row.brute.finish();

#ifdef SURFDB_BENCH_SIMBODY
    row.simbody = true;
    std::vector<SimbodyPlane> planes;
    for (const Plane& p : c.slave_planes) planes.push_back({p.point, p.normal});
    const SimbodyMeshArrays master{&c.master.vertices, &c.master.triangles}, slave{&c.slave.vertices, &c.slave.triangles};
    SimbodyFoundation simbody(master, slave, c.slave_body.pose.A, c.slave_body.pose.r, planes, kC, true),
        bare(master, slave, c.slave_body.pose.A, c.slave_body.pose.r, planes, kC, false);
    for (const BodyState& b : c.path) sink += simbody.evaluate(b.pose.A, b.pose.r).norm() + bare.evaluate(b.pose.A, b.pose.r).norm();  // warm-up
    for (const BodyState& b : c.path) {
      const double ours = contact.evaluate(b, c.slave_body).force_i.norm();
      const double theirs = simbody.evaluate(b.pose.A, b.pose.r).norm();
      row.simbody_force += theirs / double(c.path.size());
      if (ours > 0) {
        row.force_ratio_lo = std::min(row.force_ratio_lo, theirs / ours);
        row.force_ratio_hi = std::max(row.force_ratio_hi, theirs / ours);
      }
      row.simbody_elements += simbody.elements() / double(c.path.size());
    }
    for (auto [scene, spread_of] : {std::pair{&simbody, &row.simbody_time}, std::pair{&bare, &row.simbody_bare}}) {
      times.clear();
      for (int pass = 0; pass < c.passes; ++pass)
        for (const BodyState& b : c.path) {
          const double t0 = now_ns();
          sink += scene->evaluate(b.pose.A, b.pose.r).x();
          times.push_back(now_ns() - t0);
        }
      *spread_of = spread(times);
    }
#endif
  }

  std::string load;
  std::getline(std::ifstream("/proc/loadavg"), load);
  report.line("# bench_polygonal: polygonal contact (Hippmann 2003), c = %.0e N/m^3, spheres of R = %.0f mm; "
              "times per evaluation, median (10th-90th percentile) over the path; counts and forces averaged "
              "(load average %s)",
              kC, kR * 1e3, load.c_str());
  report.line("| case | search | us per evaluation | pair box tests | pair triangle tests | element box tests | "
              "element triangle tests | segments | elements | force N |");
  report.line("|---|---|---|---|---|---|---|---|---|---|");
  const auto us = [](const Spread& s) {
    char b[64];
    std::snprintf(b, sizeof(b), "%.1f (%.1f-%.1f)", s.median * 1e-3, s.p10 * 1e-3, s.p90 * 1e-3);
    return std::string(b);
  };
  for (std::size_t n = 0; n < cases.size(); ++n) {
    const Row& r = rows[n];
    for (auto [search, f] : {std::pair{"tree", &r.tree}, std::pair{"brute force", &r.brute}}) {
      char poses[48];
      std::snprintf(poses, sizeof(poses), "%s, %d poses", search, f->evaluations);
      report.line("| %s | %s | %s | %.0f | %.0f | %.0f | %.0f | %.1f | %.1f | %.2f |", cases[n].name.c_str(), poses,
                  us(f->time).c_str(), f->pair_box, f->pair_tri, f->element_box, f->element_tri, f->segments,
                  f->elements, f->force);
    }
    if (r.simbody)
      report.line("| %s | Simbody EF (realise %.1f us less the bare system's %.1f) | %.1f (%.1f-%.1f) | | | | | | %.1f | %.2f |",
                  cases[n].name.c_str(), r.simbody_time.median * 1e-3, r.simbody_bare.median * 1e-3,
                  (r.simbody_time.median - r.simbody_bare.median) * 1e-3,
                  (r.simbody_time.p10 - r.simbody_bare.median) * 1e-3, (r.simbody_time.p90 - r.simbody_bare.median) * 1e-3,
                  r.simbody_elements, r.simbody_force);
  }
  report.line("");
  for (std::size_t n = 0; n < cases.size(); ++n) {
    const Row& r = rows[n];
    report.line("%-36s tree against brute force: %.1fx fewer tests, %.1fx faster (forces equal within %.1e)",
                cases[n].name.c_str(), r.brute.tests() / r.tree.tests(), r.brute.time.median / r.tree.time.median,
                r.brute_mismatch);
    if (r.simbody)
      report.line("%-36s closed form of the smooth spheres %.2f N: surfdb %.3f of it, Simbody %.3f", "", r.closed_form,
                  r.tree.force / r.closed_form, r.simbody_force / r.closed_form);
    else
      report.line("%-36s closed form of the smooth spheres %.2f N: surfdb %.3f of it", "", r.closed_form,
                  r.tree.force / r.closed_form);
    if (r.simbody)
      report.line("%-36s Simbody EF against ours: force %.3f (%.3f-%.3f per pose), surfdb %.1fx faster", "",
                  r.simbody_force / r.tree.force, r.force_ratio_lo, r.force_ratio_hi,
                  (r.simbody_time.median - r.simbody_bare.median) / r.tree.time.median);
  }
#ifndef SURFDB_BENCH_SIMBODY
  report.line("Simbody not available (install libsimbody-dev and reconfigure to compare)");
#endif

  // Memory: the mesh with its tree, counted from its arrays' sizes and as the heap grows.
  report.line("");
  report.line("| mesh | triangles | vertices | tree nodes | bytes per triangle (sizes) | bytes per triangle (heap) |%s",
#ifdef SURFDB_BENCH_SIMBODY
              " Simbody TriangleMesh + OBB tree, bytes per triangle (heap) |"
#else
              ""
#endif
  );
  report.line("|---|---|---|---|---|---|%s",
#ifdef SURFDB_BENCH_SIMBODY
              "---|"
#else
              ""
#endif
  );
  for (const auto& [name, arrays] : {std::pair{"UV sphere 25 x 20", &cases[0].master}, std::pair{"icosphere level 5", &cases[2].master}}) {
    const std::size_t before = heap_in_use();
    const auto mesh = std::make_shared<const TriangleMesh>(arrays->vertices, arrays->triangles);
    const std::size_t heap = heap_in_use() - before;
    const std::size_t T = mesh->size(), V = mesh->vertices().size(), nodes = mesh->tree().nodes().size();
    const std::size_t counted = V * sizeof(Eigen::Vector3d) +
                                T * (sizeof(std::array<std::uint32_t, 3>) + 2 * sizeof(Eigen::Vector3d) + sizeof(double) +
                                     3 * sizeof(std::int32_t)) +
                                nodes * sizeof(MeshTree::Node);
    std::string simbody_column;
#ifdef SURFDB_BENCH_SIMBODY
    simbody_column = " " + std::to_string(simbody_mesh_heap_bytes({&arrays->vertices, &arrays->triangles}) / T) + " |";
#endif
    report.line("| %s | %zu | %zu | %zu | %zu | %zu |%s", name, T, V, nodes, counted / T, heap / T, simbody_column.c_str());
  }
  report.line("A PolygonalContact adds %zu bytes per master triangle (stamps and crossing data), plus buffers that grow "
              "with the contact.", 3 * sizeof(std::uint32_t) + sizeof(std::uint8_t) + sizeof(std::uint32_t));
  return sink == 0.123 ? 1 : 0;
}
