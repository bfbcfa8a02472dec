// The sliding-plane contact constraint (paper 004, "sliding-plane contact between NURBS surfaces",
// §2-4): two surfaces on bodies i and j that stay in contact share a point and a tangent plane. The
// constraint keeps surface i's contact point P on the tangent plane of surface j at its contact
// point S, with normal n (j's, out of its material):
//
//   Phi = n . (x_P - x_S) = 0                                                  (one equation)
//
// P and S are not fixed in their bodies: they are the ends of the common normal, found by the
// detectors (contact_newton.hpp, contact_sphere_table.hpp, contact_primitives.hpp) at every
// evaluation. Phi is then the signed distance between the surfaces along the common normal, and
// its gradient is that of a point fixed in i on a plane fixed in j: the motion of P and S over
// their surfaces is tangential, and d = Phi n makes the normal's turn drop out to first order.
//
// The acceleration equation Phi_ddot = 0, written J zdd = gamma, needs the contact points'
// velocities over the surfaces (the paper's Eq. 23). Here they come from the surfaces' shape
// operators (shape_operator.hpp) rather than from surface parameters, so one formula serves
// tables and analytic shapes alike: with sigma_i, sigma_j the contact points' velocities over
// surface i and j (world, tangent), w = v_P - v_S the relative velocity of the two material
// points, omega_i, omega_j the bodies' angular velocities and W_i, W_j the shape operators,
//   (a) x_P - x_S = Phi n stays true:   sigma_i - sigma_j = -w_t + Phi (omega_j x n + W_j sigma_j)_t
//   (b) n_i = -n stays true:            W_i sigma_i + W_j sigma_j = (omega_i - omega_j) x n
// (Montana's contact equations), a 4 x 4 system in the tangent plane whose matrix is the
// relative curvature: singular for line or conforming contact (parallel cylinders, a ball in a
// socket of its own size). Then
//   gamma = -[ ndot . w + n . (omega_i x (omega_i x rho_P + sigma_i) - omega_j x (omega_j x rho_S + sigma_j)) ]
// with ndot = omega_j x n + W_j sigma_j and rho_P = x_P - r_i, rho_S = x_S - r_j. Only first
// derivatives of the normal field enter (the paper's observation that the tangential part of the
// points' accelerations drops out): no second derivatives of the surfaces are needed.
#pragma once

#include <Eigen/Core>

#include "surfdb/contact/body_state.hpp"
#include "surfdb/contact/contact_result.hpp"
#include "surfdb/contact/shape_operator.hpp"

namespace surfdb {

/// The constraint equation at one state, its gradient and its velocity terms. World axes, SI.
struct SlidingPlane {
  double phi = 0;    // m: signed distance along n, > 0 apart, < 0 inside each other
  double rate = 0;   // m/s: Phi_dot = J zdot (n . w)
  double gamma = 0;  // m/s^2: J zdd = gamma keeps Phi_ddot = 0
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  // n, unit
  /// Phi's first-order change: dr_i . delta r_i + dth_i . delta theta_i + dr_j . delta r_j +
  /// dth_j . delta theta_j, for translations delta r and small rotations delta theta (world).
  Eigen::Vector3d dr_i = Eigen::Vector3d::Zero(), dth_i = Eigen::Vector3d::Zero();
  Eigen::Vector3d dr_j = Eigen::Vector3d::Zero(), dth_j = Eigen::Vector3d::Zero();
  /// The contact points' velocities over surface i and over surface j (sigma, m/s, tangent).
  Eigen::Vector3d slide_i = Eigen::Vector3d::Zero(), slide_j = Eigen::Vector3d::Zero();
  /// The relative curvature is singular (line or conforming contact): the slides are set to 0 and
  /// gamma lacks their terms.
  bool singular = false;
};

/// The orthonormal basis (E1, E2) of the plane normal to the unit vector n in which the slides are
/// solved: E1 = n.unitOrthogonal(), E2 = n x E1.
Eigen::Matrix<double, 3, 2> tangent_basis(const Eigen::Vector3d& n);

/// The sliding plane at a solved contact (points, normal; gap or indentation) with the surfaces'
/// shape operators there, for the bodies' states.
SlidingPlane sliding_plane(const ContactResult& contact, const ContactShapes& shapes, const BodyState& body_i,
                           const BodyState& body_j);

/// How the contact points move over their surfaces, when the caller knows it (the five-equation
/// formulation, five_equations.hpp, whose states hold the surface parameters and their rates):
/// sigma_i = [p_u p_v]_i (u_i', v_i'), sigma_j likewise (world, m/s), and the part of the normal's
/// rate that the slide over surface j makes, [n_u n_v]_j (u_j', v_j') (world, 1/s; W_j sigma_j in
/// the notation above).
struct ContactSlides {
  Eigen::Vector3d slide_i = Eigen::Vector3d::Zero(), slide_j = Eigen::Vector3d::Zero();
  Eigen::Vector3d normal_slide = Eigen::Vector3d::Zero();
};

/// The sliding plane at given contact points x_P (on i) and x_S (on j) with j's unit normal n there
/// and the points' given slides: the same equation, gradient and gamma as above, with the slides
/// taken as given instead of solved from the shape operators (never singular). For points that
/// are not exactly the ends of a common normal the gradient and gamma are those of the sliding
/// plane through them, correct to first order in how far they are from it.
SlidingPlane sliding_plane(const Eigen::Vector3d& point_i, const Eigen::Vector3d& point_j, const Eigen::Vector3d& normal,
                           const ContactSlides& slides, const BodyState& body_i, const BodyState& body_j);

}  // namespace surfdb
