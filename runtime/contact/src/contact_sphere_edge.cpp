#include "surfdb/contact/contact_sphere_edge.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <span>

#include "surfdb/table/table_set.hpp"

namespace surfdb {
namespace {

// Gauss-Legendre nodes and weights on [-1, 1]: four points where the overlap ends within a
// segment (the load falls to zero there), two where the segment lies wholly inside it (a smooth
// load, as along a rim under a ball: exact for a cubic).
constexpr std::array<double, 4> kNode4{-0.8611363115940526, -0.3399810435848563, 0.3399810435848563, 0.8611363115940526};
constexpr std::array<double, 4> kWeight4{0.3478548451374538, 0.6521451548625461, 0.6521451548625461, 0.3478548451374538};
constexpr std::array<double, 2> kNode2{-0.5773502691896258, 0.5773502691896258};
constexpr std::array<double, 2> kWeight2{1, 1};


// B(1/2, b) = Gamma(1/2) Gamma(b) / Gamma(b + 1/2).
double beta_half(double b) { return std::sqrt(std::numbers::pi) * std::tgamma(b) / std::tgamma(b + 0.5); }

}  // namespace

SphereEdgeContact::SphereEdgeContact(Sphere sphere, const SetEdge& edge, double meters_per_unit, SurfaceMount mount_j,
                                     double exponent)
    : sphere_(sphere), mount_(mount_j), sides_(edge.sides.size()), exponent_(exponent - 0.5),
      scale_(std::sqrt(2 * sphere.radius) * beta_half(exponent + 0.5)) {
  low_ = Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity());
  high_ = -low_;
  for (std::size_t k = 0; k < edge.points.size(); ++k) {
    Point p{meters_per_unit * edge_vector(edge.points[k]), {}};
    for (std::size_t s = 0; s < sides_; ++s) p.into[s] = edge_vector(edge.sides[s].inward[k]);
    low_ = low_.cwiseMin(p.x), high_ = high_.cwiseMax(p.x);
    points_.push_back(p);
  }
}

ContactResult SphereEdgeContact::evaluate(const BodyState& body_i, const BodyState& body_j) {
  ContactResult r;
  const double R = sphere_.radius;
  const Eigen::Vector3d centre = body_i.pose.r + body_i.pose.A * sphere_.centre;
  const Eigen::Matrix3d A = body_j.pose.A * mount_.rotation;
  const Eigen::Vector3d origin = body_j.pose.r + body_j.pose.A * mount_.offset;
  const Eigen::Vector3d c = A.transpose() * (centre - origin);  // set axes, m
  const double reach = (c - c.cwiseMax(low_).cwiseMin(high_)).norm();
  r.gap = reach - R;
  if (reach >= R) return r;
  Eigen::Vector3d load = Eigen::Vector3d::Zero();  // the integral of delta^(n - 1/2) along the direction, m^(n + 1/2)
  double energy = 0;  // the integral of delta^(n + 1/2) / (n + 1/2), m^(n + 3/2)
  double nearest = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k + 1 < points_.size(); ++k) {
    const Point &a = points_[k], &b = points_[k + 1];
    const Eigen::Vector3d ab = b.x - a.x;
    const double length = ab.norm();
    if (length == 0) continue;
    const Eigen::Vector3d t = ab / length;
    const double s0 = (c - a.x).dot(t);
    const double across2 = (c - a.x - s0 * t).squaredNorm();
    nearest = std::min(nearest, across2 + std::pow(std::max({0.0, -s0, s0 - length}), 2));  // squared
    if (across2 >= R * R) continue;
    const double half = std::sqrt(R * R - across2);
    const double lo = std::max(0.0, s0 - half), hi = std::min(length, s0 + half);
    if (lo >= hi) continue;
    const bool whole = lo == 0 && hi == length;
    const std::span<const double> nodes = whole ? std::span<const double>(kNode2) : std::span<const double>(kNode4);
    const std::span<const double> weights = whole ? std::span<const double>(kWeight2) : std::span<const double>(kWeight4);
    for (std::size_t q = 0; q < nodes.size(); ++q) {
      const double s = 0.5 * (lo + hi) + 0.5 * (hi - lo) * nodes[q];
      const Eigen::Vector3d d = c - (a.x + s * t);
      const double distance = d.norm();
      if (distance >= R || distance == 0) continue;
      const double w = s / length;
      bool in_cone = true;
      for (std::size_t side = 0; side < sides_; ++side)
        in_cone &= d.dot((1 - w) * a.into[side] + w * b.into[side]) <= 0;
      if (!in_cone) continue;
      const double delta = R - distance, weight = 0.5 * (hi - lo) * weights[q];
      const double p = exponent_ == 1 ? delta : std::pow(delta, exponent_);  // Hertz's n = 3/2: linear
      load += weight * p * (d / distance);
      energy += weight * p * delta / (exponent_ + 1);
    }
  }
  const double magnitude = load.norm();
  if (magnitude == 0) {
    r.gap = std::max(0.0, std::sqrt(nearest) - R);
    return r;
  }
  const Eigen::Vector3d n = load / magnitude;
  last_normal_ = A * n;
  const double depth = std::min(R, std::pow(magnitude / scale_, 1 / (exponent_ + 0.5)));
  r.status = ContactStatus::touching;
  r.gap = 0;
  r.indentation = depth;
  // The law's energy K delta^(n+1) / (n+1) equals the spread load's, (K / scale) times `energy`.
  const double law_exponent = exponent_ + 0.5;
  r.energy_indentation = std::pow((law_exponent + 1) * energy / scale_, 1 / (law_exponent + 1));
  r.normal = last_normal_;
  r.point_i = centre - R * r.normal;
  r.point_j = centre - (R - depth) * r.normal;
  r.curvature_i = 1 / R;
  set_relative_velocity(r, body_i, body_j);
  return r;
}

ContactShapes SphereEdgeContact::shapes() const {
  return {sphere_shape_operator(last_normal_, sphere_.radius), Eigen::Matrix3d::Zero()};
}

}  // namespace surfdb
