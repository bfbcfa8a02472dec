#include "surfdb/table/face_survey.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "surfdb/table/surface_binding.hpp"

namespace surfdb {
namespace {

constexpr std::uint64_t kMostSamples = 200;  // along u and along v
constexpr double kTolerance = 1e-6;          // rad

// Every stride-th of n grid lines, and the last.
std::vector<std::uint64_t> lines(std::uint64_t n) {
  const std::uint64_t stride = std::max<std::uint64_t>(1, (n + kMostSamples - 1) / kMostSamples);
  std::vector<std::uint64_t> out;
  for (std::uint64_t k = 0; k < n; k += stride) out.push_back(k);
  if (out.back() != n - 1) out.push_back(n - 1);
  return out;
}

SurfaceShape shape_of(const std::vector<Eigen::Vector3d>& normals) {
  if (normals.size() < 2) return SurfaceShape::curved;
  const Eigen::Vector3d& first = normals.front();
  bool flat = true;
  Eigen::Vector3d axis = Eigen::Vector3d::Zero();  // across the two most different normals
  for (const Eigen::Vector3d& n : normals) {
    const Eigen::Vector3d c = first.cross(n);
    flat &= c.norm() <= kTolerance && first.dot(n) > 0;
    if (c.norm() > axis.norm()) axis = c;
  }
  if (flat) return SurfaceShape::flat;
  axis.normalize();
  for (const Eigen::Vector3d& n : normals)
    if (std::abs(n.dot(axis)) > kTolerance) return SurfaceShape::curved;
  return SurfaceShape::cylindrical;
}

// The box of `points` along their principal axes (of their covariance; the table's axes when
// fewer than two): a turned rectangle's sides, a cylinder's axis.
void principal_box(const std::vector<Eigen::Vector3d>& points, FaceSurvey& survey) {
  survey.box_low = Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity());
  survey.box_high = -survey.box_low;
  if (points.size() >= 2) {
    Eigen::Vector3d mean = Eigen::Vector3d::Zero();
    for (const Eigen::Vector3d& p : points) mean += p;
    mean /= static_cast<double>(points.size());
    Eigen::Matrix3d covariance = Eigen::Matrix3d::Zero();
    for (const Eigen::Vector3d& p : points) covariance += (p - mean) * (p - mean).transpose();
    survey.axes = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(covariance).eigenvectors();
  }
  for (const Eigen::Vector3d& p : points) {
    const Eigen::Vector3d along = survey.axes.transpose() * p;
    survey.box_low = survey.box_low.cwiseMin(along), survey.box_high = survey.box_high.cwiseMax(along);
  }
}

}  // namespace

FaceSurvey survey_face(const Database& table) {
  // A binding needs the table shared; this one reads it only for the call (no ownership taken).
  const std::shared_ptr<const Database> shared(std::shared_ptr<const Database>(), &table);
  SurfaceBinding binding(shared, WindowSize{2, 2}, Residency::direct_mapping, Interpolation::bilinear);
  const Header& h = table.header();
  const std::vector<std::uint64_t> us = lines(h.layout.u_points), vs = lines(h.layout.v_points);
  FaceSurvey survey;
  survey.low = Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity());
  survey.high = -survey.low;
  std::vector<Eigen::Vector3d> normals, points;
  std::vector<SurfacePoint> row(vs.size()), last_row(vs.size());  // for the steps and the curvature
  double step = 0;
  // Between two neighbouring valid samples: the angle of their normals over their distance.
  const auto bend = [&](const SurfacePoint& p, const SurfacePoint& q) {
    const double d = (p.p - q.p).norm();
    if (p.status == QueryStatus::valid && q.status == QueryStatus::valid && !p.degenerate && !q.degenerate && d > 0)
      survey.max_curvature = std::max(survey.max_curvature, std::atan2(p.n.cross(q.n).norm(), p.n.dot(q.n)) / d);
  };
  for (std::size_t a = 0; a < us.size(); ++a) {
    for (std::size_t b = 0; b < vs.size(); ++b) {
      const SurfacePoint p = binding.query(h.u_at(us[a]), h.v_at(vs[b]));
      row[b] = p;
      if (a > 0) step = std::max(step, (p.p - last_row[b].p).norm()), bend(p, last_row[b]);
      if (b > 0) step = std::max(step, (p.p - row[b - 1].p).norm()), bend(p, row[b - 1]);
      if (p.status != QueryStatus::valid) continue;
      survey.low = survey.low.cwiseMin(p.p), survey.high = survey.high.cwiseMax(p.p);
      points.push_back(p.p);
      if (!p.degenerate) normals.push_back(p.n);
    }
    std::swap(row, last_row);
  }
  survey.shape = shape_of(normals);
  principal_box(points, survey);
  if (survey.low.x() <= survey.high.x()) {
    survey.low.array() -= step, survey.high.array() += step;
    survey.box_low.array() -= step, survey.box_high.array() += step;
  }
  return survey;
}

}  // namespace surfdb
