#include "animation_mesh.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "surfdb/contact/mesh_from_tables.hpp"
#include "surfdb/table/database.hpp"

namespace surfdb::cli {
namespace {

constexpr double kPi = std::numbers::pi;

// Adds vertices given in a surface's own axes (its mount's) to a mesh in body axes, and triangles
// wound counter-clockwise about their vertices' normals.
class MeshBuilder {
 public:
  MeshBuilder(SurfaceMesh& mesh, const SurfaceMount& mount) : mesh_(mesh), mount_(mount) {}

  /// The index the next vertex will have.
  std::uint32_t next() const { return static_cast<std::uint32_t>(mesh_.points.size()); }

  /// A vertex at `point` (m) with the unit `normal`, both in the surface's axes; its index.
  std::uint32_t vertex(const Eigen::Vector3d& point, const Eigen::Vector3d& normal) {
    mesh_.points.push_back(mount_.offset + mount_.rotation * point);
    mesh_.normals.push_back((mount_.rotation * normal).cast<float>());
    return static_cast<std::uint32_t>(mesh_.points.size() - 1);
  }

  /// The triangle abc, turned over when its right-hand normal points against its vertices'.
  void triangle(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    const auto& p = mesh_.points;
    const Eigen::Vector3d face = (p[b] - p[a]).cross(p[c] - p[a]);
    const Eigen::Vector3f n = mesh_.normals[a] + mesh_.normals[b] + mesh_.normals[c];
    if (face.dot(n.cast<double>()) < 0) std::swap(b, c);
    mesh_.triangles.push_back({a, b, c});
  }

  /// The quadrilateral abcd (in order around it) as two triangles.
  void quad(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
    triangle(a, b, c);
    triangle(a, c, d);
  }

 private:
  SurfaceMesh& mesh_;
  const SurfaceMount& mount_;
};

// The polar angle (rad, from the sphere's -z pole) up to which a cavity keeps its wall: the cap
// of `cap_height` above its lowest point (contact_sphere_in_sphere's rim), the whole sphere at
// 2 radius or more.
double cap_angle(double radius, double cap_height) {
  const double c = 1 - cap_height / radius;  // cosine of the rim's polar angle
  return c <= -1 ? kPi : std::acos(c);
}

// The zone of the sphere of `radius` about the surface origin between its -z pole and the polar
// angle theta_max (rad, from that pole; pi for the whole sphere): a vertex at each pole the zone
// holds and rings of resolution.around vertices between. `outward` is +1 for a ball, -1 for a
// cavity (normals towards the centre).
void add_spherical_zone(MeshBuilder& m, double radius, double theta_max, double outward, const MeshResolution& r) {
  const bool whole = theta_max >= kPi;
  const int segments = std::max(1, static_cast<int>(std::ceil(r.pole_to_pole * theta_max / kPi)));
  const int rings = whole ? segments - 1 : segments;  // the last one is the rim of a cap
  const auto on_sphere = [&](const Eigen::Vector3d& direction) {
    return m.vertex(radius * direction, outward * direction);
  };
  const std::uint32_t bottom = on_sphere(-Eigen::Vector3d::UnitZ());
  std::uint32_t ring = 0;  // first vertex of the latest ring
  for (int k = 1; k <= rings; ++k) {
    const double theta = theta_max * k / segments;
    const std::uint32_t first = m.next();
    for (int a = 0; a < r.around; ++a) {
      const double phi = 2 * kPi * a / r.around;
      on_sphere({std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), -std::cos(theta)});
    }
    for (int a = 0; a < r.around; ++a) {
      const auto here = static_cast<std::uint32_t>(a), next = static_cast<std::uint32_t>((a + 1) % r.around);
      if (k == 1) m.triangle(bottom, first + here, first + next);
      else m.quad(ring + here, ring + next, first + next, first + here);
    }
    ring = first;
  }
  if (!whole) return;
  const std::uint32_t top = on_sphere(Eigen::Vector3d::UnitZ());
  for (int a = 0; a < r.around; ++a)
    m.triangle(top, ring + static_cast<std::uint32_t>(a), ring + static_cast<std::uint32_t>((a + 1) % r.around));
}

// The cylinder of `radius` and `length` along the surface z axis, centred on the origin, closed by
// its two bases (each with vertices of its own, for a sharp edge). `outward` is +1 for a solid
// cylinder, -1 for a cylindrical cavity.
void add_cylinder(MeshBuilder& m, double radius, double length, double outward, int around) {
  const Eigen::Vector3d half = 0.5 * length * Eigen::Vector3d::UnitZ();
  const auto radial = [&](int a) {
    const double phi = 2 * kPi * a / around;
    return Eigen::Vector3d(std::cos(phi), std::sin(phi), 0);
  };
  const std::uint32_t wall = m.next();  // vertices low and high along z at each angle
  for (int a = 0; a < around; ++a) {
    m.vertex(radius * radial(a) - half, outward * radial(a));
    m.vertex(radius * radial(a) + half, outward * radial(a));
  }
  for (int a = 0; a < around; ++a) {
    const std::uint32_t low = wall + static_cast<std::uint32_t>(2 * a);
    const std::uint32_t next = wall + static_cast<std::uint32_t>(2 * ((a + 1) % around));
    m.quad(low, next, next + 1, low + 1);
  }
  for (const double end : {-1.0, 1.0}) {
    const Eigen::Vector3d normal = outward * end * Eigen::Vector3d::UnitZ();
    const std::uint32_t centre = m.vertex(end * half, normal);
    for (int a = 0; a < around; ++a) m.vertex(radius * radial(a) + end * half, normal);
    for (int a = 0; a < around; ++a) {
      const auto here = static_cast<std::uint32_t>(a), next = static_cast<std::uint32_t>((a + 1) % around);
      m.triangle(centre, centre + 1 + here, centre + 1 + next);
    }
  }
}

// The box of half extents h along the surface axes, centred on the origin: four vertices per face.
void add_box(MeshBuilder& m, const Eigen::Vector3d& h) {
  for (int a = 0; a < 3; ++a)
    for (const double side : {-1.0, 1.0}) {
      const int b = (a + 1) % 3, c = (a + 2) % 3;
      const Eigen::Vector3d normal = side * Eigen::Vector3d::Unit(a);
      const Eigen::Vector3d along_b = h[b] * Eigen::Vector3d::Unit(b), along_c = h[c] * Eigen::Vector3d::Unit(c);
      const auto corner = [&](double sb, double sc) {
        return m.vertex(h[a] * normal + sb * along_b + sc * along_c, normal);
      };
      m.quad(corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1));
    }
}

