// The animation's tessellation of every surface kind (tools/surfdb/animation_mesh.hpp) against
// closed forms: vertices on the surface, normals out of the material, triangles wound about them
// (the enclosed volume positive for a solid, negative for a cavity), areas and volumes of the
// inscribed meshes below the surface's and approaching them as the resolution grows, exact for
// flat faces; tables drawn from their grid nodes, subsampled, without the cells of invalid nodes.
#include "animation_mesh.hpp"

#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <functional>
#include <map>
#include <numbers>

#include "../support/approx.hpp"
#include "../support/temp_dir.hpp"
#include "surfdb/formats/record_file_writer.hpp"
#include "surfdb/table/database.hpp"

using namespace surfdb;
using surfdb::cli::MeshResolution;
using surfdb::cli::SurfaceMesh;
using surfdb::cli::tessellate;
using surfdb::test::relative;

namespace {

constexpr double kPi = std::numbers::pi;

Eigen::Vector3d corner(const SurfaceMesh& m, const std::array<std::uint32_t, 3>& t, int k) { return m.points[t[k]]; }

// Twice the triangle's area along its right-hand normal.
Eigen::Vector3d doubled_area(const SurfaceMesh& m, const std::array<std::uint32_t, 3>& t) {
  return (corner(m, t, 1) - corner(m, t, 0)).cross(corner(m, t, 2) - corner(m, t, 0));
}

double area(const SurfaceMesh& m) {
  double a = 0;
  for (const auto& t : m.triangles) a += 0.5 * doubled_area(m, t).norm();
  return a;
}

// The volume the triangles enclose by the divergence theorem: positive when they wind outwards.
double volume(const SurfaceMesh& m) {
  double v = 0;
  for (const auto& t : m.triangles) v += corner(m, t, 0).dot(corner(m, t, 1).cross(corner(m, t, 2))) / 6;
  return v;
}

// Every triangle of positive area turns its right-hand normal the way its vertices' normals point.
bool wound_with_normals(const SurfaceMesh& m) {
  for (const auto& t : m.triangles) {
    const Eigen::Vector3f n = m.normals[t[0]] + m.normals[t[1]] + m.normals[t[2]];
    const Eigen::Vector3d face = doubled_area(m, t);
    if (face.norm() > 0 && !(face.dot(n.cast<double>()) > 0)) return false;
  }
  return true;
}

// Each directed edge appears once and its reverse once: a closed, consistently wound surface.
bool closed_by_indices(const SurfaceMesh& m) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> edges;
  for (const auto& t : m.triangles)
    for (int k = 0; k < 3; ++k) ++edges[{t[k], t[(k + 1) % 3]}];
  for (const auto& [e, count] : edges)
    if (count != 1 || !edges.contains({e.second, e.first})) return false;
  return true;
}

bool all_vertices(const SurfaceMesh& m, const std::function<bool(const Eigen::Vector3d&, const Eigen::Vector3d&)>& ok) {
  for (std::size_t k = 0; k < m.points.size(); ++k)
    if (!ok(m.points[k], m.normals[k].cast<double>())) return false;
  return true;
}

SurfaceMount turned_mount() {
  SurfaceMount m;
  m.offset = {0.1, -0.2, 0.3};
  m.rotation = Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  return m;
}

ContactSurface primitive(ContactSurface::Kind kind) {
  ContactSurface s;
  s.kind = kind;
  s.mount = turned_mount();
  return s;
}

// Coordinates of a body-axes point in the surface's own axes.
Eigen::Vector3d local(const SurfaceMount& mount, const Eigen::Vector3d& p) {
  return mount.rotation.transpose() * (p - mount.offset);
}

}  // namespace

