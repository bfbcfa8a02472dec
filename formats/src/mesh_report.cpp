#include "surfdb/formats/mesh_report.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace surfdb {
namespace {

using Point = std::array<double, 3>;
using Triangle = std::array<std::uint32_t, 3>;

Point sub(const Point& a, const Point& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Point cross(const Point& a, const Point& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const Point& a, const Point& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

std::pair<Point, Point> bounds(const std::vector<Point>& vertices) {
  Point lo{HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi{-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  for (const Point& p : vertices)
    for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], p[k]), hi[k] = std::max(hi[k], p[k]);
  return {lo, hi};
}

// Each vertex's representative: the first earlier vertex within `tolerance` in every coordinate,
// found among the vertices already kept in the 27 grid cells around it (cells of the tolerance's
// size, so a match is never more than one cell away). Kept vertices are numbered in input order.
std::vector<std::uint32_t> merge_vertices(std::vector<Point>& vertices, double tolerance) {
  double largest = 0;
  for (const Point& p : vertices)
    for (const double x : p) largest = std::max(largest, std::abs(x));
  // Cells no smaller than 1e-15 of the largest coordinate, so cell numbers fit 64 bits.
  const double cell = std::max({tolerance, 1e-15 * largest, DBL_MIN});
  using Cell = std::tuple<std::int64_t, std::int64_t, std::int64_t>;
  struct CellHash {
    std::size_t operator()(const Cell& c) const {
      const auto u = [](std::int64_t x) { return static_cast<std::uint64_t>(x); };
      return static_cast<std::size_t>(u(std::get<0>(c)) * 73856093u ^ u(std::get<1>(c)) * 19349663u ^
                                      u(std::get<2>(c)) * 83492791u);
    }
  };
  std::unordered_map<Cell, std::vector<std::uint32_t>, CellHash> grid;  // the smallest index wins: order-free
  std::vector<Point> kept;
  std::vector<std::uint32_t> index(vertices.size());
  for (std::size_t v = 0; v < vertices.size(); ++v) {
    const Point& p = vertices[v];
    const auto c = [&](int k) { return static_cast<std::int64_t>(std::floor(p[k] / cell)); };
    const Cell home{c(0), c(1), c(2)};
    std::uint32_t found = UINT32_MAX;
    for (std::int64_t dx = -1; dx <= 1; ++dx)
      for (std::int64_t dy = -1; dy <= 1; ++dy)
        for (std::int64_t dz = -1; dz <= 1; ++dz) {
          const auto it = grid.find({std::get<0>(home) + dx, std::get<1>(home) + dy, std::get<2>(home) + dz});
          if (it == grid.end()) continue;
          for (const std::uint32_t k : it->second) {
            const Point d = sub(kept[k], p);
            if (k < found && std::abs(d[0]) <= tolerance && std::abs(d[1]) <= tolerance && std::abs(d[2]) <= tolerance)
              found = k;
          }
        }
    if (found == UINT32_MAX) {
      found = static_cast<std::uint32_t>(kept.size());
      kept.push_back(p);
      grid[home].push_back(found);
    }
    index[v] = found;
  }
  vertices = std::move(kept);
  return index;
}

// Drops the vertices no triangle uses, keeping the others' order.
void drop_unused_vertices(MeshData& mesh) {
  std::vector<std::uint32_t> renumber(mesh.vertices.size(), UINT32_MAX);
  for (const Triangle& t : mesh.triangles)
    for (const std::uint32_t i : t) renumber[i] = 0;
  std::vector<Point> used;
  for (std::size_t v = 0; v < mesh.vertices.size(); ++v)
    if (renumber[v] == 0) renumber[v] = static_cast<std::uint32_t>(used.size()), used.push_back(mesh.vertices[v]);
  for (Triangle& t : mesh.triangles)
    for (std::uint32_t& i : t) i = renumber[i];
  mesh.vertices = std::move(used);
}

}  // namespace

MeshReport mesh_report(const MeshData& mesh) {
  MeshReport q;
  q.triangles = mesh.triangles.size();
  q.vertices = mesh.vertices.size();
  // Each use of an edge, keyed by its ends in ascending order, with the direction it is run in.
  std::vector<std::pair<std::uint64_t, bool>> uses;
  uses.reserve(3 * mesh.triangles.size());
  const auto [lo, hi] = bounds(mesh.vertices);
  const Point centre{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2};  // for accuracy
  for (const Triangle& t : mesh.triangles) {
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t a = t[k], b = t[(k + 1) % 3];
      uses.emplace_back((std::uint64_t{std::min(a, b)} << 32) | std::max(a, b), a < b);
    }
    const Point a = sub(mesh.vertices[t[0]], centre), b = sub(mesh.vertices[t[1]], centre),
                c = sub(mesh.vertices[t[2]], centre);
    const Point n = cross(sub(b, a), sub(c, a));
    q.area += std::sqrt(dot(n, n)) / 2;
    q.volume += dot(a, cross(b, c)) / 6;
  }
  std::sort(uses.begin(), uses.end());
  for (std::size_t first = 0; first < uses.size();) {
    std::size_t last = first + 1;
    while (last < uses.size() && uses[last].first == uses[first].first) ++last;
    const std::size_t n = last - first;
    if (n == 1) ++q.open_edges;
    else if (n > 2) ++q.non_manifold_edges;
    else if (uses[first].second == uses[first + 1].second) ++q.misoriented_edges;
    first = last;
  }
  return q;
}

MeshReport make_mesh(MeshData& mesh, double merge_tolerance) {
  const std::vector<std::uint32_t> index = merge_vertices(mesh.vertices, merge_tolerance);
  std::vector<Triangle> kept;
  kept.reserve(mesh.triangles.size());
  for (const Triangle& t : mesh.triangles) {
    const Triangle m{index[t[0]], index[t[1]], index[t[2]]};
    if (m[0] == m[1] || m[1] == m[2] || m[0] == m[2]) continue;
    const Point& a = mesh.vertices[m[0]];
    const Point n = cross(sub(mesh.vertices[m[1]], a), sub(mesh.vertices[m[2]], a));
    if (n[0] == 0 && n[1] == 0 && n[2] == 0) continue;  // collinear corners
    kept.push_back(m);
  }
  const std::uint64_t removed = mesh.triangles.size() - kept.size();
  mesh.triangles = std::move(kept);
  drop_unused_vertices(mesh);
  MeshReport q = mesh_report(mesh);
  q.degenerate_removed = removed;
  if (q.closed() && q.consistent() && q.volume < 0) {
    for (Triangle& t : mesh.triangles) std::swap(t[1], t[2]);
    q.volume = -q.volume;
    q.flipped = true;
  }
  return q;
}

double default_merge_tolerance(const std::vector<std::array<double, 3>>& vertices) {
  if (vertices.empty()) return 0;
  const auto [lo, hi] = bounds(vertices);
  const Point d = sub(hi, lo);
  return 1e-9 * std::sqrt(dot(d, d));
}

}  // namespace surfdb