// The square of half side `half` centred on the surface origin, across `normal` (surface axes).
void add_square(MeshBuilder& m, const Eigen::Vector3d& normal, double half) {
  const Eigen::Vector3d n = normal.normalized(), e1 = n.unitOrthogonal(), e2 = n.cross(e1);
  const auto corner = [&](double s1, double s2) { return m.vertex(half * (s1 * e1 + s2 * e2), n); };
  m.quad(corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1));
}

// One table face from its drawn grid nodes (face_grid: a vertex per valid node, two triangles per
// cell of the drawn grid whose four corners are valid), scaled to m.
void add_table_face(MeshBuilder& m, const Database& db, double meters_per_unit, int most) {
  const RecordLayout& l = db.header().layout;
  const FaceGrid grid = face_grid(db, grid_lines(l.u_points, static_cast<std::uint64_t>(most)), grid_lines(l.v_points, static_cast<std::uint64_t>(most)), false);
  const std::uint32_t first = m.next();
  for (std::size_t k = 0; k < grid.points.size(); ++k) m.vertex(meters_per_unit * grid.points[k], grid.normals[k]);
  for (const auto& t : grid.triangles) m.triangle(first + t[0], first + t[1], first + t[2]);
}

// A triangle mesh as it is, each triangle with its own three vertices and flat normal.
void add_triangle_mesh(MeshBuilder& m, const TriangleMesh& mesh) {
  for (std::size_t t = 0; t < mesh.size(); ++t) {
    const Eigen::Vector3d& n = mesh.normal(t);
    const std::uint32_t a = m.vertex(mesh.corner(t, 0), n), b = m.vertex(mesh.corner(t, 1), n);
    m.triangle(a, b, m.vertex(mesh.corner(t, 2), n));
  }
}

}  // namespace

SurfaceMesh tessellate(const ContactSurface& surface, double plane_half_side, const MeshResolution& resolution) {
  using Kind = ContactSurface::Kind;
  SurfaceMesh mesh;
  MeshBuilder m(mesh, surface.mount);
  switch (surface.kind) {
    case Kind::table:
      for (const TableFace& face : surface.tables->faces())
        add_table_face(m, *face.table, surface.tables->meters_per_unit(), resolution.table_nodes);
      break;
    case Kind::sphere: add_spherical_zone(m, surface.radius, kPi, 1, resolution); break;
    case Kind::cavity:
      add_spherical_zone(m, surface.radius, cap_angle(surface.radius, surface.cap_height), -1, resolution);
      break;
    case Kind::plane: add_square(m, surface.normal, plane_half_side); break;
    case Kind::box: add_box(m, surface.half_extents); break;
    case Kind::cylinder: add_cylinder(m, surface.radius, surface.length, 1, resolution.around); break;
    case Kind::cylinder_cavity: add_cylinder(m, surface.radius, surface.length, -1, resolution.around); break;
    case Kind::mesh: add_triangle_mesh(m, *surface.mesh); break;
  }
  return mesh;
}

double plane_half_side(const Eigen::Vector3d& point, std::span<const Sphere> others) {
  double reach = 0;
  for (const Sphere& s : others) reach = std::max(reach, (s.centre - point).norm() + s.radius);
  return reach > 0 ? 2 * reach : 1.0;
}

}  // namespace surfdb::cli
