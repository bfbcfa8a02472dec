// The five-equation contact formulation of paper 004 (§2, Eq. 3; §4.2-4.3): the contact
// parameters s = (u_i, v_i, u_j, v_j) of two surfaces in contact are coordinates of the system,
// and the contact is five scalar equations in them and the bodies' coordinates,
//   C_ps = x_P(s_i) - x_S(s_j) = 0   (the points coincide)
//   C_n  = n_i(s_i) + n_j(s_j) = 0   (the normals are opposed; one component is redundant),
// written in a basis of surface j's tangent plane at x_S and its normal n = n_j:
//   Phi = n . C_ps                                  the normal equation, the sliding plane's
//   c   = [E^T C_ps ; E^T C_n] = 0                  four tangential equations, E = tangent_basis(n).
// The parameters have no mass, so the tangential equations carry no force (C_s^T lambda = 0 leaves
// only the normal component): Phi is the joint's one constraint row, with its point, plane and
// slides from the parameters (sliding_plane.hpp's ContactSlides overload), and the four parameter
// accelerations follow from the tangential equations' second time derivatives (Eqs. 24-28
// projected on the tangent plane) once the bodies' accelerations are known:
//   E^T ( [T_i s_i'' - T_j s_j''] + Q_ps + 2 alpha C_ps' + beta^2 C_ps ) = 0
//   E^T ( [N_i s_i'' + N_j s_j''] + Q_n  + 2 alpha C_n'  + beta^2 C_n  ) = 0
// with T = [p_u p_v], N = [n_u n_v] (world), the Baumgarte terms keeping the parameters on the
// common normal, and the known terms, for a point x on a body with reference point r, velocity v,
// angular velocity w, linear and angular accelerations a and w' (world), rho = x - r:
//   Q_x = a + w' x rho + w x (w x rho) + 2 w x (T s') + p_uu u'^2 + 2 p_uv u' v' + p_vv v'^2
//   Q_n = w' x n + w x (w x n) + 2 w x (N s') + n_uu u'^2 + 2 n_uv u' v' + n_vv v'^2
// (Q_ps = Q_x(P) - Q_x(S), Q_n summed over both sides). In terms of a_i = E^T T_i s_i'' the matrix
// is [[I, -I], [K_i, K_j]]: singular exactly where the sliding plane's relative curvature K_i + K_j
// is (line or conforming contact).
#pragma once

#include <Eigen/Core>

#include "surfdb/contact/body_state.hpp"
#include "surfdb/contact/sliding_plane.hpp"
#include "surfdb/contact/surface_jet.hpp"

namespace surfdb {

/// The two contact points' jets (surface_jet.hpp) placed in the world (metres, world axes), and
/// the parameters' rates (u_i', v_i', u_j', v_j').
struct ContactJets {
  SurfaceJet i, j;
  Eigen::Vector4d rates = Eigen::Vector4d::Zero();
};

/// The four tangential equations and their time derivatives (m, m, 1, 1 and per second).
struct TangentialEquations {
  Eigen::Vector4d value = Eigen::Vector4d::Zero(), rate = Eigen::Vector4d::Zero();
};

/// The slides sigma_i = T_i s_i', sigma_j = T_j s_j' and N_j s_j' for the sliding plane.
ContactSlides contact_slides(const ContactJets& jets);

/// c and c' at the jets for the bodies' states.
TangentialEquations tangential_equations(const ContactJets& jets, const BodyState& body_i, const BodyState& body_j);

/// The parameter accelerations (u_i'', v_i'', u_j'', v_j'') from the stabilised tangential
/// equations, for the bodies' states and accelerations, with Baumgarte gains alpha, beta (1/s).
/// `singular` is set (and zeros returned) where the relative curvature is singular.
Eigen::Vector4d parameter_accelerations(const ContactJets& jets, const BodyState& body_i, const BodyState& body_j,
                                        const BodyAcceleration& acc_i, const BodyAcceleration& acc_j, double alpha,
                                        double beta, bool& singular);

/// The parameter rates (u_i', v_i', u_j', v_j') that keep the tangential equations: c' = 0 solved
/// for them at the jets (their rates ignored) for the bodies' states (the paper's Eq. 23, the
/// speed problem). `singular` as above.
Eigen::Vector4d parameter_rates(const ContactJets& jets, const BodyState& body_i, const BodyState& body_j,
                                bool& singular);

}  // namespace surfdb
