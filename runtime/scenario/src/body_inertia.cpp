// A body's inertia about its centre of mass in body axes, as [[body]] gives it: principal moments
// (the body axes are principal), principal moments with `principal_axes` (rows: the axes of the
// moments in body axes), or the full symmetric tensor (three rows, products of inertia
// negative, as CAD systems print it). Whichever form, the tensor's eigenvalues must be positive
// and obey the triangle inequality. A body given a `density` instead takes both from its one
// solid analytic surface (sphere, box, cylinder) centred at its centre of mass, or from its one
// surface set placed at its part's frame (placement = "part": the set's mass frame).
#include <Eigen/Eigenvalues>
#include <cmath>

#include "scenario_reader.hpp"

namespace surfdb {
namespace {

constexpr double kSymmetryTolerance = 1e-9;  // relative to the largest entry

Matrix3d tensor_rows(const Reader& r, const toml::table& b, const std::string& where) {
  const toml::node& node = *b.get("inertia");
  const toml::array* rows = node.as_array();
  Matrix3d m;
  for (int i = 0; i < 3; ++i) {
    const toml::array* row = (*rows)[static_cast<std::size_t>(i)].as_array();
    if (!row || row->size() != 3) r.fail(node, where + ".inertia", "a tensor must be three rows of three numbers");
    for (int j = 0; j < 3; ++j) {
      const auto v = (*row)[static_cast<std::size_t>(j)].value<double>();
      if (!v || !std::isfinite(*v)) r.fail(node, where + ".inertia", "must hold finite numbers");
      m(i, j) = *v;
    }
  }
  if ((m - m.transpose()).cwiseAbs().maxCoeff() > kSymmetryTolerance * m.cwiseAbs().maxCoeff())
    r.fail(node, where + ".inertia", "the inertia tensor must be symmetric");
  return 0.5 * (m + m.transpose());
}

constexpr double kPi = 3.14159265358979323846;

// Mass (kg) and inertia about the centre in the surface's axes of a solid of unit density.
std::pair<double, Vector3d> unit_density_solid(const ContactSurface& s) {
  using Kind = ContactSurface::Kind;
  if (s.kind == Kind::sphere) {
    const double m = 4.0 / 3.0 * kPi * std::pow(s.radius, 3);
    return {m, Vector3d::Constant(0.4 * m * s.radius * s.radius)};
  }
  if (s.kind == Kind::box) {
    const Vector3d e = 2 * s.half_extents;
    const double m = e.prod();
    return {m, m / 12 * Vector3d(e[1] * e[1] + e[2] * e[2], e[0] * e[0] + e[2] * e[2], e[0] * e[0] + e[1] * e[1])};
  }
  const double r2 = s.radius * s.radius, m = kPi * r2 * s.length;  // a cylinder along z
  const double across = m * (3 * r2 + s.length * s.length) / 12;
  return {m, Vector3d(across, across, m * r2 / 2)};
}

}  // namespace

void ScenarioReader::apply_densities() {
  using Kind = ContactSurface::Kind;
  for (const auto& [index, table] : density_bodies_) {
    RigidBody& body = s_.model.bodies[static_cast<std::size_t>(index)];
    const std::string where = "body '" + body.name + "'";
    const toml::node& key = *table->get("density");
    const ContactSurface* solid = nullptr;
    int solid_index = -1;
    for (std::size_t k = 0; k < s_.surfaces.size(); ++k) {
      const ContactSurface& s = s_.surfaces[k];
      if (s.body != index) continue;
      const bool shape = s.kind == Kind::sphere || s.kind == Kind::box || s.kind == Kind::cylinder ||
                         part_placed_.count(static_cast<int>(k));
      if (!shape || solid)
        r_.fail(key, where + ".density",
                "needs the body's one surface to be a solid sphere, box or cylinder, or a part's set placed at its frame "
                "(placement = \"part\") ('" + s.name + "' is another)");
      solid = &s;
      solid_index = static_cast<int>(k);
    }
    if (!solid)
      r_.fail(key, where + ".density", "needs a sphere, box or cylinder surface, or a part's set with placement = \"part\"");
    const double density = r_.positive(*table, "density", where);
    if (part_placed_.count(solid_index)) {  // the body's axes are the part's principal axes
      const SetMassFrame& f = *solid->tables->mass_frame();
      const double unit = solid->tables->meters_per_unit();
      body.mass = density * f.volume * std::pow(unit, 3);
      body.inertia = (density * std::pow(unit, 5) * Vector3d(f.moments[0], f.moments[1], f.moments[2])).asDiagonal();
      continue;
    }
    if (solid->mount.offset.norm() > 0)
      r_.fail(key, where + ".density",
              "the surface '" + solid->name + "' must be centred at the body's centre of mass (origin = [0, 0, 0])");
    const auto [mass, moments] = unit_density_solid(*solid);
    body.mass = density * mass;
    body.inertia = solid->mount.rotation * (density * moments).asDiagonal() * solid->mount.rotation.transpose();
  }
}

Matrix3d read_body_inertia(const Reader& r, const toml::table& b, const std::string& where) {
  const toml::node* node = b.get("inertia");
  const toml::array* array = node ? node->as_array() : nullptr;
  const bool tensor = array && array->size() == 3 && (*array)[0].is_array();
  Matrix3d inertia;
  if (tensor) {
    if (b.get("principal_axes"))
      r.fail(*b.get("principal_axes"), where + ".principal_axes", "goes with principal moments, not with a full tensor");
    inertia = tensor_rows(r, b, where);
  } else {
    const Vector3d moments = r.vec3(b, "inertia", where);
    const Matrix3d axes = rotation_from(r, b, "principal_axes", where);  // rows: the moments' axes
    inertia = axes.transpose() * moments.asDiagonal() * axes;
  }
  const Vector3d moments = Eigen::SelfAdjointEigenSolver<Matrix3d>(inertia, Eigen::EigenvaluesOnly).eigenvalues();
  if (!(moments.minCoeff() > 0))
    r.fail(*node, where + ".inertia", "principal moments must be positive (a singular inertia)");
  if (moments[2] > moments[0] + moments[1])
    r.fail(*node, where + ".inertia", "violates the triangle inequality of principal moments");
  return inertia;
}

}  // namespace surfdb
