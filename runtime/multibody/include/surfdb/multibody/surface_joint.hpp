// A surface joint during a run (its model is SurfaceJointSpec, multibody_model.hpp): the sliding
// plane of paper 004 between two surfaces (surfdb/contact/sliding_plane.hpp), with the detectors
// that find its contact point and what the run reports about it.
//
// Detection: two tables (or surface sets) by the common-normal solve per pair of faces, an
// analytic sphere against tables by projecting its centre, a sphere against a sphere, a spherical
// cavity or a plane in closed form. Every evaluation solves locally from the last point (Newton,
// warm-started); the slot (pair of faces) that holds the point keeps it while it solves, and when
// the point walks off its face the nearest solved slot of a neighbour face takes over (at t = 0,
// the slot nearest to touching). At accepted steps `search_interval` apart a global search over
// all slots looks for a point where the surfaces are deeper inside each other than at the held one
// (a cam's concave flank reaching the follower elsewhere), though no deeper than a contact may
// begin (a face behind the touched one is no contact): the contact point then jumps there (counted). Should no slot solve, the last solved
// point and plane are carried with their bodies (counted as a solver failure).
//
// With formulation five_equations (two tables only) the contact parameters are states instead
// (surface_joint_parameters.hpp): detection runs once, at t = 0, to start them; no global search,
// no face change.
//
// The contact force is the equation's Lagrange multiplier: compressive force = -lambda (the
// constraint acts on body i along +n). The constraint is bilateral; the first time it would have
// to pull is its lift-off, reported, and from then on the contact named `release_to`, if any,
// replaces it (Simulation).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <variant>
#include <vector>

#include "surfdb/contact/contact_manifold.hpp"
#include "surfdb/contact/sliding_plane.hpp"
#include "surfdb/multibody/contact_pair.hpp"
#include "surfdb/multibody/contact_surface.hpp"
#include "surfdb/multibody/joint_constraints.hpp"
#include "surfdb/multibody/surface_joint_parameters.hpp"

namespace surfdb {

struct SurfaceJointStatistics {
  double lift_off_time = NAN;  // s: the first time the force crossed zero (interpolated between accepted steps)
  double release_time = NAN;   // s: the accepted step at which release_to took over
  double max_force = -std::numeric_limits<double>::infinity();  // N, compressive > 0, while held
  double min_force = std::numeric_limits<double>::infinity();   // N
  double max_gap = 0;                // m: the largest |Phi| at accepted steps while held
  std::uint64_t global_searches = 0;  // at accepted steps (the first detection's included)
  std::uint64_t jumps = 0;            // the contact point moved to a deeper point the search found
  std::uint64_t face_changes = 0;     // the point walked from one pair of faces to another
  std::uint64_t solver_failures = 0;  // accepted steps at which no slot solved
  std::uint64_t singular_steps = 0;   // accepted steps with singular relative curvature (line contact)
  // five_equations: the largest |c| of the tangential equations at accepted steps while held
  double max_tangential_offset = 0;  // m: the points' offset in the tangent plane, |E^T (x_P - x_S)|
  double max_normal_error = 0;       // rad: the normals' misalignment, |E^T (n_i + n_j)|
};

/// The joint at the last accepted step.
struct SurfaceJointOutput {
  ContactResult contact;     // its contact points (world), normal, surface parameters
  double force = 0;          // N, compressive > 0 (-lambda); 0 once released
  double gap = 0;            // m, Phi: > 0 apart, < 0 inside each other
  double sliding_speed = 0;  // m/s, the material points' relative tangential speed
};

class SurfaceJoint {
 public:
  /// The joint's detectors for its surfaces (a scene's). Throws std::invalid_argument for
  /// surfaces it cannot join: the same body, a mesh, or shapes other than tables, sets and a sphere
  /// (i) against tables or a sphere, cavity or plane; for five_equations anything but two tables.
  SurfaceJoint(const SurfaceJointSpec& spec, const std::vector<ContactSurface>& surfaces, const MultibodyModel& model);

  const SurfaceJointSpec& spec() const { return spec_; }
  const std::string& name() const { return spec_.name; }

  /// The equation at the bodies' states (detection from the last point); inactive once released.
  ConstraintRow row(const BodyState& i, const BodyState& j);

  /// The states the formulation adds to the system: SurfaceJointParameters::kStates for
  /// five_equations, else 0. The calls below are for five_equations only, s being its states.
  int state_count() const { return parameters_ ? SurfaceJointParameters::kStates : 0; }
  /// The initial states from a detection at the bodies' states (t = 0).
  void start(const BodyState& i, const BodyState& j, double* s);
  /// The equation at the states s (no detection); inactive once released.
  ConstraintRow row(const BodyState& i, const BodyState& j, const double* s);
  /// s' at the last row(i, j, s)'s states for the bodies' accelerations and the Baumgarte gains
  /// (1/s); zero once released (the parameters stay where they were).
  void derivative(const BodyState& i, const BodyState& j, const BodyAcceleration& acc_i, const BodyAcceleration& acc_j,
                  double alpha, double beta, double* sdot);
  /// The last row()'s sliding plane (the point velocities over the surfaces, the gap).
  const SlidingPlane& plane() const { return plane_; }
  const ContactResult& contact() const { return contact_; }

  /// After an accepted step at time t whose state is (i, j) (and s, five_equations), with the
  /// constraint's compressive force there: the global search when due, detection at the state
  /// (five_equations: the equation at s, and a std::runtime_error if s left its faces), statistics,
  /// outputs, lift-off. Returns true when this step releases the joint (the force is not positive
  /// for the first time and release_to is set).
  bool accept(double t, const BodyState& i, const BodyState& j, double force, const double* s = nullptr);
  bool released() const { return released_; }

  const SurfaceJointStatistics& statistics() const { return statistics_; }
  const SurfaceJointOutput& output() const { return output_; }

 private:
  struct Analytic {
    AnalyticContact shape;
  };
  ContactResult detect(const BodyState& i, const BodyState& j, ContactShapes& shapes);
  ContactResult detect_slots(ContactShapes& shapes);
  void search(const BodyState& i, const BodyState& j);
  void remember(const ContactResult& r, const ContactShapes& shapes, const BodyState& i, const BodyState& j);
  ContactResult carried(const BodyState& i, const BodyState& j, ContactShapes& shapes) const;
  void accept_detection(double t, const BodyState& i, const BodyState& j);
  void accept_parameters(double t, const BodyState& i, const BodyState& j, const double* s);

  SurfaceJointSpec spec_;
  std::variant<FreeformManifold, Analytic> detector_;
  std::size_t slot_ = 0;           // the manifold's slot holding the point
  std::size_t accepted_slot_ = 0;  // the slot at the last accepted step
  std::optional<SurfaceJointParameters> parameters_;  // five_equations
  bool have_point_ = false;      // a slot has solved
  ContactResult contact_;        // the last row()'s
  SlidingPlane plane_;
  // The last solved point and plane in the bodies' axes, for an evaluation where no slot solves.
  Eigen::Vector3d held_p_i_ = Eigen::Vector3d::Zero(), held_s_j_ = Eigen::Vector3d::Zero();
  Eigen::Vector3d held_n_j_ = Eigen::Vector3d::UnitZ();
  ContactShapes held_shapes_body_;  // shape operators in body axes
  bool released_ = false;
  double next_search_ = 0;        // s
  double last_time_ = 0, last_force_ = 0;
  SurfaceJointStatistics statistics_;
  SurfaceJointOutput output_;
};

}  // namespace surfdb
