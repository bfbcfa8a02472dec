// Each joint's Jacobian against finite differences of Phi, and gamma against the second
// derivative of Phi along a motion with constant velocities.
#include "surfdb/multibody/joint_constraints.hpp"

#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <random>

#include "surfdb/multibody/multibody_state.hpp"

using namespace surfdb;
using Eigen::Quaterniond;
using Eigen::Vector3d;

namespace {

// Body states advanced by time s at constant v and w' (so zdd = 0).
std::vector<double> coast(const std::vector<double>& y, int bodies, double s) {
  std::vector<double> out = y;
  for (int k = 0; k < bodies; ++k) {
    const BodyStateView b = body_view(y.data(), k);
    const Vector3d w = b.w_body();
    const Quaterniond turn(Eigen::AngleAxisd(w.norm() * s, w.norm() > 0 ? w.normalized() : Vector3d::UnitX()));
    set_body_state(out.data(), k, b.r() + s * b.v(), b.orientation() * turn, b.v(), w);
  }
  return out;
}

// The state moved by dz = (dr, dpi') per body, to first order exactly.
std::vector<double> displace(const std::vector<double>& y, int bodies, const Eigen::VectorXd& dz) {
  std::vector<double> out = y;
  for (int k = 0; k < bodies; ++k) {
    const BodyStateView b = body_view(y.data(), k);
    const Vector3d dpi = dz.segment<3>(6 * k + 3);
    const Quaterniond turn(Eigen::AngleAxisd(dpi.norm(), dpi.norm() > 0 ? dpi.normalized() : Vector3d::UnitX()));
    set_body_state(out.data(), k, b.r() + dz.segment<3>(6 * k), b.orientation() * turn, b.v(), b.w_body());
  }
  return out;
}

}  // namespace

TEST_CASE("every joint type: Jacobian and gamma agree with finite differences") {
  std::mt19937_64 rng(9);
  std::normal_distribution<double> g(0, 1);
  const auto random_vector = [&] { return Vector3d(g(rng), g(rng), g(rng)); };
  for (JointType type : {JointType::spherical, JointType::revolute, JointType::universal, JointType::cylindrical,
                         JointType::translational, JointType::fixed}) {
    for (int ground = 0; ground < 2; ++ground) {
      MultibodyModel model;
      model.bodies = {{"a", 1, Eigen::Matrix3d::Identity()}, {"b", 2, Eigen::Matrix3d::Identity()}};
      Joint j;
      j.type = type;
      j.body_i = ground ? kGround : 0;
      j.body_j = 1;
      j.frame_i = {random_vector(), Quaterniond::UnitRandom().toRotationMatrix()};
      j.frame_j = {random_vector(), Quaterniond::UnitRandom().toRotationMatrix()};
      model.joints = {j};
      std::vector<double> y(2 * kBodyStateSize);
      for (int k = 0; k < 2; ++k)
        set_body_state(y.data(), k, random_vector(), Quaterniond::UnitRandom(), random_vector(), random_vector());
      ConstraintSet at(model), moved(model);
      evaluate_constraints(model, 0, y.data(), at);
      CAPTURE(static_cast<int>(type));
      CAPTURE(ground);

      // Jacobian: Phi(z + e dz) - Phi(z - e dz) = 2 e Phi_z dz + O(e^3)
      const double e = 1e-6;
      for (int trial = 0; trial < 4; ++trial) {
        Eigen::VectorXd dz(12);
        for (int c = 0; c < 12; ++c) dz[c] = g(rng);
        ConstraintSet back(model);
        evaluate_constraints(model, 0, displace(y, 2, e * dz).data(), moved);
        evaluate_constraints(model, 0, displace(y, 2, -e * dz).data(), back);
        const Eigen::VectorXd numeric = (moved.phi - back.phi) / (2 * e);
        CHECK((numeric - at.jacobian * dz).norm() < 1e-6 * (1 + numeric.norm()));
      }
      // gamma: along the coasting motion zdd = 0, so Phi'' = -gamma.
      const double h = 1e-4;
      ConstraintSet ahead(model), behind(model);
      evaluate_constraints(model, 0, coast(y, 2, h).data(), ahead);
      evaluate_constraints(model, 0, coast(y, 2, -h).data(), behind);
      const Eigen::VectorXd second = (ahead.phi - 2 * at.phi + behind.phi) / (h * h);
      CHECK((second + at.gamma).norm() < 1e-5 * (1 + at.gamma.norm()));
    }
  }
}

TEST_CASE("drivers: Jacobian, explicit time derivative and gamma agree with finite differences") {
  std::mt19937_64 rng(4);
  std::normal_distribution<double> g(0, 1);
  const auto random_vector = [&] { return Vector3d(g(rng), g(rng), g(rng)); };
  for (DriverType type : {DriverType::angle, DriverType::position}) {
    MultibodyModel model;
    model.bodies = {{"a", 1, Eigen::Matrix3d::Identity()}, {"b", 2, Eigen::Matrix3d::Identity()}};
    Joint j;
    j.type = type == DriverType::angle ? JointType::revolute : JointType::translational;
    j.body_i = 0;
    j.body_j = 1;
    j.frame_i = {random_vector(), Quaterniond::UnitRandom().toRotationMatrix()};
    j.frame_j = {random_vector(), Quaterniond::UnitRandom().toRotationMatrix()};
    model.joints = {j};
    model.drivers = {{"d", 0, type, DriverFunction{0.2, 0.7, -0.4, 0.3, 5.0, 0.1}}};
    std::vector<double> y(2 * kBodyStateSize);
    for (int k = 0; k < 2; ++k)
      set_body_state(y.data(), k, random_vector(), Quaterniond::UnitRandom(), random_vector(), random_vector());
    const double t = 0.37, h = 1e-4;
    ConstraintSet at(model), ahead(model), behind(model);
    evaluate_constraints(model, t, y.data(), at);
    evaluate_constraints(model, t + h, coast(y, 2, h).data(), ahead);
    evaluate_constraints(model, t - h, coast(y, 2, -h).data(), behind);
    const int d = model.constraint_count() - 1;  // the driver's row
    Eigen::VectorXd zdot(12);
    for (int k = 0; k < 2; ++k) {
      zdot.segment<3>(6 * k) = body_view(y.data(), k).v();
      zdot.segment<3>(6 * k + 3) = body_view(y.data(), k).w_body();
    }
    CAPTURE(static_cast<int>(type));
    const double rate = (ahead.phi[d] - behind.phi[d]) / (2 * h);
    CHECK(rate == doctest::Approx(at.jacobian.row(d).dot(zdot) + at.phi_t[d]).epsilon(1e-6));
    const double second = (ahead.phi[d] - 2 * at.phi[d] + behind.phi[d]) / (h * h);
    CHECK(second == doctest::Approx(-at.gamma[d]).epsilon(1e-4).scale(1));
  }
}