TEST_CASE("a sphere: vertices at its radius, normals outward, closed, and area and volume approach 4 pi r^2 and 4/3 pi r^3 from below") {
  ContactSurface s = primitive(ContactSurface::Kind::sphere);
  s.radius = 0.01;
  const SurfaceMesh mesh = tessellate(s, 0);
  CHECK(mesh.points.size() == 16 * 7 + 2);
  CHECK(mesh.triangles.size() == 2 * 16 * 7);
  CHECK(all_vertices(mesh, [&](const Eigen::Vector3d& p, const Eigen::Vector3d& n) {
    const Eigen::Vector3d d = p - s.mount.offset;
    return std::abs(d.norm() - s.radius) < 1e-15 && (n - d / s.radius).norm() < 1e-6;
  }));
  CHECK(closed_by_indices(mesh));
  CHECK(wound_with_normals(mesh));
  double previous = 0;
  for (const int around : {8, 16, 32, 64, 128}) {
    const SurfaceMesh m = tessellate(s, 0, {.around = around, .pole_to_pole = around / 2});
    const double a = area(m);
    CHECK(a > previous);
    CHECK(a < 4 * kPi * s.radius * s.radius);
    CHECK(volume(m) > 0);
    CHECK(volume(m) < 4 * kPi / 3 * std::pow(s.radius, 3));
    previous = a;
  }
  CHECK(previous == relative(4 * kPi * s.radius * s.radius, 1e-3));
}

TEST_CASE("a cavity: the cap kept up to cap_height above the lowest point, normals towards the centre") {
  ContactSurface s = primitive(ContactSurface::Kind::cavity);
  s.radius = 0.05;
  SUBCASE("a hemisphere") {
    s.cap_height = 0.05;
    const SurfaceMesh mesh = tessellate(s, 0);
    CHECK(mesh.points.size() == 16 * 4 + 1);  // the bottom pole and four rings, the last the rim
    double highest = -1;
    CHECK(all_vertices(mesh, [&](const Eigen::Vector3d& p, const Eigen::Vector3d& n) {
      const Eigen::Vector3d d = p - s.mount.offset;
      highest = std::max(highest, local(s.mount, p).z());
      return std::abs(d.norm() - s.radius) < 1e-15 && (n + d / s.radius).norm() < 1e-6 &&
             local(s.mount, p).z() <= s.cap_height - s.radius + 1e-15;
    }));
    CHECK(std::abs(highest - (s.cap_height - s.radius)) < 1e-15);  // the rim
    CHECK(wound_with_normals(mesh));
    const SurfaceMesh fine = tessellate(s, 0, {.around = 256, .pole_to_pole = 128});
    CHECK(area(fine) < 2 * kPi * s.radius * s.cap_height);  // a spherical cap's area: 2 pi R h
    CHECK(area(fine) == relative(2 * kPi * s.radius * s.cap_height, 1e-3));
  }
  SUBCASE("the whole sphere when uncapped: closed, wound inwards (negative volume)") {
    const SurfaceMesh mesh = tessellate(s, 0);
    CHECK(mesh.points.size() == 16 * 7 + 2);
    CHECK(closed_by_indices(mesh));
    CHECK(wound_with_normals(mesh));
    CHECK(volume(mesh) < 0);
  }
}

TEST_CASE("a plane: the square of the given half side centred on its point, in the plane, normal along its normal") {
  ContactSurface s = primitive(ContactSurface::Kind::plane);
  s.normal = Eigen::Vector3d(1, 1, 2).normalized();
  const SurfaceMesh mesh = tessellate(s, 0.3);
  REQUIRE(mesh.points.size() == 4);
  const Eigen::Vector3d n = s.mount.rotation * s.normal;
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  for (std::size_t k = 0; k < 4; ++k) {
    CHECK(std::abs((mesh.points[k] - s.mount.offset).dot(n)) < 1e-15);
    CHECK((mesh.normals[k].cast<double>() - n).norm() < 1e-6);
    centre += mesh.points[k] / 4;
  }
  CHECK((centre - s.mount.offset).norm() < 1e-15);
  CHECK(area(mesh) == relative(4 * 0.3 * 0.3, 1e-14));
  CHECK(wound_with_normals(mesh));
}

