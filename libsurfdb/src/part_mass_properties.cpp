// A part's mass properties from its solids' volume integrals (BRepGProp), and its principal axes.
#include <BRepGProp.hxx>
#include <GProp_GProps.hxx>
#include <TopExp.hxx>
#include <TopTools_IndexedMapOfShape.hxx>

#include <Eigen/Eigenvalues>
#include <cmath>

#include "cad_assembly_impl.hpp"
#include "cad_model_faces.hpp"

namespace surfdb {
namespace {

constexpr double kIntegrationTolerance = 1e-12;  // relative, of BRepGProp's adaptive integration
constexpr double kEqualMoments = 1e-9;            // relative: moments this close share a plane of axes

// The part axis nearest to the plane spanned by the unit vectors `plane_a`, `plane_b`, projected
// into it: a deterministic choice of axes where moments repeat.
Eigen::Vector3d nearest_part_axis_in_plane(const Eigen::Vector3d& plane_a, const Eigen::Vector3d& plane_b) {
  Eigen::Vector3d best = plane_a;
  double best_norm = -1;
  for (int k = 0; k < 3; ++k) {
    const Eigen::Vector3d e = Eigen::Vector3d::Unit(k);
    const Eigen::Vector3d projected = e.dot(plane_a) * plane_a + e.dot(plane_b) * plane_b;
    if (projected.norm() > best_norm + 1e-12) {
      best_norm = projected.norm();
      best = projected;
    }
  }
  return best.normalized();
}

// Each axis turned so that its largest component is positive, the last one then made right-handed.
Eigen::Matrix3d oriented_axes(Eigen::Matrix3d axes) {
  for (int c = 0; c < 3; ++c) {
    Eigen::Index largest = 0;
    axes.col(c).cwiseAbs().maxCoeff(&largest);
    if (axes(largest, c) < 0) axes.col(c) = -axes.col(c);
  }
  axes.col(2) = axes.col(0).cross(axes.col(1));
  return axes;
}

// Ascending moments and their axes; repeated moments take the part's own axes in their plane.
void principal_axes(MassProperties& m) {
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver(m.inertia);
  m.principal_moments = solver.eigenvalues();
  Eigen::Matrix3d axes = solver.eigenvectors();
  const Eigen::Vector3d& I = m.principal_moments;
  const double scale = I.cwiseAbs().maxCoeff();
  const bool low_pair = I[1] - I[0] <= kEqualMoments * scale, high_pair = I[2] - I[1] <= kEqualMoments * scale;
  if (low_pair && high_pair) {
    axes = Eigen::Matrix3d::Identity();
  } else if (low_pair || high_pair) {
    const int a = low_pair ? 0 : 1;
    const Eigen::Vector3d first = nearest_part_axis_in_plane(axes.col(a), axes.col(a + 1));
    const Eigen::Vector3d single = axes.col(low_pair ? 2 : 0);
    axes.col(a) = first;
    axes.col(a + 1) = single.cross(first).normalized();
  }
  m.principal_axes = oriented_axes(axes);
  if (m.principal_axes.determinant() < 0) m.principal_axes.col(2) = -m.principal_axes.col(2);
}

}  // namespace

GProp_GProps closed_solids_properties(const TopoDS_Shape& shape, std::uint32_t& solids) {
  GProp_GProps total;
  TopTools_IndexedMapOfShape map;
  TopExp::MapShapes(shape, TopAbs_SOLID, map);
  solids = 0;
  for (int k = 1; k <= map.Extent(); ++k) {
    if (!closed_solid(map(k))) continue;
    GProp_GProps props;
    BRepGProp::VolumeProperties(map(k), props, kIntegrationTolerance, /*OnlyClosed=*/true);
    total.Add(props);
    ++solids;
  }
  return total;
}

namespace {

// Mass properties of integrals `total` (file length unit, unit density or areal density) scaled
// to `scale` kg per unit of its measure (volume or area); `dimension` 3 or 2.
MassProperties scaled(const GProp_GProps& total, double scale, int dimension, double m_per_unit) {
  MassProperties m;
  m.volume = dimension == 3 ? total.Mass() * std::pow(m_per_unit, 3) : 0;
  m.mass = scale * total.Mass() * std::pow(m_per_unit, dimension);
  const gp_Pnt c = total.CentreOfMass();
  m.centre = Eigen::Vector3d(c.X(), c.Y(), c.Z()) * m_per_unit;
  const gp_Mat I = total.MatrixOfInertia();  // about the centre, length^(dimension + 2)
  for (int r = 0; r < 3; ++r)
    for (int col = 0; col < 3; ++col)
      m.inertia(r, col) = I.Value(r + 1, col + 1) * scale * std::pow(m_per_unit, dimension + 2);
  m.inertia = 0.5 * (m.inertia + m.inertia.transpose());
  principal_axes(m);
  return m;
}

}  // namespace

std::optional<SetMassFrame> CadModel::mass_frame() const {
  std::uint32_t solids = 0;
  const GProp_GProps total = closed_solids_properties(CadModelFaces::shape(*this), solids);
  if (solids == 0 || !(total.Mass() > 0)) return std::nullopt;
  const MassProperties m = scaled(total, 1.0, 3, 1.0);  // unit density, the part's unit
  SetMassFrame f;
  f.volume = m.volume;
  for (int k = 0; k < 3; ++k) {
    f.centre[static_cast<std::size_t>(k)] = m.centre[k];
    f.moments[static_cast<std::size_t>(k)] = m.principal_moments[k];
    for (int c = 0; c < 3; ++c) f.axes[static_cast<std::size_t>(k)][static_cast<std::size_t>(c)] = m.principal_axes(c, k);
  }
  return f;
}

MassProperties CadAssembly::mass_properties_for_mass(std::uint32_t part, double mass) const {
  const AssemblyPart& p = impl_->parts.at(part);
  if (!(std::isfinite(mass) && mass > 0))
    throw CadError("part '" + p.name + "': mass " + std::to_string(mass) + " kg: must be positive and finite");
  if (p.solids > 0) return mass_properties(part, mass / (p.volume * std::pow(meters_per(unit()), 3)));
  GProp_GProps total;
  BRepGProp::SurfaceProperties(impl_->shapes[part], total, kIntegrationTolerance);
  if (!(total.Mass() > 0)) throw CadError("part '" + p.name + "' of " + file_name() + " has no area to spread a mass over");
  return scaled(total, mass / (total.Mass() * std::pow(meters_per(unit()), 2)), 2, meters_per(unit()));
}

MassProperties CadAssembly::mass_properties(std::uint32_t part, double density) const {
  const AssemblyPart& p = impl_->parts.at(part);
  if (!(std::isfinite(density) && density > 0))
    throw CadError("part '" + p.name + "': density " + std::to_string(density) + " kg/m^3: must be positive and finite");
  if (p.solids == 0)
    throw CadError("part '" + p.name + "' of " + file_name() + " has no closed solid (a surface model): its mass properties " +
                   "cannot be computed from a density; give its mass");
  std::uint32_t solids = 0;
  const GProp_GProps total = closed_solids_properties(impl_->shapes[part], solids);
  const MassProperties m = scaled(total, density, 3, meters_per(unit()));
  if (!(m.volume > 0))
    throw CadError("part '" + p.name + "' of " + file_name() + ": its solids enclose no positive volume (inside out?)");
  return m;
}

}  // namespace surfdb
