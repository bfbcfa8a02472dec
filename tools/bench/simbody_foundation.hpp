// Simbody's elastic foundation (CompliantContactSubsystem with its default generator for meshes,
// ContactForceGenerator::ElasticFoundation) behind an interface of plain Eigen types, for
// bench_polygonal: Simbody 3.7's headers do not compile as C++20 (its index types' comparisons
// become ambiguous with the reversed operator== candidates), so its side is built as C++17.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <Eigen/Core>

namespace surfdb::bench {

struct SimbodyMeshArrays {
  const std::vector<Eigen::Vector3d>* vertices = nullptr;
  const std::vector<std::array<std::uint32_t, 3>>* triangles = nullptr;  // counter-clockwise from outside
};

/// A plane bounding a half-space: a point on it and the outward unit normal.
struct SimbodyPlane {
  Eigen::Vector3d point, normal;
};

/// A free body carrying the master mesh against the slave fixed in the ground (a mesh placed by
/// rotation and position, or half-spaces), both of one material of stiffness 2 c so that
/// Simbody's combined k = k1 k2 / (k1 + k2) is our c; no dissipation, no friction. Without
/// contact, the same system with no contact surface (the cost of realising it alone).
class SimbodyFoundation {
 public:
  SimbodyFoundation(SimbodyMeshArrays master, SimbodyMeshArrays slave, const Eigen::Matrix3d& slave_rotation,
                    const Eigen::Vector3d& slave_position, const std::vector<SimbodyPlane>& slave_planes, double c,
                    bool with_contact);
  ~SimbodyFoundation();
  /// The contact force on the master's body at its pose (x_world = A x_body + r), realised to
  /// dynamics.
  Eigen::Vector3d evaluate(const Eigen::Matrix3d& A, const Eigen::Vector3d& r);
  /// The springs that carried a force at the last evaluation.
  int elements() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The heap a ContactGeometry::TriangleMesh (with its OBB tree) holds for these arrays, bytes.
std::size_t simbody_mesh_heap_bytes(SimbodyMeshArrays mesh);

}  // namespace surfdb::bench
