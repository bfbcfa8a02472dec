// The five-equation formulation of a surface joint (SurfaceJointFormulation::five_equations;
// the math in surfdb/contact/five_equations.hpp): the contact parameters of the held pair of faces
// as states of the system. Per joint, 8 states after every other (Simulation):
//   (u_i, v_i, u_j, v_j, u_i', v_i', u_j', v_j')
// in the faces' own parameters. At every evaluation the two faces are queried at the state's
// parameters (no common-normal solve): their point, normal and derivatives give the joint's one
// constraint row (the sliding plane through the two points, with the slides from the rates), and
// once the bodies' accelerations are known, the parameters' accelerations from the four tangential
// equations with Baumgarte terms. The parameters start from the common-normal solve at t = 0,
// their rates from the tangential equations' rates (the paper's Eq. 23) written with the smooth
// surfaces' first derivatives (SurfaceJet::p_u_mean ...): the tables' own jump at every cell edge,
// and rates that zero c' with them at t = 0 would leave c' a cell-periodic error of nonzero mean,
// which drifts c until Baumgarte stops it (100 times the |c| in the conical pendulum test).
//
// The held pair of faces does not change during a run: a parameter that leaves its face's
// domain (the point walking over an edge of a surface set, or off a table's bound) ends the run
// with an error naming the joint and the time (the sliding plane formulation goes on to the
// neighbour face). Nor does the contact point jump to a deeper point elsewhere.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "surfdb/contact/five_equations.hpp"
#include "surfdb/multibody/contact_pair.hpp"
#include "surfdb/multibody/joint_constraints.hpp"

namespace surfdb {

class SurfaceJointParameters {
 public:
  static constexpr int kStates = 8;

  /// Bindings to every face of both surfaces, with the detector's windows and interpolation.
  SurfaceJointParameters(std::string joint, const FreeformSurfaces& surfaces);

  /// The initial states s (8) from the detection at t = 0: the pair of faces that holds the point
  /// (FreeformManifold's slot, face_i-major) and its parameters; their rates those that keep the
  /// tangential equations there (five_equations.hpp, parameter_rates). Throws std::runtime_error
  /// where the relative curvature is singular.
  void start(std::size_t slot, const ContactResult& contact, const BodyState& body_i, const BodyState& body_j,
             double* s);

  /// The joint's equation at the states s and the bodies' states: queries the faces at s (its
  /// jets are kept for derivative(), contact() and tangential()).
  ConstraintRow row(const double* s, const BodyState& body_i, const BodyState& body_j);
  /// s' (8) at the last row()'s states, for the bodies' accelerations (world) and the Baumgarte
  /// gains (1/s). Sets singular() where the relative curvature is singular (then s'' = 0).
  void derivative(const BodyState& body_i, const BodyState& body_j, const BodyAcceleration& acc_i,
                  const BodyAcceleration& acc_j, double alpha, double beta, double* sdot);

  /// The last row()'s sliding plane, its contact (points, normal, parameters) and tangential
  /// equations (five_equations.hpp).
  const SlidingPlane& plane() const { return plane_; }
  const ContactResult& contact() const { return contact_; }
  TangentialEquations tangential(const BodyState& body_i, const BodyState& body_j) const;
  bool singular() const { return singular_; }

  /// Throws std::runtime_error naming the joint, the time and the face when the last row()'s
  /// parameters lie outside their faces' domains.
  void check_domain(double t) const;

 private:
  struct Side {
    std::shared_ptr<const TableSet> tables;
    std::vector<SurfaceBinding> faces;
    SurfaceMount mount;
    double scale;  // metres per file unit
  };
  static Side side(const std::shared_ptr<const TableSet>& tables, const SurfaceMount& mount, WindowSize window,
                   Residency residency, Interpolation interpolation);
  SurfaceJet world_jet(Side& side, std::size_t face, double u, double v, const Pose& pose);

  std::string joint_;
  Side i_, j_;
  std::size_t face_i_ = 0, face_j_ = 0;                   // the held pair
  ContactJets jets_;                                      // at the last row()
  Eigen::Vector4d parameters_ = Eigen::Vector4d::Zero();  // the last row()'s, as the state holds them
  SlidingPlane plane_;
  ContactResult contact_;
  bool singular_ = false;
};

}  // namespace surfdb
