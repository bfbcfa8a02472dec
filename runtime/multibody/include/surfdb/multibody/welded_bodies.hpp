// Bodies held together by a fixed joint move as one rigid body. The dynamics merges each such group
// into a composite body and solves the equations of motion for the composites, without the weld's
// six equations; every body's state is still integrated, its accelerations following from its
// composite's by rigid-body kinematics, plus a pull back to its place with the joints' Baumgarte
// gains (pull_back()). After each fixed step (Dynamics::normalise) and at a run's start, a merged
// body's state is set from its base's (project()); the variable-step integrators, which take no
// such correction, rely on the pull back (the run's constraint drift includes the welds).
//
// A fixed joint between two bodies merges when one of them, the member, takes part in no other
// joint, no driver and no surface joint; the other, the base, must carry no surface joint (whose
// equations the contact code writes about each body's own centre of mass). Body j is the member when
// both could be. A base may have several members. A composite's frame is at its centre of mass with
// its base's axes; a body's placement in it is its centre of mass's offset e (composite axes, m)
// and its axes R (composite axes): r_body = r_c + A_c e, A_body = A_c R.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <vector>

#include "surfdb/contact/body_state.hpp"
#include "surfdb/multibody/multibody_model.hpp"

namespace surfdb {

class WeldedBodies {
 public:
  /// Finds the fixed joints of `model` that merge; with `merge` false, none does and reduced() is
  /// the model itself but for its springs.
  WeldedBodies(const MultibodyModel& model, bool merge);

  bool empty() const { return merged_.empty(); }

  /// The model the equations of motion are solved for: one body per composite (its mass, centre of
  /// mass and inertia about it, in its base's axes, at its base's place in the order) and per body
  /// in none; the merged fixed joints left out; the other joints' frames re-expressed on the
  /// composites; drivers and surface joints renumbered to match; no springs (the dynamics folds
  /// their loads with the others).
  const MultibodyModel& reduced() const { return reduced_; }

  /// The reduced body that body `body` is part of (kGround stays kGround).
  int reduced_body(int body) const { return body == kGround ? kGround : placement_[static_cast<std::size_t>(body)].reduced; }
  /// Joint `joint`'s index among the reduced model's joints, or -1 for a merged fixed joint.
  int reduced_joint(int joint) const { return reduced_joint_[static_cast<std::size_t>(joint)]; }
  /// The member a merged fixed joint holds (only for a joint whose reduced_joint() is -1).
  int member_of(int joint) const { return member_of_[static_cast<std::size_t>(joint)]; }
  /// Whether body `body` is the whole of its reduced body (its placement the identity).
  bool alone(int body) const { return placement_[static_cast<std::size_t>(body)].alone; }

  /// The reduced state (multibody_state.hpp's layout, one block per reduced body) for the bodies'
  /// state y: a composite's from its base's alone.
  void reduce_state(const double* y, double* y_reduced) const;
  /// The reduced bodies' loads from the bodies' (world axes; a torque about the composite's centre
  /// of mass), at the bodies' state y and its reduce_state().
  void fold_loads(const double* y, const double* y_reduced, const std::vector<BodyLoad>& loads,
                  std::vector<BodyLoad>& reduced_loads) const;
  /// Body `body`'s acceleration (its centre of mass's, world, m/s^2; then angular, its own axes,
  /// rad/s^2) from its reduced body's: that body's rotation A_c, angular velocity w_c (its axes) and
  /// acceleration acc_c (the same layout).
  void body_acceleration(int body, const Eigen::Matrix3d& A_c, const Eigen::Vector3d& w_c, const double* acc_c,
                         double* acc) const;
  /// Sets each member's state in y from its base's: where the composite puts it.
  void project(double* y) const;
  /// Adds to each member's accelerations in `acc` (6 a body, as body_acceleration's) the pull back
  /// to where its base puts it, as the joints' Baumgarte stabilisation would: -2 alpha e_dot -
  /// beta^2 e, e its position (m) and rotation (rad, its axes) from there.
  void pull_back(const double* y, double alpha, double beta, double* acc) const;

 private:
  struct Placement {
    int reduced = 0;
    bool alone = true;
    Eigen::Vector3d offset = Eigen::Vector3d::Zero();            // e: from the composite's centre of mass
    Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();      // R: the body's axes in the composite's
    Eigen::Quaterniond turn = Eigen::Quaterniond::Identity();    // R as Euler parameters
  };
  struct Member {
    int body = 0, base = 0;
  };
  struct Place {  // where a member's base puts it: a state's four parts
    Eigen::Vector3d r, v, w;
    Eigen::Quaterniond q;
  };
  Place place_of(const Member& m, const double* y) const;

  void find_members(const MultibodyModel& model, std::vector<int>& base_of);
  void place_bodies(const MultibodyModel& model, const std::vector<int>& base_of);
  void reduce_joints(const MultibodyModel& model);

  MultibodyModel reduced_;
  std::vector<Placement> placement_;  // per body
  std::vector<int> base_;             // per reduced body: its base (the body itself when alone)
  std::vector<Member> merged_;
  std::vector<int> reduced_joint_, member_of_;  // per joint
};

/// Per body, the ground first (index b + 1 for body b, kGround = -1 at 0): the least body that
/// fixed joints weld it to, directly or through others, kGround for bodies welded to the ground;
/// a body without fixed joints is its own. Two bodies with the same entry cannot move against
/// each other; a body whose entry is kGround does not move at all.
std::vector<int> weld_clusters(const MultibodyModel& model);

}  // namespace surfdb
