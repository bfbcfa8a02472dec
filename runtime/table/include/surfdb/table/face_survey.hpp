// What a table's face is and where it lies, surveyed once from its valid points: its shape,
// judged from the normals (flat: a plane, whatever its CAD type, a B-spline plane too;
// cylindrical: every normal perpendicular to one axis, as a cylinder's or any extrusion's; or
// curved), and the box of the trimmed face. Two faces whose common normals form a line or a
// plane (a plane against a plane or a cylinder: a rod lying on a plate) have no isolated contact
// point for a common-normal solve to find (contact_manifold.hpp); the box tells an edge's points
// that cannot reach the face (contact_edge_face.hpp) far more tightly than the node tree's box,
// which holds the untrimmed surface with a generous allowance.
#pragma once

#include <Eigen/Core>
#include <limits>

#include "surfdb/table/database.hpp"

namespace surfdb {

enum class SurfaceShape { flat, cylindrical, curved };

struct FaceSurvey {
  SurfaceShape shape = SurfaceShape::curved;
  /// The box (table axes, file unit) holding the face's valid points and every point of the
  /// trimmed face: the valid samples' box grown by the longest step between neighbouring samples.
  /// Empty (low > high) when no point is valid (a table whose node tree cannot be built).
  Eigen::Vector3d low, high;
  /// The distance (file unit) from x (table axes) to the nearer of the two boxes' far side: 0
  /// inside both, else how far outside the one it is farther outside of.
  double distance_outside(const Eigen::Vector3d& x) const {
    const Eigen::Vector3d along = axes.transpose() * x;
    return std::max((x - x.cwiseMax(low).cwiseMin(high)).norm(), (along - along.cwiseMax(box_low).cwiseMin(box_high)).norm());
  }
  /// A box as `low`, `high` but along the valid points' principal axes (the columns of `axes`, in
  /// table axes; box_low and box_high along them): as tight for a face drawn askew to the part's
  /// axes (a turned rectangle) as the axis-aligned box is for one drawn along them.
  Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();
  Eigen::Vector3d box_low, box_high;
  /// The largest curvature between neighbouring valid samples, the angle between their normals
  /// over their distance (1 / file unit; 0 for a plane, 1/R for a cylinder or a sphere).
  double max_curvature = 0;
};

/// Surveys the grid nodes, every k-th along u and v (k chosen for at most 200 x 200 of them): the
/// shape is flat when their unit normals all lie within 1e-6 rad of one another, cylindrical when
/// they are all perpendicular to one axis within 1e-6 rad, else curved (also when fewer than two
/// are valid).
FaceSurvey survey_face(const Database& table);

}  // namespace surfdb
