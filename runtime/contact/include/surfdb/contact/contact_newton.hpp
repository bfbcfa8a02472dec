// Contact detection between two free-form lookup-table surfaces on two bodies (Machado, Flores and Ambrósio 2014, §3.1):
// Newton-Raphson on four common-normal conditions in (u_i, v_i, u_j, v_j), warm-started from the
// previous solution, with a coarse global search for the first guess. The conditions are
// n_j.t_i = n_j.b_i = 0 (normals parallel) and d.t_j = d.b_j = 0 (d along n_j): equivalent to the
// paper's Eqs. 10-11 wherever d != 0, without their spurious roots where the surfaces intersect.
//
// The pair owns its per-body state ("data"): one storage window per surface and the warm start.
// The databases and their k-d trees are shared, read-only ("model"). Not thread-safe; distinct
// pairs may run on distinct threads.
#pragma once

#include <memory>

#include "surfdb/contact/body_state.hpp"
#include "surfdb/contact/contact_result.hpp"
#include "surfdb/contact/shape_operator.hpp"
#include "surfdb/table/node_tree.hpp"
#include "surfdb/table/surface_binding.hpp"

namespace surfdb {

struct ContactOptions {
  WindowSize window_i{5, 5}, window_j{5, 5};
  Residency residency_i = Residency::direct_mapping, residency_j = Residency::direct_mapping;
  Interpolation interpolation = Interpolation::curved;
  int max_iterations = 25;
  double tolerance_cells = 1e-7;  // converged when Newton's next step is below this many cells
  double max_step_cells = 32;     // a Newton step moves each parameter by at most this many cells
  double merge_distance = 1e-6;   // m: points of neighbour faces closer than this are one (contact_manifold.hpp)
  double max_entry_depth = 1e-3;  // m: deepest indentation a contact point may begin with (contact_manifold.hpp)
  double edge_exponent = 1.5;     // the pair's normal law exponent n, for loads on edges (contact_sphere_edge.hpp)
  /// Skip the solve while the surfaces stay apart: the last solve found them a gap g apart, and no
  /// point of surface i has moved by g relative to surface j since (its bounding sphere's centre,
  /// plus its radius times the change of rotation). The result is then the last solve's, its
  /// points and normal carried with their bodies, the velocities taken at those points now, the
  /// gap g minus that motion, and 0 iterations. As exact as the warm-started solve's tracking:
  /// where its common normal is the surfaces' closest pair (a convex part against a convex or
  /// concave one), no contact is missed. On non-convex parts a contact elsewhere that the tracking
  /// would have found only once its own branch vanished is found once the motion reaches g.
  /// Scenario contacts between tables, or a sphere and tables, set it (pair_spec: only their
  /// forces, zero while apart, need an answer); surface joints and the bindings do not.
  bool skip_while_apart = false;
};

class FreeformContact {
 public:
  /// Surface i on body i, surface j on body j, each placed in its body by a mount. Builds the
  /// databases' node trees when they have none yet (every record read once), so that no
  /// evaluation, which may run inside an integrator's right-hand side, builds one.
  FreeformContact(std::shared_ptr<const Database> surface_i, SurfaceMount mount_i,
                  std::shared_ptr<const Database> surface_j, SurfaceMount mount_j,
                  ContactOptions options = {});

  /// Detection for the given body states; never throws for numerical trouble (see the status).
  /// The first call, a call after a failed solve and a call after request_global_search() start
  /// from the coarse global search; the others from the last solution. The storage windows follow
  /// the solution by the seven-step rule.
  ContactResult evaluate(const BodyState& body_i, const BodyState& body_j);

  /// The surfaces' shape operators at the points of the last evaluate() that solved (world, 1/m),
  /// each blended from the grid cells around its point (blended_shape_operator).
  ContactShapes shapes();

  void request_global_search() { have_guess_ = false, apart_.valid = false; }
  void set_guess(double u_i, double v_i, double u_j, double v_j);

  const SurfaceBinding& binding_i() const { return side_i_.binding; }
  const SurfaceBinding& binding_j() const { return side_j_.binding; }
  std::uint64_t global_searches() const { return global_searches_; }
  /// Evaluations answered without a solve by ContactOptions::skip_while_apart.
  std::uint64_t skipped_solves() const { return skipped_solves_; }

 private:
  struct Side {
    SurfaceBinding binding;
    SurfaceMount mount;
    double scale;  // metres per file unit
    const NodeTree* tree;  // the database's, built at construction
  };
  struct Local;      // one side's surface data in surface j's axes at the current iterate
  struct Placement;  // a surface's frame in the world
  enum class Outcome { finished, singular, no_convergence };
  static Eigen::Vector4d conditions(const Local& wi, const Local& wj);
  static Eigen::Matrix4d jacobian(const Local& wi, const Local& wj);
  Outcome iterate(const Eigen::Matrix3d& R_ij, const Eigen::Vector3d& o_ij, Local& wi, Local& wj, int& iterations);
  Local query_j(double u, double v);
  Local query_i(double u, double v, const Eigen::Matrix3d& R_ij, const Eigen::Vector3d& o_ij);
  ContactResult solve(const BodyState& body_i, const BodyState& body_j, const Placement& frame_i,
                      const Placement& frame_j);
  void global_search(const Placement& frame_i, const Placement& frame_j);
  bool far_apart(const Placement& frame_i, const Placement& frame_j, double& gap) const;
  // The last solve that found the surfaces apart, while valid: surface i's axes and bounding
  // sphere's centre (m) in surface j's axes then, and its answer (the gap in it), the points and
  // the normal also in their own surfaces' axes (m) to be carried with the bodies.
  struct Apart {
    bool valid = false;
    Eigen::Matrix3d rotation_ij;
    Eigen::Vector3d centre_ij, point_i, point_j, normal_j;
    ContactResult result;
  };
  void place_i_in_j(const Placement& frame_i, const Placement& frame_j, Eigen::Matrix3d& rotation_ij,
                    Eigen::Vector3d& centre_ij) const;
  bool still_apart(const Placement& frame_i, const Placement& frame_j, double& moved) const;
  void remember_apart(const ContactResult& r, const Placement& frame_i, const Placement& frame_j);
  ContactResult carried_apart(const BodyState& body_i, const BodyState& body_j, const Placement& frame_i,
                              const Placement& frame_j, double moved) const;

  Side side_i_, side_j_;
  ContactOptions options_;
  double q_[4] = {0, 0, 0, 0};  // u_i, v_i, u_j, v_j: the warm start
  bool have_guess_ = false;
  Eigen::Matrix4d J_inverse_;  // the last Newton Jacobian's inverse, near q_ when have_inverse_
  bool have_inverse_ = false;
  std::uint64_t global_searches_ = 0;
  Apart apart_;
  std::uint64_t skipped_solves_ = 0;
  // The last solve's surface axes in the world and its unit normals there (surface axes), for shapes().
  Eigen::Matrix3d last_rotation_i_ = Eigen::Matrix3d::Identity(), last_rotation_j_ = Eigen::Matrix3d::Identity();
  Eigen::Vector3d last_normal_i_ = Eigen::Vector3d::UnitZ(), last_normal_j_ = Eigen::Vector3d::UnitZ();
};

}  // namespace surfdb
