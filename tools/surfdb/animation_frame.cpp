#include "animation_frame.hpp"

#include <numeric>
#include <optional>

#include "surfdb/multibody/multibody_state.hpp"
#include "surfdb/multibody/welded_bodies.hpp"
#include "vtk_xml.hpp"

namespace surfdb::cli {
namespace {

// Body `body`'s pose in state y; the ground's is the world frame.
Pose pose_of(const double* y, int body) {
  if (body == kGround) return {};
  const BodyStateView view = body_view(y, body);
  return {view.r(), view.orientation().toRotationMatrix()};
}

// A sphere (world) holding the surface at the pose of its body; none for a plane.
std::optional<Sphere> world_extent(const ContactSurface& s, const Pose& pose) {
  switch (s.kind) {
    case ContactSurface::Kind::plane: return std::nullopt;
    case ContactSurface::Kind::cavity: return Sphere{pose.r + pose.A * s.mount.offset, s.radius};
    default: return Sphere{pose.r + pose.A * s.bounding_centre(), s.bounding_radius()};
  }
}

template <class T>
std::span<const T> values(const std::vector<T>& v) {
  return {v.data(), v.size()};
}

// A matrix's coefficients as they lie in memory.
template <class Matrix>
std::span<const std::byte> bytes_of(const Matrix& m) {
  return std::as_bytes(std::span(m.data(), static_cast<std::size_t>(m.size())));
}

// The surfaces as glTF meshes: one per body that moves, in its axes, and the ground's with those
// of the bodies welded to it, in the world at their state y0.
std::vector<GltfAnimation::Mesh> gltf_meshes(const Simulation& sim, const double* y0, const std::vector<SurfaceMesh>& meshes,
                                             const std::vector<int>& weld) {
  const std::vector<ContactSurface>& surfaces = sim.surfaces();
  std::vector<GltfAnimation::Mesh> out(sim.model().bodies.size() + 1);  // the ground first
  out[0].name = "ground";
  for (std::size_t b = 1; b < out.size(); ++b) out[b].name = sim.model().bodies[b - 1].name, out[b].body = static_cast<int>(b) - 1;
  for (std::size_t k = 0; k < surfaces.size(); ++k) {
    const int body = surfaces[k].body;
    const bool still = weld[static_cast<std::size_t>(body + 1)] == kGround;
    GltfAnimation::Mesh& m = out[still ? 0 : static_cast<std::size_t>(body + 1)];
    const Pose pose = still ? pose_of(y0, body) : Pose{};
    const auto first = static_cast<std::uint32_t>(m.points.size());
    for (std::size_t p = 0; p < meshes[k].points.size(); ++p) {
      m.points.push_back((pose.r + pose.A * meshes[k].points[p]).cast<float>());
      m.normals.push_back(pose.A.cast<float>() * meshes[k].normals[p]);
    }
    for (const auto& triangle : meshes[k].triangles)
      for (const std::uint32_t v : triangle) m.indices.push_back(first + v);
  }
  return out;
}

}  // namespace

AnimationFrame::AnimationFrame(const Simulation& sim, const double* y0) {
  const std::vector<ContactSurface>& surfaces = sim.surfaces();
  std::vector<Sphere> extents;
  for (const ContactSurface& s : surfaces)
    if (const std::optional<Sphere> e = world_extent(s, pose_of(y0, s.body))) extents.push_back(*e);
  std::vector<SurfaceMesh> meshes;
  std::vector<std::size_t> on_bodies, on_ground;  // on the ground: its own and those of bodies welded to it
  const std::vector<int> weld = weld_clusters(sim.model());
  for (std::size_t k = 0; k < surfaces.size(); ++k) {
    const ContactSurface& s = surfaces[k];
    const Pose pose = pose_of(y0, s.body);
    const bool plane = s.kind == ContactSurface::Kind::plane;
    const double half_side = plane ? plane_half_side(pose.r + pose.A * s.mount.offset, extents) : 0;
    meshes.push_back(tessellate(s, half_side));
    (weld[static_cast<std::size_t>(s.body + 1)] == kGround ? on_ground : on_bodies).push_back(k);
  }
  bodies_.make(surfaces, meshes, on_bodies);
  ground_.make(surfaces, meshes, on_ground);
  if (!on_ground.empty()) ground_.write(y0, ground_text_);
  gltf_ = GltfAnimation(gltf_meshes(sim, y0, meshes, weld));
}

void AnimationFrame::Layer::make(const std::vector<ContactSurface>& surfaces, const std::vector<SurfaceMesh>& meshes,
                                 const std::vector<std::size_t>& which) {
  Eigen::Index points = 0;
  std::size_t triangles = 0;
  for (const std::size_t k : which) {
    points += static_cast<Eigen::Index>(meshes[k].points.size());
    triangles += meshes[k].triangles.size();
  }
  body_points_.resize(3, points), world_points_.resize(3, points);
  body_normals_.resize(3, points), world_normals_.resize(3, points);
  std::vector<std::int32_t> connectivity, surface_of, body_of;  // per triangle: 3 vertices, 1, 1
  connectivity.reserve(3 * triangles), surface_of.reserve(triangles), body_of.reserve(triangles);
  Eigen::Index begin = 0;
  for (const std::size_t k : which) {
    const SurfaceMesh& mesh = meshes[k];
    const auto count = static_cast<Eigen::Index>(mesh.points.size());
    placements_.push_back({surfaces[k].body, begin, count});
    for (Eigen::Index p = 0; p < count; ++p) {
      body_points_.col(begin + p) = mesh.points[static_cast<std::size_t>(p)];
      body_normals_.col(begin + p) = mesh.normals[static_cast<std::size_t>(p)];
    }
    for (const auto& triangle : mesh.triangles) {
      for (const std::uint32_t v : triangle) connectivity.push_back(static_cast<std::int32_t>(begin + v));
      surface_of.push_back(static_cast<std::int32_t>(k));
      body_of.push_back(surfaces[k].body);
    }
    begin += count;
  }
  make_text(connectivity, surface_of, body_of);
}

// The text before the normals, between the normals and the points, and after the points.
void AnimationFrame::Layer::make_text(std::span<const std::int32_t> connectivity,
                                      std::span<const std::int32_t> surface_of, std::span<const std::int32_t> body_of) {
  const std::size_t triangles = surface_of.size();
  std::vector<std::int32_t> offsets(triangles);
  for (std::size_t k = 0; k < triangles; ++k) offsets[k] = static_cast<std::int32_t>(3 * (k + 1));
  vtk::append_poly_data_start(before_normals_, static_cast<std::size_t>(body_points_.cols()), 0, triangles);
  before_normals_.append("      <PointData Normals=\"Normals\">\n");
  vtk::append_array_start<float>(before_normals_, "Normals", 3);
  vtk::append_array_end(before_points_);
  before_points_.append("      </PointData>\n      <CellData Scalars=\"body\">\n");
  vtk::append_array(before_points_, "surface", 1, surface_of);
  vtk::append_array(before_points_, "body", 1, body_of);
  before_points_.append("      </CellData>\n      <Points>\n");
  vtk::append_array_start<double>(before_points_, "Points", 3);
  vtk::append_array_end(after_points_);
  after_points_.append("      </Points>\n      <Polys>\n");
  vtk::append_array(after_points_, "connectivity", 1, connectivity);
  vtk::append_array(after_points_, "offsets", 1, values(offsets));
  after_points_.append("      </Polys>\n");
  vtk::append_poly_data_end(after_points_);
}

void AnimationFrame::Layer::write(const double* y, std::string& out) {
  for (const Placement& p : placements_) {
    const Pose pose = pose_of(y, p.body);
    auto points = world_points_.middleCols(p.begin, p.count);
    auto normals = world_normals_.middleCols(p.begin, p.count);
    points.noalias() = pose.A * body_points_.middleCols(p.begin, p.count);
    points.colwise() += pose.r;
    normals.noalias() = pose.A.cast<float>() * body_normals_.middleCols(p.begin, p.count);
  }
  out.assign(before_normals_);
  vtk::append_binary(out, bytes_of(world_normals_));
  out.append(before_points_);
  vtk::append_binary(out, bytes_of(world_points_));
  out.append(after_points_);
}

const std::string& AnimationFrame::surfaces(const double* y) {
  bodies_.write(y, text_);
  return text_;
}

void AnimationFrame::append_contact_point(int contact, const ContactResult& result, const ContactForces& forces) {
  const auto append = [](std::vector<double>& to, const Eigen::Vector3d& v) {
    to.insert(to.end(), v.data(), v.data() + 3);
  };
  append(contact_points_, 0.5 * (result.point_i + result.point_j));
  append(normal_forces_, forces.normal * result.normal);
  append(friction_forces_, forces.tangential);
  indentations_.push_back(result.indentation);
  contact_of_.push_back(contact);
}

void AnimationFrame::append_element(int contact, const ContactElement& element) {
  const auto append = [](std::vector<double>& to, const Eigen::Vector3d& v) {
    to.insert(to.end(), v.data(), v.data() + 3);
  };
  append(contact_points_, element.point);
  append(normal_forces_, element.normal_force * element.normal);
  append(friction_forces_, element.friction_force);
  indentations_.push_back(element.penetration);
  contact_of_.push_back(contact);
}

const std::string& AnimationFrame::contacts(const Simulation& sim) {
  for (auto* v : {&contact_points_, &normal_forces_, &friction_forces_, &indentations_}) v->clear();
  contact_of_.clear();
  for (std::size_t c = 0; c < sim.contacts().size(); ++c)
    sim.contacts()[c].for_each_pair([&](const ContactPair& pair) {
      const std::span<const ContactResult> results = pair.results();
      for (std::size_t k = 0; k < results.size(); ++k)
        if (pair.active(k)) append_contact_point(static_cast<int>(c), results[k], pair.forces(k));
      if (const PolygonalContact* areal = pair.areal_contact())
        for (const ContactElement& e : areal->elements()) append_element(static_cast<int>(c), e);
    });
  const std::size_t n = indentations_.size();
  if (counting_.size() < n + 1) {
    counting_.resize(n + 1);
    std::iota(counting_.begin(), counting_.end(), 0);
  }
  text_.clear();
  vtk::append_poly_data_start(text_, n, n, 0);
  text_.append("      <PointData Vectors=\"normal_force\" Scalars=\"indentation\">\n");
  vtk::append_array(text_, "normal_force", 3, values(normal_forces_));
  vtk::append_array(text_, "friction_force", 3, values(friction_forces_));
  vtk::append_array(text_, "indentation", 1, values(indentations_));
  vtk::append_array(text_, "contact", 1, values(contact_of_));
  text_.append("      </PointData>\n      <Points>\n");
  vtk::append_array(text_, "Points", 3, values(contact_points_));
  text_.append("      </Points>\n      <Verts>\n");
  vtk::append_array(text_, "connectivity", 1, std::span<const std::int32_t>(counting_.data(), n));
  vtk::append_array(text_, "offsets", 1, std::span<const std::int32_t>(counting_.data() + 1, n));
  text_.append("      </Verts>\n");
  vtk::append_poly_data_end(text_);
  return text_;
}

}  // namespace surfdb::cli
