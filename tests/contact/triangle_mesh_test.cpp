// The polygonal model's geometry: meshes with their half-edges and quality, the box tree, and
// triangle-triangle and segment-triangle intersections, against closed forms.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <set>

#include "../support/approx.hpp"
#include "../support/meshes.hpp"
#include "surfdb/contact/triangle_intersection.hpp"
#include "surfdb/contact/triangle_mesh.hpp"

using namespace surfdb;
using surfdb::test::relative;

TEST_CASE("an icosphere is closed, consistently oriented outwards, and near the sphere's area and volume") {
  const double R = 0.05;
  const auto mesh = test::icosphere(R, 4).build();
  CHECK(mesh->size() == 20 * 256);
  CHECK(mesh->quality().closed());
  CHECK(mesh->quality().consistent());
  CHECK(mesh->quality().degenerate_removed == 0);
  // Inscribed: a little less than the sphere, by the chords' sag.
  const double area = 4 * std::numbers::pi * R * R, volume = 4.0 / 3 * std::numbers::pi * R * R * R;
  CHECK(mesh->total_area() < area);
  CHECK(mesh->total_area() == relative(area, 5e-3));
  CHECK(mesh->signed_volume() == relative(volume, 5e-3));
  for (std::size_t t = 0; t < mesh->size(); ++t) {
    REQUIRE(mesh->normal(t).dot(mesh->centroid(t)) > 0);  // outward
    for (int k = 0; k < 3; ++k) {
      // The twin runs the same edge the other way.
      const std::int32_t h = mesh->twin(3 * t + static_cast<std::size_t>(k));
      REQUIRE(h != TriangleMesh::kOpen);
      const std::size_t u = static_cast<std::size_t>(h) / 3;
      const int l = h % 3;
      REQUIRE(mesh->corner(u, l) == mesh->corner(t, (k + 1) % 3));
      REQUIRE(mesh->corner(u, (l + 1) % 3) == mesh->corner(t, k));
    }
  }
}

TEST_CASE("a box's faces, a square's open border, a flipped triangle and degenerate ones are reported") {
  const auto box = test::box({0.2, 0.1, 0.05}, 3).build();
  CHECK(box->quality().closed());
  CHECK(box->quality().consistent());
  CHECK(box->signed_volume() == relative(0.2 * 0.1 * 0.05, 1e-12));
  CHECK(box->total_area() == relative(2 * (0.02 + 0.01 + 0.005), 1e-12));

  const auto square = test::square(1.0, 4).build();
  CHECK(square->quality().open_edges == 16);
  CHECK(square->quality().consistent());

  test::MeshArrays flipped = test::square(1.0, 4);
  std::swap(flipped.triangles[5][1], flipped.triangles[5][2]);
  CHECK(flipped.build()->quality().inconsistent_edges == 3);

  test::MeshArrays degenerate = test::square(1.0, 2);
  degenerate.triangles.push_back({0, 1, 1});
  degenerate.vertices.emplace_back(0.25, -0.5, 0.0);  // on the edge from vertex 0 to 1: no area
  degenerate.triangles.push_back({0, 1, static_cast<std::uint32_t>(degenerate.vertices.size() - 1)});
  const auto repaired = degenerate.build();
  CHECK(repaired->quality().degenerate_removed == 2);
  CHECK(repaired->size() == 8);
}

TEST_CASE("meshes that cannot be built are refused with the reason") {
  test::MeshArrays m = test::square(1.0, 1);
  m.vertices[2].y() = NAN;
  CHECK_THROWS_WITH_AS(m.build(), doctest::Contains("vertex 2"), std::invalid_argument);
  m = test::square(1.0, 1);
  m.triangles[1][2] = 7;
  CHECK_THROWS_WITH_AS(m.build(), doctest::Contains("names vertex 7 of 4"), std::invalid_argument);
}

