// What the converter stores per grid node, computed from the exact derivatives: the frame
// (n, t, b), the derivative lengths and the signed principal curvatures (docs/notation.md).
#pragma once

#include <Eigen/Geometry>

#include "surfdb/libsurfdb/surface_source.hpp"

namespace surfdb {

struct NodeGeometry {
  Eigen::Vector3d p, n, t, b;
  double su_norm = 0, sv_norm = 0;
  double k1 = 0, k2 = 0;  // k1 >= k2; > 0 where the surface curves away from n (convex seen from n)
  bool degenerate = false;  // the frame is a limit: ds/du x ds/dv vanishes here (pole)
};

/// Thrown when no frame can be defined at a node, not even as a limit.
class DegenerateGeometry : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Geometry at (u,v). `normal_sign` is -1 to turn n (and with it b and the curvature signs)
/// around, for a reversed face or on request. At a pole the frame is the limit taken from inside
/// the parameter rectangle and `degenerate` is set.
NodeGeometry node_geometry(const SurfaceSource& s, const ParamBounds& bounds, double u, double v,
                           double normal_sign);

/// The same from the node's derivatives `d`, which the caller evaluated (SurfaceSource::d2_block);
/// `s` is asked only at a pole, for points near it.
NodeGeometry node_geometry(const SurfaceSource& s, const ParamBounds& bounds, const SurfaceD2& d, double u,
                           double v, double normal_sign);

}  // namespace surfdb
