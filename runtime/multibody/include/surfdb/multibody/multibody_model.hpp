// The bundled multibody loop's model: spatial rigid bodies with Euler parameters (unit
// quaternions) and joints between them or to the ground (Machado, Flores and Ambrósio 2014, ref. [38], Nikravesh's
// Cartesian formulation). Read-only during a simulation. SI units.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <string>
#include <vector>

#include "surfdb/multibody/spring.hpp"

namespace surfdb {

struct RigidBody {
  std::string name;
  double mass = 0;                                        // kg
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Identity();  // about the centre of mass, body axes, kg m^2
};

/// A joint's frame on one body: origin and axes (columns x, y, z) in the body's axes.
struct JointFrame {
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();
};

/// The ground is body index -1.
inline constexpr int kGround = -1;

/// Joint kinds and what they keep (frames F_i on body i, F_j on body j, aligned at assembly):
///   spherical      origins coincide                                             (3 equations)
///   revolute       origins coincide, z axes parallel                             (5)
///   universal      origins coincide, x_i perpendicular to x_j (the cross axes)   (4)
///   cylindrical    z axes parallel, origin of j on the z line of i               (4)
///   translational  cylindrical plus no turn about z (x_i . y_j = 0)              (5)
///   fixed          origins coincide, axes aligned                                (6)
enum class JointType { spherical, revolute, universal, cylindrical, translational, fixed };

struct Joint {
  std::string name;
  JointType type = JointType::revolute;
  int body_i = kGround, body_j = kGround;
  JointFrame frame_i, frame_j;
};

int constraint_count(JointType type);

/// A prescribed motion f(t) = c0 + c1 t + c2 t^2 + amplitude sin(frequency t + phase).
struct DriverFunction {
  double c0 = 0, c1 = 0, c2 = 0, amplitude = 0, frequency = 0, phase = 0;
  double value(double t) const { return c0 + c1 * t + c2 * t * t + amplitude * std::sin(frequency * t + phase); }
  double rate(double t) const { return c1 + 2 * c2 * t + amplitude * frequency * std::cos(frequency * t + phase); }
  double acceleration(double t) const {
    return 2 * c2 - amplitude * frequency * frequency * std::sin(frequency * t + phase);
  }
};

/// A driver adds one equation to a joint: `angle` prescribes a revolute joint's turn about its z
/// axis (rad, x_j measured from x_i), `position` a translational or cylindrical joint's travel
/// along z (m, origin of j from origin of i). Both are 0 where the frames coincide at assembly.
enum class DriverType { angle, position };

struct Driver {
  std::string name;
  int joint = 0;  // index into MultibodyModel::joints
  DriverType type = DriverType::angle;
  DriverFunction motion;
};

/// A sliding contact between two surfaces held as a constraint (a higher pair: a cam and its
/// follower; paper 004): one equation keeping them touching with a common tangent plane
/// (surfdb/contact/sliding_plane.hpp), its multiplier the normal contact force. The surfaces are
/// a Simulation's (contact_surface.hpp); the model keeps their bodies for the equations' structure.
/// How a surface joint holds its surfaces together (paper 004; surface_joint.hpp).
enum class SurfaceJointFormulation {
  /// One equation, the contact point found by the common-normal solve at every evaluation.
  sliding_plane,
  /// The five equations with the four surface parameters as extra states (two tables only;
  /// surface_joint_parameters.hpp).
  five_equations,
};

struct SurfaceJointSpec {
  std::string name;
  int surface_i = -1, surface_j = -1;      // indices into the simulation's surfaces
  int body_i = kGround, body_j = kGround;  // the surfaces' bodies
  /// s: the contact point is searched for over the whole surfaces at accepted steps this far
  /// apart, to catch jumps (a local Newton from the last point runs at every evaluation).
  double search_interval = 0.1;
  /// m: how far apart, or inside each other, the surfaces may be at t = 0.
  double initial_gap_tolerance = 1e-6;
  /// A contact (index into the simulation's contacts, compliant and unilateral) that replaces the
  /// constraint from the first accepted step at which it would have to pull; it is idle until
  /// then. -1: the constraint holds on, pulling if need be, and the lift-off is only reported.
  int release_to = -1;
  SurfaceJointFormulation formulation = SurfaceJointFormulation::sliding_plane;
};

struct MultibodyModel {
  std::vector<RigidBody> bodies;
  std::vector<Joint> joints;
  std::vector<Driver> drivers;
  std::vector<Spring> springs;  // spring.hpp: applied with gravity, their energy in the potential
  std::vector<SurfaceJointSpec> surface_joints;
  Eigen::Vector3d gravity = Eigen::Vector3d(0, 0, -9.81);  // m/s^2

  /// Equations: the joints', one per driver, one per surface joint (in that order).
  int constraint_count() const;
  /// Surface joint k's equation's index among them: after every joint's and driver's (so that
  /// surface_joint_row(0) is also the number of joint and driver equations).
  int surface_joint_row(int k) const { return constraint_count() - static_cast<int>(surface_joints.size()) + k; }
};

/// The reduced mass m_i m_j / (m_i + m_j) of two bodies, kg (kGround: infinite mass).
double effective_mass(const MultibodyModel& model, int body_i, int body_j);

}  // namespace surfdb
