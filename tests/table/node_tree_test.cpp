// The node tree's record spheres against the exact surfaces they bound, and its searches against
// brute force over every node of the table.
#include "surfdb/table/node_tree.hpp"

#include <doctest/doctest.h>

#include <numbers>
#include <random>
#include <thread>

#include "../support/occt_faces.hpp"
#include "../support/temp_dir.hpp"
#include "surfdb/libsurfdb/analytic_surfaces.hpp"
#include "surfdb/libsurfdb/cad_model.hpp"
#include "surfdb/libsurfdb/converter.hpp"
#include "surfdb/formats/scalar.hpp"

using namespace surfdb;
using namespace surfdb::test;
using Eigen::Vector3d;

namespace {
constexpr double pi = std::numbers::pi;

struct Node {
  NodeIndex index;
  Vector3d p, n;
  bool valid;
};

// Every grid node of a table, read through verified records.
std::vector<Node> all_nodes(const Database& db) {
  const Header& h = db.header();
  const RecordLayout& l = h.layout;
  const auto at = [&](const std::uint8_t* node, Column c) { return load_scalar(node, l.scalar_bytes, column_offset(h, c)); };
  std::vector<Node> out;
  for (std::uint64_t i = 0; i < l.u_points; ++i)
    for (std::uint64_t j = 0; j < l.v_points; ++j) {
      const NodeIndex n{i, j};
      const std::uint8_t* node = db.record(l.record_number({i / l.u_record_points, j / l.v_record_points})) +
                                 l.slot_of_node(n) * l.column_count * l.scalar_bytes;
      out.push_back({n, {at(node, Column::x), at(node, Column::y), at(node, Column::z)},
                     {at(node, Column::nx), at(node, Column::ny), at(node, Column::nz)},
                     (static_cast<std::uint32_t>(at(node, Column::flags)) & point_flags::valid) != 0});
    }
  return out;
}

std::shared_ptr<const Database> convert(const SurfaceSource& source, GridSize grid, RecordSize record,
                                        const std::filesystem::path& path) {
  ConvertOptions o;
  o.grid = grid;
  o.record = record;
  convert_surface(source, o, path);
  return Database::open(path);
}

}  // namespace

TEST_CASE("every record's sphere holds the exact surface over its cell of the record grid") {
  // Coarse tables of strongly curved surfaces, where a record spans a quarter of a sphere or a
  // torus: the surface bulges far beyond the corners' own sphere. 9 x 9 exact points per cell.
  // The 9 x 9 torus in 8 x 8 records: one record spans the whole period along u, its two lines
  // the same circle. catches: no growth for the nodes between the lines (the whole torus outside
  // a sphere around one circle); a cell ending at the record's last node, not the next record's
  // first (the cells joining records left out: exact points up to 0.3 of the radius outside).
  TempDir dir;
  AnalyticSpec sphere, torus;
  sphere.kind = AnalyticKind::sphere, sphere.radius = 10;
  torus.kind = AnalyticKind::torus, torus.radius = 30, torus.minor_radius = 8;
  for (const auto& [spec, grid, record] : {std::tuple{sphere, GridSize{41, 41}, RecordSize{10, 10}},
                                           std::tuple{sphere, GridSize{999, 999}, RecordSize{27, 27}},
                                           std::tuple{torus, GridSize{33, 65}, RecordSize{8, 8}},
                                           std::tuple{torus, GridSize{9, 9}, RecordSize{8, 8}},
                                           std::tuple{AnalyticSpec{}, GridSize{100, 100}, RecordSize{7, 13}}}) {
    CAPTURE(grid.u);
    const auto source = make_analytic_surface(spec);
    const auto db = convert(*source, grid, record, dir / "t.sdb");
    const auto tree = NodeTree::build(*db);
    const Header& h = db->header();
    const RecordLayout& l = h.layout;
    double worst = -INFINITY, box_worst = -INFINITY;
    for (std::uint64_t k = 1; k <= l.data_records; ++k) {
      const auto [centre, radius] = tree->record_sphere(k);
      const RecordIndex r = l.record_index(k);
      const double i0 = double(r.ti * l.u_record_points), j0 = double(r.tj * l.v_record_points);
      const double i1 = std::min(i0 + l.u_record_points, double(l.u_points - 1));
      const double j1 = std::min(j0 + l.v_record_points, double(l.v_points - 1));
      for (int a = 0; a <= 8; ++a)
        for (int b = 0; b <= 8; ++b) {
          const double u = h.u0 + (i0 + (i1 - i0) * a / 8) * h.du, v = h.v0 + (j0 + (j1 - j0) * b / 8) * h.dv;
          const Vector3d p = source->d2(std::min(u, h.u1), std::min(v, h.v1)).p;
          worst = std::max(worst, ((p - centre).norm() - radius) / radius);
          const Vector3d out = (p - p.cwiseMax(tree->box_low()).cwiseMin(tree->box_high()));
          box_worst = std::max(box_worst, out.norm());
          CHECK((p - tree->bounding_centre()).norm() <= tree->bounding_radius());
        }
    }
    MESSAGE("farthest exact point relative to its record's radius: " << worst);
    CHECK(worst <= 1e-12);
    CHECK(box_worst == 0);
  }
}

