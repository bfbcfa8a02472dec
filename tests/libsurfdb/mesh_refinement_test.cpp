// Refining a closed mesh for areal contact: no edge left longer than the bound, still closed and
// consistently oriented, with the cube's exact area and volume; deterministic.
#include <cmath>
#include <doctest/doctest.h>

#include "surfdb/libsurfdb/mesh_refinement.hpp"
#include "surfdb/formats/mesh_report.hpp"

using namespace surfdb;

namespace {

// The unit cube [0, 1]^3 as 12 outward triangles (two per face).
MeshData cube() {
  MeshData m;
  for (int k = 0; k < 8; ++k) m.vertices.push_back({double(k & 1), double((k >> 1) & 1), double((k >> 2) & 1)});
  m.triangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                 {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  return m;
}

double longest_edge(const MeshData& m) {
  double longest = 0;
  for (const auto& t : m.triangles)
    for (int k = 0; k < 3; ++k) {
      const auto& p = m.vertices[t[k]];
      const auto& q = m.vertices[t[(k + 1) % 3]];
      longest = std::max(longest, std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]));
    }
  return longest;
}

}  // namespace

TEST_CASE("a refined cube keeps no edge above the bound and stays a closed, outward cube") {
  const MeshReport before = mesh_report(cube());
  REQUIRE(before.closed());
  REQUIRE(before.volume == doctest::Approx(1).epsilon(1e-15));
  for (const double bound : {0.9, 0.3, 0.07}) {
    MeshData m = cube();
    refine_mesh(m, bound);
    CHECK(longest_edge(m) <= bound);
    CHECK(m.triangles.size() > 12);
    const MeshReport r = mesh_report(m);
    CHECK(r.closed());
    CHECK(r.consistent());
    CHECK(r.area == doctest::Approx(6).epsilon(1e-12));
    CHECK(r.volume == doctest::Approx(1).epsilon(1e-12));
    MeshData again = cube();
    refine_mesh(again, bound);
    CHECK(again.vertices == m.vertices);
    CHECK(again.triangles == m.triangles);
  }
  MeshData m = cube();
  refine_mesh(m, 2);  // every edge shorter already
  CHECK(m.triangles.size() == 12);
  CHECK_THROWS_AS(refine_mesh(m, 0), std::invalid_argument);
  CHECK_THROWS_AS(refine_mesh(m, std::nan("")), std::invalid_argument);
}
