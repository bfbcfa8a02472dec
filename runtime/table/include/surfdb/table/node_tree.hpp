// A k-d tree (nanoflann) over valid grid nodes of a database, thinned to about 65,000 nodes (every
// k-th along u and v, the last ones always): the global initial guess for projections and first
// contacts. Read-only model data, built once per database and shareable.
#pragma once

#include <Eigen/Core>
#include <memory>

#include "surfdb/formats/record_layout.hpp"
#include "surfdb/table/database.hpp"

namespace surfdb {

/// The interpolated surface strays from the nodes a tree holds (thinned, at most every k-th) by
/// far less than this fraction of the tree's bounding radius, for any table fine enough to use:
/// bounds for rejecting distant surfaces are grown by it.
inline constexpr double kInterpolationBulge = 0.01;

class NodeTree {
 public:
  /// Reads every data record once (verifying it). Throws FormatError when a record is damaged or
  /// no node is valid.
  static std::shared_ptr<const NodeTree> build(const Database& db);
  ~NodeTree();

  /// The valid node of the tree nearest to x (file length unit).
  NodeIndex nearest(const Eigen::Vector3d& x) const;

  /// Where a Newton solve for the foot point of x should start: the parameters (u, v) of the
  /// nearest node, moved by one linear step in the plane of the table's derivatives at that node
  /// (differences to the next grid nodes, kept when the tree was built), at most the tree's node
  /// spacing along each axis. The solve then starts about a cell from the answer, not up to half
  /// a node spacing away, and reads the table near the answer only.
  struct Start {
    Eigen::Vector2d uv;     // where Newton starts
    NodeIndex node;         // the nearest node of the tree
    Eigen::Vector3d point;  // its point (file unit): the nearest point is no farther from x than it
  };
  Start start(const Eigen::Vector3d& x) const;

  /// The nodes of the tree, for coarse searches: point (file unit) and grid index of node k.
  std::size_t size() const;
  Eigen::Vector3d point(std::size_t k) const;
  NodeIndex node(std::size_t k) const;

  /// A sphere holding every valid node (file unit), for cheap rejection of distant pairs.
  const Eigen::Vector3d& bounding_centre() const;
  double bounding_radius() const;
  /// The box (table axes, file unit) holding every node of the tree, grown on every side by
  /// kInterpolationBulge times the bounding radius: the surface between the nodes lies inside.
  const Eigen::Vector3d& box_low() const;
  const Eigen::Vector3d& box_high() const;

 private:
  NodeTree();
  std::size_t nearest_index(const Eigen::Vector3d& x) const;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace surfdb