TEST_CASE("the box tree has one triangle per leaf and every box holds its subtree's triangles") {
  const auto mesh = test::icosphere(1.0, 2).build();
  const auto& nodes = mesh->tree().nodes();
  CHECK(nodes.size() == 2 * mesh->size() - 1);
  std::set<std::uint32_t> leaves;
  // Every triangle's corners inside every box on its path from the root.
  std::vector<std::pair<std::int32_t, std::vector<std::int32_t>>> stack{{0, {}}};
  while (!stack.empty()) {
    auto [n, path] = stack.back();
    stack.pop_back();
    path.push_back(n);
    const MeshTree::Node& node = nodes[static_cast<std::size_t>(n)];
    if (node.leaf()) {
      leaves.insert(node.triangle());
      for (std::int32_t a : path)
        for (int k = 0; k < 3; ++k) {
          const Eigen::Vector3d& x = mesh->corner(node.triangle(), k);
          const MeshTree::Node& box = nodes[static_cast<std::size_t>(a)];
          REQUIRE(((x.array() >= box.lo.array()) && (x.array() <= box.hi.array())).all());
        }
    } else {
      stack.emplace_back(node.left, path);
      stack.emplace_back(node.right, path);
    }
  }
  CHECK(leaves.size() == mesh->size());
}

TEST_CASE("two triangles cross along the segment their planes and edges bound") {
  const Triangle3 a{Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(2, 0, 0), Eigen::Vector3d(0, 2, 0)};
  const Triangle3 b{Eigen::Vector3d(0.5, -1, -1), Eigen::Vector3d(0.5, 3, -1), Eigen::Vector3d(0.5, 1, 1)};
  const Eigen::Vector3d n_a = Eigen::Vector3d::UnitZ();
  const Eigen::Vector3d n_b = (b[1] - b[0]).cross(b[2] - b[0]).normalized();  // +x
  TriangleCut cut;
  REQUIRE(intersect_triangles(a, n_a, b, n_b, cut));
  // b meets z = 0 for y in [0, 2]; a meets x = 0.5 for y in [0, 1.5]: the segment is y in [0, 1.5],
  // ordered along n_a x n_b = +y; its far end is on a's hypotenuse, edge 1 (corner 1 to 2).
  CHECK(cut.ends[0].point.isApprox(Eigen::Vector3d(0.5, 0, 0), 1e-15));
  CHECK(cut.ends[1].point.isApprox(Eigen::Vector3d(0.5, 1.5, 0)));
  CHECK(cut.ends[1].on_first);
  CHECK(cut.ends[1].edge == 1);
  // Seen from b the same segment runs the other way.
  REQUIRE(intersect_triangles(b, n_b, a, n_a, cut));
  CHECK(cut.ends[0].point.isApprox(Eigen::Vector3d(0.5, 1.5, 0)));
  CHECK_FALSE(cut.ends[0].on_first);

  const Triangle3 above{Eigen::Vector3d(0, 0, 1), Eigen::Vector3d(1, 0, 2), Eigen::Vector3d(0, 1, 1)};
  CHECK_FALSE(intersect_triangles(a, n_a, above, (above[1] - above[0]).cross(above[2] - above[0]).normalized(), cut));
  const Triangle3 beside{Eigen::Vector3d(3, -1, -1), Eigen::Vector3d(3, 3, -1), Eigen::Vector3d(3, 1, 1)};
  CHECK_FALSE(intersect_triangles(a, n_a, beside, -Eigen::Vector3d::UnitX(), cut));
  CHECK_FALSE(intersect_triangles(a, n_a, a, n_a, cut));  // coplanar
}

TEST_CASE("a segment meets a triangle where the line crosses its plane inside it") {
  const Triangle3 t{Eigen::Vector3d(0, 0, 1), Eigen::Vector3d(1, 0, 1), Eigen::Vector3d(0, 1, 1)};
  CHECK(segment_hits_triangle({0.2, 0.2, 0}, {0.2, 0.2, 4}, t) == doctest::Approx(0.25));
  CHECK(segment_hits_triangle({0.2, 0.2, 0}, {0.2, 0.2, 0.5}, t) < 0);  // too short
  CHECK(segment_hits_triangle({0.8, 0.8, 0}, {0.8, 0.8, 4}, t) < 0);    // beside it
  CHECK(segment_hits_triangle({0, 0, 2}, {1, 1, 2}, t) < 0);            // parallel
}
