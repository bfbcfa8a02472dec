// Triangle meshes with known geometry for the polygonal contact tests: an icosphere (vertices on
// the sphere), a closed box with subdivided faces, and a flat square (open, facing +z). All in
// metres, triangles counter-clockwise seen from outside.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include <Eigen/Geometry>

#include "surfdb/contact/triangle_mesh.hpp"

namespace surfdb::test {

struct MeshArrays {
  std::vector<Eigen::Vector3d> vertices;
  std::vector<std::array<std::uint32_t, 3>> triangles;

  std::shared_ptr<const TriangleMesh> build() const { return std::make_shared<const TriangleMesh>(vertices, triangles); }
  /// Appends another mesh moved by `offset` (two bodies' surfaces as one mesh).
  void append(const MeshArrays& other, const Eigen::Vector3d& offset) {
    const auto base = static_cast<std::uint32_t>(vertices.size());
    for (const Eigen::Vector3d& v : other.vertices) vertices.push_back(v + offset);
    for (const auto& t : other.triangles) triangles.push_back({t[0] + base, t[1] + base, t[2] + base});
  }
};

// Turns each triangle of a convex mesh to face away from `centre`.
inline void face_outwards(MeshArrays& m, const Eigen::Vector3d& centre) {
  for (auto& t : m.triangles) {
    const Eigen::Vector3d &a = m.vertices[t[0]], &b = m.vertices[t[1]], &c = m.vertices[t[2]];
    if ((b - a).cross(c - a).dot((a + b + c) / 3.0 - centre) < 0) std::swap(t[1], t[2]);
  }
}

/// 20 * 4^level triangles on a sphere of radius R about the origin.
inline MeshArrays icosphere(double R, int level) {
  const double g = (1 + std::sqrt(5.0)) / 2;
  MeshArrays m;
  for (const auto& v : {Eigen::Vector3d(-1, g, 0), Eigen::Vector3d(1, g, 0), Eigen::Vector3d(-1, -g, 0),
                        Eigen::Vector3d(1, -g, 0), Eigen::Vector3d(0, -1, g), Eigen::Vector3d(0, 1, g),
                        Eigen::Vector3d(0, -1, -g), Eigen::Vector3d(0, 1, -g), Eigen::Vector3d(g, 0, -1),
                        Eigen::Vector3d(g, 0, 1), Eigen::Vector3d(-g, 0, -1), Eigen::Vector3d(-g, 0, 1)})
    m.vertices.push_back(R * v.normalized());
  m.triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                 {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                 {3, 8, 9},  {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  for (int l = 0; l < level; ++l) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> middle;
    const auto mid = [&](std::uint32_t a, std::uint32_t b) {
      const auto key = std::minmax(a, b);
      const auto [it, fresh] = middle.try_emplace(key, static_cast<std::uint32_t>(m.vertices.size()));
      if (fresh) m.vertices.push_back(R * (m.vertices[a] + m.vertices[b]).normalized());
      return it->second;
    };
    std::vector<std::array<std::uint32_t, 3>> finer;
    for (const auto& t : m.triangles) {
      const std::uint32_t ab = mid(t[0], t[1]), bc = mid(t[1], t[2]), ca = mid(t[2], t[0]);
      finer.push_back({t[0], ab, ca});
      finer.push_back({t[1], bc, ab});
      finer.push_back({t[2], ca, bc});
      finer.push_back({ab, bc, ca});
    }
    m.triangles = std::move(finer);
  }
  face_outwards(m, Eigen::Vector3d::Zero());
  return m;
}

/// A closed box of edges `size` centred at the origin, each face cut into n x n squares.
inline MeshArrays box(const Eigen::Vector3d& size, int n) {
  MeshArrays m;
  std::map<std::array<int, 3>, std::uint32_t> index;
  const auto vertex = [&](std::array<int, 3> ijk) {
    const auto [it, fresh] = index.try_emplace(ijk, static_cast<std::uint32_t>(m.vertices.size()));
    if (fresh)
      m.vertices.emplace_back(size.x() * (ijk[0] / double(n) - 0.5), size.y() * (ijk[1] / double(n) - 0.5),
                              size.z() * (ijk[2] / double(n) - 0.5));
    return it->second;
  };
  for (int axis = 0; axis < 3; ++axis)
    for (int side : {0, n})
      for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
          const auto at = [&](int da, int db) {
            std::array<int, 3> ijk{};
            ijk[static_cast<std::size_t>(axis)] = side;
            ijk[static_cast<std::size_t>((axis + 1) % 3)] = a + da;
            ijk[static_cast<std::size_t>((axis + 2) % 3)] = b + db;
            return vertex(ijk);
          };
          m.triangles.push_back({at(0, 0), at(1, 0), at(1, 1)});
          m.triangles.push_back({at(0, 0), at(1, 1), at(0, 1)});
        }
  face_outwards(m, Eigen::Vector3d::Zero());
  return m;
}

/// A flat square of side `size` at z = 0 centred at the origin, n x n squares, facing +z (open).
inline MeshArrays square(double size, int n) {
  MeshArrays m;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) m.vertices.emplace_back(size * (i / double(n) - 0.5), size * (j / double(n) - 0.5), 0.0);
  const auto at = [&](int i, int j) { return static_cast<std::uint32_t>(j * (n + 1) + i); };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      m.triangles.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1)});
      m.triangles.push_back({at(i, j), at(i + 1, j + 1), at(i, j + 1)});
    }
  return m;
}

}  // namespace surfdb::test
