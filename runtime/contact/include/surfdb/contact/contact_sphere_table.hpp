// An analytic sphere on body i against one lookup table on body j: the sphere's centre projected
// onto the table (projection.hpp: Newton on p + d n = x, warm-started from the last foot point,
// else from the table's node tree). The contact is at the foot point, along the table's normal;
// the indentation is R - d for a centre at signed distance d. Two unknowns, not the four of the
// common-normal solve between two tables: the cheap way to put many balls on a free-form part.
// A foot point on a cell a trim crosses (invalid_cell) counts when the face's boundary edges,
// if given, say it lies inside the trimmed face (face_boundary.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "surfdb/contact/body_state.hpp"
#include "surfdb/contact/contact_newton.hpp"
#include "surfdb/contact/contact_primitives.hpp"
#include "surfdb/contact/contact_result.hpp"
#include "surfdb/contact/shape_operator.hpp"
#include "surfdb/table/surface_binding.hpp"
#include "surfdb/table/table_set.hpp"

namespace surfdb {

class SphereTableContact {
 public:
  /// Builds the table's node tree when it has none yet.
  SphereTableContact(Sphere sphere, std::shared_ptr<const Database> table, SurfaceMount mount_j,
                     const ContactOptions& options, std::span<const FaceEdge> boundary = {});

  /// Detection for the given body states; never throws for numerical trouble (see the status).
  /// With ContactOptions::skip_while_apart, no solve while the centre has moved less than the
  /// last solve's gap relative to the table since (the distance to the table changes by at most that).
  ContactResult evaluate(const BodyState& body_i, const BodyState& body_j);

  /// The next evaluate() starts from the node tree, not from the last foot point.
  void request_global_search() { have_guess_ = false, have_apart_ = false; }
  /// The next evaluate() starts from this foot point.
  void set_guess(double u, double v) { u_ = u, v_ = v, have_guess_ = true, have_apart_ = false; }
  /// Evaluations answered without a solve by ContactOptions::skip_while_apart.
  std::uint64_t skipped_solves() const { return skipped_solves_; }

  /// The shape operators at the points of the last evaluate() that solved (world, 1/m): the
  /// sphere's, and the table's blended from the grid cells around its point (blended_shape_operator).
  ContactShapes shapes();

  const SurfaceBinding& binding() const { return binding_; }

 private:
  Sphere sphere_;
  SurfaceBinding binding_;
  SurfaceMount mount_;
  double scale_;  // metres per file unit
  const NodeTree* tree_;
  std::span<const FaceEdge> boundary_;  // the face's edges (its TableSet's), or none
  double u_ = 0, v_ = 0;  // the last foot point: the warm start
  bool have_guess_ = false;
  // The last converged solve's foot point and unit normal (table axes), and the table's axes in the world.
  double foot_u_ = 0, foot_v_ = 0;
  Eigen::Vector3d foot_normal_ = Eigen::Vector3d::UnitZ();
  Eigen::Matrix3d foot_rotation_ = Eigen::Matrix3d::Identity();
  // The last solve, while have_apart_ (it found the sphere apart): its result, the centre then
  // (table axes and unit), the foot point (table axes, m) and the normal (table axes).
  struct Apart {
    ContactResult result;
    Eigen::Vector3d centre, point_j, normal;
  };
  bool skip_while_apart_;
  bool have_apart_ = false;
  Apart apart_;
  std::uint64_t skipped_solves_ = 0;
};

}  // namespace surfdb
