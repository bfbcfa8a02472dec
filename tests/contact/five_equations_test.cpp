// The five-equation formulation's contact-level math (five_equations.hpp) against an exact motion:
// a ball touching the inside of a spherical cavity, both on bodies moving and turning, the
// spheres' centres off the bodies' reference points and their parameterisations turned in the
// bodies. The two spheres' common normal is the line through their centres, so the contact
// parameters are known in closed form along the motion: their rates and accelerations,
// by central differences in time, are what parameter_rates and parameter_accelerations must give
// (without Baumgarte terms, which vanish on the exact parameters), and the tangential equations
// vanish. The surfaces' jets are exact (the spheres' parameterisations differentiated by hand).
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <functional>
#include "surfdb/contact/five_equations.hpp"

namespace surfdb {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

// A sphere of radius R about the origin, p = R (cos v cos u, cos v sin u, sin v), its normal out
// of the ball (inward: out of a cavity's material).
SurfaceJet sphere_jet(double R, bool cavity, double u, double v) {
  const double cu = std::cos(u), su = std::sin(u), cv = std::cos(v), sv = std::sin(v);
  SurfaceJet j;
  j.u = u, j.v = v;
  j.p = R * Vector3d(cv * cu, cv * su, sv);
  j.p_u = R * Vector3d(-cv * su, cv * cu, 0);
  j.p_v = R * Vector3d(-sv * cu, -sv * su, cv);
  j.p_uu = R * Vector3d(-cv * cu, -cv * su, 0);
  j.p_uv = R * Vector3d(sv * su, -sv * cu, 0);
  j.p_vv = R * Vector3d(-cv * cu, -cv * su, -sv);
  const double s = (cavity ? -1 : 1) / R;
  j.n = s * j.p, j.n_u = s * j.p_u, j.n_v = s * j.p_v;
  j.n_uu = s * j.p_uu, j.n_uv = s * j.p_uv, j.n_vv = s * j.p_vv;
  return j;
}

// A body turning at constant angular velocity w from A0, its reference point on a path r(t).
struct Motion {
  std::function<Vector3d(double)> r;
  Vector3d w;
  Matrix3d A0;
  Matrix3d A(double t) const { return Eigen::AngleAxisd(w.norm() * t, w.normalized()).toRotationMatrix() * A0; }
  BodyState state(double t) const {
    constexpr double h = 1e-5;
    return {{r(t), A(t)}, (r(t + h) - r(t - h)) / (2 * h), w};
  }
  BodyAcceleration acceleration(double t) const {
    constexpr double h = 2e-5;
    return {(r(t + h) - 2 * r(t) + r(t - h)) / (h * h), Vector3d::Zero()};
  }
};

struct Sphere {
  double radius;
  bool cavity;
  SurfaceMount mount;  // centre and parameterisation axes in the body
};

Matrix3d turn(double angle, const Vector3d& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

// The cup's body moves at constant velocity; the ball's body turns at constant angular velocity
// while its sphere's centre runs along R - r from the cup's centre in a direction e(t): the two
// touch at every instant, on the line of centres.
struct Scene {
  Sphere ball{0.01, false, {Vector3d(0.002, -0.001, 0.003), turn(0.7, Vector3d(1, 2, 3))}};
  Sphere cup{
      0.05, true, {Vector3d(-0.004, 0.002, 0.001), turn(1.9, Vector3d(0, 1, 0)) * turn(-0.4, Vector3d(1, 0, 0))}};
  Motion j{[](double t) { return Vector3d(0.001 - 0.1 * t, -0.002 + 0.05 * t, 0.0005 + 0.2 * t); },
           Vector3d(-2, 3, 1.5), turn(-0.5, Vector3d(0, 1, 1))};
  Motion i{[this](double t) {
             const Vector3d e = direction(t);
             return Vector3d(centre(cup, j, t) + (cup.radius - ball.radius) * e - i.A(t) * ball.mount.offset);
           },
           Vector3d(4, -7, 5), turn(0.3, Vector3d(1, 1, 0))};

  static Vector3d direction(double t) {
    return Vector3d(0.3 * std::sin(3 * t) + 0.2, 0.25 * std::cos(5 * t), -1).normalized();
  }
  Vector3d centre(const Sphere& s, const Motion& m, double t) const { return m.r(t) + m.A(t) * s.mount.offset; }
  // The contact parameters at time t: the line of centres' direction in each sphere's axes.
  Eigen::Vector4d parameters(double t) const {
    const Vector3d e = direction(t);
    const Vector3d di = (i.A(t) * ball.mount.rotation).transpose() * e;
    const Vector3d dj = (j.A(t) * cup.mount.rotation).transpose() * e;
    return {std::atan2(di.y(), di.x()), std::asin(di.z()), std::atan2(dj.y(), dj.x()), std::asin(dj.z())};
  }
  SurfaceJet jet(const Sphere& s, const BodyState& b, double u, double v) const {
    return placed(sphere_jet(s.radius, s.cavity, u, v), b.pose.A * s.mount.rotation,
                  b.pose.r + b.pose.A * s.mount.offset, 1);
  }
};

}  // namespace

TEST_CASE("five equations: parameter rates and accelerations of a ball in a cavity, both bodies moving") {
  const Scene scene;
  const double h = 2e-5;  // for the accelerations: truncation h^2 s'''' / 12 and rounding 4e-16 / h^2 both below 1e-7
  for (double t : {0.0, 0.05, 0.13}) {
    CAPTURE(t);
    const Eigen::Vector4d s = scene.parameters(t), before = scene.parameters(t - h), after = scene.parameters(t + h);
    const double k = 1e-6;  // for the rates: their central differences' error k^2 s''' / 6 stays below 1e-9
    const Eigen::Vector4d rates = (scene.parameters(t + k) - scene.parameters(t - k)) / (2 * k);
    const Eigen::Vector4d accelerations = (after - 2 * s + before) / (h * h);
    const BodyState bi = scene.i.state(t), bj = scene.j.state(t);
    ContactJets jets{scene.jet(scene.ball, bi, s[0], s[1]), scene.jet(scene.cup, bj, s[2], s[3]), rates};
    // The speed problem (the paper's Eq. 23) gives the rates.
    bool singular = true;
    const Eigen::Vector4d solved = parameter_rates(jets, bi, bj, singular);
    CHECK_FALSE(singular);
    CHECK((solved - rates).cwiseAbs().maxCoeff() < 1e-7 * rates.cwiseAbs().maxCoeff());
    // On the common normal: the tangential equations and their rates vanish.
    const TangentialEquations c = tangential_equations(jets, bi, bj);
    CHECK(c.value.cwiseAbs().maxCoeff() < 1e-15);
    CHECK(c.rate.cwiseAbs().maxCoeff() < 1e-8);
    singular = true;
    const Eigen::Vector4d computed =
        parameter_accelerations(jets, bi, bj, scene.i.acceleration(t), scene.j.acceleration(t), 0, 0, singular);
    CHECK_FALSE(singular);
    const double error = (computed - accelerations).cwiseAbs().maxCoeff() / accelerations.cwiseAbs().maxCoeff();
    MESSAGE("parameter accelerations " << computed.transpose() << " against " << accelerations.transpose()
                                       << " (relative " << error << ")");
    CHECK(error < 1e-6);
  }
}

}  // namespace surfdb