TEST_CASE("a box: vertices on its faces, normals along the faces' axes, area 2(ab + bc + ca), volume abc") {
  ContactSurface s = primitive(ContactSurface::Kind::box);
  s.half_extents = {0.02, 0.03, 0.05};
  const SurfaceMesh mesh = tessellate(s, 0);
  CHECK(mesh.points.size() == 24);
  CHECK(mesh.triangles.size() == 12);
  const Eigen::Vector3d& h = s.half_extents;
  CHECK(all_vertices(mesh, [&](const Eigen::Vector3d& p, const Eigen::Vector3d& n) {
    const Eigen::Vector3d q = local(s.mount, p), m = s.mount.rotation.transpose() * n;
    int axis;
    m.cwiseAbs().maxCoeff(&axis);  // the face the vertex belongs to
    return std::abs(std::abs(q[axis]) - h[axis]) < 1e-15 && q[axis] * m[axis] > 0 && std::abs(std::abs(m[axis]) - 1) < 1e-6 &&
           (q.cwiseAbs() - h).maxCoeff() < 1e-15;
  }));
  const double a = 2 * h.x(), b = 2 * h.y(), c = 2 * h.z();  // side lengths
  CHECK(area(mesh) == relative(2 * (a * b + b * c + c * a), 1e-14));
  CHECK(volume(mesh) == relative(a * b * c, 1e-12));
  CHECK(wound_with_normals(mesh));
}

TEST_CASE("a cylinder: wall vertices at its radius, bases at half its length, area and volume approaching the closed forms from below") {
  ContactSurface s = primitive(ContactSurface::Kind::cylinder);
  s.radius = 0.01;
  s.length = 0.04;
  const SurfaceMesh mesh = tessellate(s, 0);
  CHECK(all_vertices(mesh, [&](const Eigen::Vector3d& p, const Eigen::Vector3d& n) {
    const Eigen::Vector3d q = local(s.mount, p), m = s.mount.rotation.transpose() * n;
    const double r = std::hypot(q.x(), q.y());
    if (std::abs(m.z()) < 1e-6) return std::abs(r - s.radius) < 1e-15 && std::abs(std::abs(q.z()) - s.length / 2) < 1e-15;
    return std::abs(std::abs(q.z()) - s.length / 2) < 1e-15 && q.z() * m.z() > 0 && r <= s.radius + 1e-15;  // a base
  }));
  CHECK(wound_with_normals(mesh));
  const double exact_area = 2 * kPi * s.radius * (s.radius + s.length), exact_volume = kPi * s.radius * s.radius * s.length;
  double previous = 0;
  for (const int around : {8, 32, 128, 512}) {
    const SurfaceMesh m = tessellate(s, 0, {.around = around});
    CHECK(area(m) > previous);
    CHECK(area(m) < exact_area);
    CHECK(volume(m) < exact_volume);
    previous = area(m);
  }
  CHECK(previous == relative(exact_area, 1e-4));
  SUBCASE("a cylindrical cavity: the same vertices, normals and winding turned inwards") {
    s.kind = ContactSurface::Kind::cylinder_cavity;
    const SurfaceMesh cavity = tessellate(s, 0);
    REQUIRE(cavity.points.size() == mesh.points.size());
    for (std::size_t k = 0; k < mesh.points.size(); ++k) {
      CHECK(cavity.points[k] == mesh.points[k]);
      CHECK(cavity.normals[k] == -mesh.normals[k]);
    }
    CHECK(wound_with_normals(cavity));
    CHECK(volume(cavity) == relative(-volume(mesh), 1e-12));
  }
}

TEST_CASE("plane_half_side: twice the farthest reach of the other surfaces' spheres, 1 m with none") {
  const std::vector<Sphere> others{{{0.3, 0, 0.4}, 0.1}, {{0, 0.1, 0}, 0.05}};
  CHECK(cli::plane_half_side(Eigen::Vector3d::Zero(), others) == relative(2 * (0.5 + 0.1), 1e-15));
  CHECK(cli::plane_half_side(Eigen::Vector3d::Zero(), {}) == 1.0);
}

