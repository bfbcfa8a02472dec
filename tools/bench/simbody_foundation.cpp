#include "simbody_foundation.hpp"

#include <malloc.h>

#include <Simbody.h>

namespace surfdb::bench {

namespace {

std::size_t heap_in_use() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

SimTK::Vec3 vec(const Eigen::Vector3d& v) { return {v.x(), v.y(), v.z()}; }

SimTK::Rotation rotation(const Eigen::Matrix3d& A) {
  SimTK::Mat33 m;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) m(r, c) = A(r, c);
  return SimTK::Rotation(m);
}

SimTK::ContactGeometry::TriangleMesh mesh(SimbodyMeshArrays m) {
  SimTK::Array_<SimTK::Vec3> vertices;
  SimTK::Array_<int> faces;
  for (const Eigen::Vector3d& v : *m.vertices) vertices.push_back(vec(v));
  for (const auto& t : *m.triangles)
    for (std::uint32_t k : t) faces.push_back(static_cast<int>(k));
  return SimTK::ContactGeometry::TriangleMesh(vertices, faces);
}

}  // namespace

struct SimbodyFoundation::Impl {
  SimTK::MultibodySystem system;
  SimTK::SimbodyMatterSubsystem matter{system};
  SimTK::ContactTrackerSubsystem tracker{system};
  SimTK::CompliantContactSubsystem contact{system, tracker};
  SimTK::MobilizedBody::Free body{matter.Ground(), SimTK::Transform(),
                                  SimTK::Body::Rigid(SimTK::MassProperties(1, SimTK::Vec3(0), SimTK::UnitInertia(1))),
                                  SimTK::Transform()};
  SimTK::State state;
};

SimbodyFoundation::SimbodyFoundation(SimbodyMeshArrays master, SimbodyMeshArrays slave,
                                     const Eigen::Matrix3d& slave_rotation, const Eigen::Vector3d& slave_position,
                                     const std::vector<SimbodyPlane>& slave_planes, double c, bool with_contact)
    : impl_(std::make_unique<Impl>()) {
  // Simbody's element carries k A x (processOneMesh) with k = k1 k2 / (k1 + k2) from the two
  // materials' stiffnesses (the layer's thickness is not used there).
  const SimTK::ContactMaterial material(2 * c, 0, 0, 0, 0);
  if (with_contact) {
    impl_->body.updBody().addContactSurface(SimTK::Transform(), SimTK::ContactSurface(mesh(master), material, 1));
    SimTK::Body& ground = impl_->matter.Ground().updBody();
    if (!slave_planes.empty()) {
      for (const SimbodyPlane& p : slave_planes)  // a half-space fills x > 0 of its frame: -x is its outward normal
        ground.addContactSurface(SimTK::Transform(SimTK::Rotation(SimTK::UnitVec3(vec(-p.normal)), SimTK::XAxis), vec(p.point)),
                                 SimTK::ContactSurface(SimTK::ContactGeometry::HalfSpace(), material, 1));
    } else {
      ground.addContactSurface(SimTK::Transform(rotation(slave_rotation), vec(slave_position)),
                               SimTK::ContactSurface(mesh(slave), material, 1));
    }
  }
  impl_->system.realizeTopology();
  impl_->state = impl_->system.getDefaultState();
}

SimbodyFoundation::~SimbodyFoundation() = default;

Eigen::Vector3d SimbodyFoundation::evaluate(const Eigen::Matrix3d& A, const Eigen::Vector3d& r) {
  Impl& s = *impl_;
  s.body.setQToFitTransform(s.state, SimTK::Transform(rotation(A), vec(r)));
  s.body.setUToFitVelocity(s.state, SimTK::SpatialVec(SimTK::Vec3(0), SimTK::Vec3(0)));
  s.system.realize(s.state, SimTK::Stage::Dynamics);
  const SimTK::Vec3 f = s.system.getRigidBodyForces(s.state, SimTK::Stage::Dynamics)[s.body.getMobilizedBodyIndex()][1];
  return {f[0], f[1], f[2]};
}

int SimbodyFoundation::elements() const {
  const Impl& s = *impl_;
  int n = 0;
  for (int k = 0; k < s.contact.getNumContactForces(s.state); ++k) {
    SimTK::ContactPatch patch;
    if (s.contact.calcContactPatchDetailsById(s.state, s.contact.getContactForce(s.state, k).getContactId(), patch))
      n += patch.getNumDetails();
  }
  return n;
}

std::size_t simbody_mesh_heap_bytes(SimbodyMeshArrays m) {
  SimTK::Array_<SimTK::Vec3> vertices;
  SimTK::Array_<int> faces;
  for (const Eigen::Vector3d& v : *m.vertices) vertices.push_back(vec(v));
  for (const auto& t : *m.triangles)
    for (std::uint32_t k : t) faces.push_back(static_cast<int>(k));
  const std::size_t before = heap_in_use();
  const auto geometry = std::make_unique<SimTK::ContactGeometry::TriangleMesh>(vertices, faces);
  return heap_in_use() - before;
}

}  // namespace surfdb::bench