TEST_CASE("nearest is the nearest valid node, and closest the closest pair") {
  // A B-spline patch trimmed to a disk: the nodes outside the disk carry the untrimmed surface's
  // points but are no answer. Its 10 x 10 records keep every node in the tree: brute force over
  // all nodes is the reference.
  // catches: invalid nodes answered; a search stopping at the first record it scans (answers a
  // node of the nearest sphere, not the nearest node); closest measuring from the wrong side.
  TempDir dir;
  write_brep(disk_face(make_bspline(false), gp_Pnt2d(1.5, 0.5), 0.45), dir / "disk.brep");
  const auto disk = convert(*CadModel::load(dir / "disk.brep").face(1), {91, 91}, {10, 10}, dir / "disk.sdb");
  AnalyticSpec ball_spec;
  ball_spec.kind = AnalyticKind::sphere, ball_spec.radius = 0.3;
  const auto ball = convert(*make_analytic_surface(ball_spec), {61, 61}, {9, 9}, dir / "ball.sdb");
  const auto tree = NodeTree::build(*disk);
  const std::vector<Node> nodes = all_nodes(*disk);
  Vector3d low = Vector3d::Constant(INFINITY), high = -low;
  for (const Node& n : nodes)
    if (n.valid) low = low.cwiseMin(n.p), high = high.cwiseMax(n.p);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> unit(-0.5, 1.5);
  int invalid_nearest_all = 0;
  for (int k = 0; k < 300; ++k) {
    const Vector3d x = low + (high - low).cwiseProduct(Vector3d(unit(rng), unit(rng), unit(rng)));
    double best = INFINITY, best_all = INFINITY;
    bool all_invalid = false;
    for (const Node& n : nodes) {
      const double d = (n.p - x).norm();
      if (n.valid) best = std::min(best, d);
      if (d < best_all) best_all = d, all_invalid = !n.valid;
    }
    invalid_nearest_all += all_invalid;
    const NodeIndex found = tree->nearest(x);
    const Node& n = nodes[found.i * disk->layout().v_points + found.j];
    CHECK(n.valid);
    CHECK((n.p - x).norm() == best);
  }
  MESSAGE(invalid_nearest_all << " of 300 points lie nearest to an invalid node");
  CHECK(invalid_nearest_all > 30);  // the test has teeth

  // The ball (0.3 units) placed above the patch's centre at three heights: apart, touching at a
  // node's distance, and half sunk. Reference: brute force over the pairs of valid nodes (the
  // ball's nodes at closest()'s stride included).
  const auto ball_tree = NodeTree::build(*ball);
  const std::vector<Node> ball_nodes = all_nodes(*ball);
  const Node& middle = nodes[45 * 91 + 45];
  for (const double height : {0.5, 0.3, 0.0}) {
    CAPTURE(height);
    NodeTree::Similarity ball_in_disk;
    ball_in_disk.offset = middle.p + height * middle.n;
    const NodeTree::NodePair pair = ball_tree->closest(*tree, ball_in_disk);
    double closest = INFINITY;
    for (const Node& b : ball_nodes)
      for (const Node& n : nodes)
        if (n.valid) closest = std::min(closest, (ball_in_disk(b.p) - n.p).norm());
    const Vector3d x = ball_in_disk(ball_nodes[pair.here.i * 61 + pair.here.j].p);
    const Node& y = nodes[pair.there.i * 91 + pair.there.j];
    CHECK(y.valid);
    CHECK(std::abs(pair.separation) == doctest::Approx((x - y.p).norm()));
    if (height > 0.3) {
      CHECK(pair.separation > 0);
      CHECK(pair.separation < closest + 0.05);  // within a stride of the ball's nodes
    } else if (height == 0.0) {
      // Half sunk: a node found near where the ball crosses the patch lies below it.
      CHECK(pair.separation < 0);
    }
  }
}

TEST_CASE("nearest from two threads at once answers as from one thread") {
  // Each record's tree nodes are cached by the first search that scans it; two threads scanning
  // the same records of a fresh tree must still answer exactly as one thread on another fresh
  // tree. Can catch, when the threads meet on a record: its cache published before it is filled.
  TempDir dir;
  AnalyticSpec spec;
  spec.kind = AnalyticKind::sphere, spec.radius = 10;
  const auto db = convert(*make_analytic_surface(spec), {400, 400}, {27, 27}, dir / "s.sdb");
  std::vector<Vector3d> points;
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> unit(-12, 12);
  for (int k = 0; k < 4000; ++k) points.emplace_back(unit(rng), unit(rng), unit(rng));
  const auto reference = NodeTree::build(*db), shared = NodeTree::build(*db);
  std::vector<NodeIndex> expected, a(points.size()), b(points.size());
  for (const Vector3d& x : points) expected.push_back(reference->nearest(x));
  std::thread other([&] { for (std::size_t k = 0; k < points.size(); ++k) a[k] = shared->nearest(points[k]); });
  for (std::size_t k = 0; k < points.size(); ++k) b[k] = shared->nearest(points[k]);
  other.join();
  int differ = 0;
  for (std::size_t k = 0; k < points.size(); ++k)
    differ += a[k].i != expected[k].i || a[k].j != expected[k].j || b[k].i != expected[k].i || b[k].j != expected[k].j;
  CHECK(differ == 0);
}
