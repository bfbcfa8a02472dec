#include "surfdb/libsurfdb/mesh_refinement.hpp"

#include <cmath>
#include <map>
#include <stdexcept>
#include <utility>

namespace surfdb {
namespace {

using Triangle = std::array<std::uint32_t, 3>;

double length(const MeshData& m, std::uint32_t a, std::uint32_t b) {
  const auto& p = m.vertices[a];
  const auto& q = m.vertices[b];
  return std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

class Splitter {
 public:
  Splitter(MeshData& mesh, double max_edge) : mesh_(mesh), max_edge_(max_edge) {}

  /// The midpoint vertex of edge a-b when it is too long (made once per edge), else none (-1).
  std::int64_t midpoint(std::uint32_t a, std::uint32_t b) {
    if (length(mesh_, a, b) <= max_edge_) return -1;
    const std::pair<std::uint32_t, std::uint32_t> key{std::min(a, b), std::max(a, b)};
    if (const auto found = made_.find(key); found != made_.end()) return found->second;
    const auto& p = mesh_.vertices[key.first];
    const auto& q = mesh_.vertices[key.second];
    mesh_.vertices.push_back({(p[0] + q[0]) / 2, (p[1] + q[1]) / 2, (p[2] + q[2]) / 2});
    const auto index = static_cast<std::uint32_t>(mesh_.vertices.size() - 1);
    made_.emplace(key, index);
    return index;
  }

 private:
  MeshData& mesh_;
  double max_edge_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> made_;
};

// The triangle (v0, v1, v2) cut at the midpoints m[k] of its edges k = (v_k, v_k+1) that have
// one, into triangles of the same orientation.
void split(const Triangle& v, const std::array<std::int64_t, 3>& m, std::vector<Triangle>& out) {
  int count = 0, first = -1;
  for (int k = 0; k < 3; ++k)
    if (m[k] >= 0) count += 1, first = first < 0 ? k : first;
  const auto u = [](std::int64_t x) { return static_cast<std::uint32_t>(x); };
  if (count == 0) {
    out.push_back(v);
  } else if (count == 3) {
    out.push_back({v[0], u(m[0]), u(m[2])});
    out.push_back({u(m[0]), v[1], u(m[1])});
    out.push_back({u(m[2]), u(m[1]), v[2]});
    out.push_back({u(m[0]), u(m[1]), u(m[2])});
  } else if (count == 1) {  // edge k = (a, b), c opposite
    const std::uint32_t a = v[first], b = v[(first + 1) % 3], c = v[(first + 2) % 3];
    out.push_back({a, u(m[first]), c});
    out.push_back({u(m[first]), b, c});
  } else {  // two edges split: k and k+1 share corner b; the edge k+2 stays
    const int k = m[(first + 2) % 3] < 0 ? first : (first + 2) % 3;  // k+1 split too, k+2 not
    const std::uint32_t a = v[k], b = v[(k + 1) % 3], c = v[(k + 2) % 3];
    const std::uint32_t mab = u(m[k]), mbc = u(m[(k + 1) % 3]);
    out.push_back({mab, b, mbc});
    out.push_back({a, mab, mbc});
    out.push_back({a, mbc, c});
  }
}

}  // namespace

void refine_mesh(MeshData& mesh, double max_edge) {
  if (!(std::isfinite(max_edge) && max_edge > 0))
    throw std::invalid_argument("the longest edge a refined mesh may keep must be positive and finite");
  for (bool changed = true; changed;) {
    Splitter splitter(mesh, max_edge);
    std::vector<Triangle> refined;
    refined.reserve(mesh.triangles.size());
    for (const Triangle& t : mesh.triangles) {
      const std::array<std::int64_t, 3> m{splitter.midpoint(t[0], t[1]), splitter.midpoint(t[1], t[2]),
                                          splitter.midpoint(t[2], t[0])};
      split(t, m, refined);
    }
    changed = refined.size() != mesh.triangles.size();
    mesh.triangles = std::move(refined);
  }
}

}  // namespace surfdb