namespace {

// A flat table in the file's xy plane (mm): node (i, j) at (i, j, 0) with the normal +z, in
// records of `record` x `record` nodes; `invalid(i, j)` marks the nodes trimmed away.
std::shared_ptr<const TableSet> flat_table(const std::filesystem::path& path, std::uint64_t nu, std::uint64_t nv,
                                           std::uint32_t record,
                                           const std::function<bool(std::uint64_t, std::uint64_t)>& invalid) {
  Header h;
  h.layout = RecordLayout::make(nu, nv, record, record, kColumnsV1.size(), 8);
  h.columns.assign(kColumnsV1.begin(), kColumnsV1.end());
  h.u1 = static_cast<double>(nu - 1), h.v1 = static_cast<double>(nv - 1), h.du = h.dv = 1;
  const RecordLayout& l = h.layout;
  RecordFileWriter writer(path, l);
  std::vector<double> values(l.record_bytes / 8);
  for (std::uint64_t ti = 0; ti < l.u_records; ++ti)
    for (std::uint64_t tj = 0; tj < l.v_records; ++tj) {
      std::fill(values.begin(), values.end(), 0.0);
      for (std::uint64_t li = 0; li < l.u_record_points; ++li)
        for (std::uint64_t lj = 0; lj < l.v_record_points; ++lj) {
          const std::uint64_t i = ti * l.u_record_points + li, j = tj * l.v_record_points + lj;
          if (i >= nu || j >= nv) continue;  // padding
          const double node[] = {double(i), double(j), double(i), double(j), 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0,
                                 invalid(i, j) ? 0.0 : 1.0};  // u, v, point, normal, tangent, bitangent, |su|, |sv|, k1, k2, flags
          std::copy(std::begin(node), std::end(node), values.begin() + (li * l.v_record_points + lj) * l.column_count);
          h.invalid_points += invalid(i, j);
        }
      writer.write_record({reinterpret_cast<const std::uint8_t*>(values.data()), l.record_bytes});
    }
  writer.commit(h);
  return TableSet::single(Database::open(path));
}

}  // namespace

TEST_CASE("a table: a vertex per valid node, no cell with an invalid corner, at most 150 x 150 nodes per face") {
  test::TempDir dir;
  ContactSurface s;
  s.kind = ContactSurface::Kind::table;
  s.mount = turned_mount();
  const Eigen::Vector3d up = s.mount.rotation * Eigen::Vector3d::UnitZ();
  SUBCASE("every node drawn; the four cells round an invalid node left out") {
    s.tables = flat_table(dir / "small.sdb", 5, 5, 2, [](auto i, auto j) { return i == 2 && j == 2; });
    const SurfaceMesh mesh = tessellate(s, 0);
    CHECK(mesh.points.size() == 24);
    CHECK(mesh.triangles.size() == 2 * (16 - 4));
    CHECK(area(mesh) == relative(12 * 1e-6, 1e-12));  // 12 cells of 1 mm x 1 mm
    CHECK(all_vertices(mesh, [&](const Eigen::Vector3d& p, const Eigen::Vector3d& n) {
      const Eigen::Vector3d q = local(s.mount, p) / 1e-3;  // mm
      return std::abs(q.z()) < 1e-12 && std::abs(q.x() - std::round(q.x())) < 1e-9 && (n - up).norm() < 1e-6;
    }));
    CHECK(wound_with_normals(mesh));
  }
  SUBCASE("a large face subsampled: its corners kept, the whole rectangle covered") {
    s.tables = flat_table(dir / "large.sdb", 999, 400, 27, [](auto, auto) { return false; });
    const SurfaceMesh mesh = tessellate(s, 0);
    CHECK(mesh.points.size() <= 150 * 150);
    CHECK(mesh.points.size() >= 100 * 100);
    CHECK(area(mesh) == relative(998 * 399 * 1e-6, 1e-12));
    Eigen::Vector3d low = Eigen::Vector3d::Constant(INFINITY), high = -low;
    for (const Eigen::Vector3d& p : mesh.points) low = low.cwiseMin(local(s.mount, p)), high = high.cwiseMax(local(s.mount, p));
    CHECK((low - Eigen::Vector3d::Zero()).norm() < 1e-12);
    CHECK((high - Eigen::Vector3d(0.998, 0.399, 0)).norm() < 1e-12);
  }
}
