// How a surface bends at a point: its shape operator (Weingarten map) in world axes, the change of
// the unit normal per tangential displacement, dn = W dx. W is symmetric, W n = 0, and for a
// convex surface (normal out of the material) positive: a sphere of radius R has W = (I - n nᵀ) / R,
// a spherical cavity -(I - n nᵀ) / R, a plane 0, a cylinder of radius R (axis a) (I - n nᵀ - a aᵀ) / R.
// Its eigenvalues in the tangent plane are the principal curvatures k1, k2 (docs/notation.md).
#pragma once

#include <Eigen/Core>

namespace surfdb {

class SurfaceBinding;

/// The shape operator (1/length) from a surface's first derivatives dp/du, dp/dv (length per
/// parameter) and its unit normal's dn/du, dn/dv at a point with unit normal n: W [p_u p_v] =
/// [n_u n_v] solved in the tangent plane, then made symmetric (an interpolated normal field need
/// not be exactly the derivative of the interpolated point's). All vectors in one frame; W in it.
/// Zero where p_u and p_v are parallel (a pole).
Eigen::Matrix3d shape_operator(const Eigen::Vector3d& p_u, const Eigen::Vector3d& p_v, const Eigen::Vector3d& n_u,
                               const Eigen::Vector3d& n_v, const Eigen::Vector3d& n);

/// A table's shape operator at (u, v), in its surface axes and per file unit: the bilinear blend of
/// the shape operators of the four grid cells around (u, v), each from the cell's derivatives at
/// its centre (shape_operator above), turned into the tangent plane of unit normal n there by the
/// least rotation taking the centre's normal to n. A
/// cell's own derivatives give one value over the whole cell, first order in the cell size where
/// the curvature varies and discontinuous at its edges; the blend is continuous and second order.
/// Cells beyond a non-periodic edge are the edge's. Queries hold the binding's window.
Eigen::Matrix3d blended_shape_operator(SurfaceBinding& binding, double u, double v, const Eigen::Vector3d& n);

/// A sphere's (radius > 0) or a spherical cavity's (radius < 0) at a point with unit normal n.
inline Eigen::Matrix3d sphere_shape_operator(const Eigen::Vector3d& n, double radius) {
  return (Eigen::Matrix3d::Identity() - n * n.transpose()) / radius;
}

/// The shape operators of both surfaces at a contact's two points, world axes, 1/m.
struct ContactShapes {
  Eigen::Matrix3d i = Eigen::Matrix3d::Zero(), j = Eigen::Matrix3d::Zero();
};

}  // namespace surfdb
