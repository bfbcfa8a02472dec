#include "surfdb/contact/sliding_plane.hpp"

#include <Eigen/Dense>
#include <cmath>

namespace surfdb {
namespace {

// The relative curvature counts as singular when its determinant is below this fraction of the
// square of its size (a curvature ratio of 1e-6: a 1 km crown against a 1 mm radius still solves).
constexpr double kSingularCurvatureRatio = 1e-12;

}  // namespace

Eigen::Matrix<double, 3, 2> tangent_basis(const Eigen::Vector3d& n) {
  Eigen::Matrix<double, 3, 2> E;
  E.col(0) = n.unitOrthogonal();
  E.col(1) = n.cross(E.col(0));
  return E;
}

SlidingPlane sliding_plane(const ContactResult& contact, const ContactShapes& shapes, const BodyState& body_i,
                           const BodyState& body_j) {
  const Eigen::Vector3d& n = contact.normal;
  const Eigen::Vector3d &w_i = body_i.angular_velocity, &w_j = body_j.angular_velocity;
  const Eigen::Vector3d w = body_i.point_velocity(contact.point_i) - body_j.point_velocity(contact.point_j);
  const double phi = n.dot(contact.point_i - contact.point_j);

  // The points' slides in a tangent basis E: a_i = a_j + Phi K_j a_j + b1 from (a), then
  // (K_i + K_j + Phi K_i K_j) a_j = b2 - K_i b1 from (b).
  const Eigen::Matrix<double, 3, 2> E = tangent_basis(n);
  const Eigen::Matrix2d K_i = E.transpose() * shapes.i * E, K_j = E.transpose() * shapes.j * E;
  const Eigen::Vector2d b1 = E.transpose() * (-w + phi * w_j.cross(n));
  const Eigen::Vector2d b2 = E.transpose() * (w_i - w_j).cross(n);
  const Eigen::Matrix2d A = K_i + K_j + phi * K_i * K_j;
  const double size = A.cwiseAbs().maxCoeff() + K_i.cwiseAbs().maxCoeff() + K_j.cwiseAbs().maxCoeff();
  const bool singular = !(std::abs(A.determinant()) > kSingularCurvatureRatio * size * size);
  ContactSlides slides;
  if (!singular) {
    const Eigen::Vector2d a_j = A.inverse() * (b2 - K_i * b1);
    const Eigen::Vector2d a_i = a_j + phi * K_j * a_j + b1;
    slides.slide_i = E * a_i;
    slides.slide_j = E * a_j;
    slides.normal_slide = shapes.j * slides.slide_j;
  }
  SlidingPlane s = sliding_plane(contact.point_i, contact.point_j, n, slides, body_i, body_j);
  s.singular = singular;
  return s;
}

SlidingPlane sliding_plane(const Eigen::Vector3d& point_i, const Eigen::Vector3d& point_j, const Eigen::Vector3d& n,
                           const ContactSlides& slides, const BodyState& body_i, const BodyState& body_j) {
  SlidingPlane s;
  const Eigen::Vector3d rho_p = point_i - body_i.pose.r, rho_s = point_j - body_j.pose.r;
  const Eigen::Vector3d &w_i = body_i.angular_velocity, &w_j = body_j.angular_velocity;
  const Eigen::Vector3d w = body_i.point_velocity(point_i) - body_j.point_velocity(point_j);
  s.normal = n;
  s.phi = n.dot(point_i - point_j);
  s.rate = n.dot(w);
  s.dr_i = n;
  s.dth_i = rho_p.cross(n);
  s.dr_j = -n;
  s.dth_j = -rho_s.cross(n);
  s.slide_i = slides.slide_i;
  s.slide_j = slides.slide_j;
  const Eigen::Vector3d n_dot = w_j.cross(n) + slides.normal_slide;
  const double c =
      n_dot.dot(w) + n.dot(w_i.cross(w_i.cross(rho_p) + s.slide_i) - w_j.cross(w_j.cross(rho_s) + s.slide_j));
  s.gamma = -c;
  return s;
}

}  // namespace surfdb
