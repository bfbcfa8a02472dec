// Bounding spheres over a database's records, in a quadtree over the record grid: the coarse-to-fine
// path of every global search (the nearest node to a point; the closest nodes of two tables).
// Building it reads the grid lines records begin on (every 27th line of a 999 x 999 table in
// 27 x 27 records), by read calls and unverified: a few milliseconds, not a read of the file, so a
// table opens for contact at once. The records a search then descends into are read and verified
// like any query's, so a damaged record is still refused when a search would use it.
// Read-only model data, built once per database and shareable.
#pragma once

#include <Eigen/Core>
#include <memory>

#include "surfdb/formats/record_layout.hpp"
#include "surfdb/table/database.hpp"

namespace surfdb {

class NodeTree {
 public:
  /// Reads the lines records begin on. A record's sphere holds those lines' nodes over the record
  /// and the next record's first, grown by twice the sagitta the nodes' curvatures allow between
  /// the lines, and by 1 % of the cell: it holds the record's nodes and the interpolated cells
  /// joining them to the next records', any node counting, valid or not (they hold the untrimmed
  /// surface, docs/format.md). Non-finite values give an unbounded sphere: every search descends
  /// into the record, and its verification then refuses it.
  static std::shared_ptr<const NodeTree> build(const Database& db);
  ~NodeTree();

  /// The tree's nodes: every k-th node of a record along u and v (k about sqrt(nodes per record
  /// / 50): every 4th of 27 x 27, every node of records up to 10 x 10), the valid ones.
  ///
  /// The valid tree node nearest to x (file length unit), found by descending into the records
  /// whose spheres come closer than the best node so far; the records read stay mapped. Throws
  /// FormatError when a record it reads is damaged or the table has no valid node.
  NodeIndex nearest(const Eigen::Vector3d& x) const;

  /// Where a Newton solve for the foot point of x should start: the parameters (u, v) of the
  /// nearest tree node, moved by one linear step in the plane of the table's derivatives at that
  /// node (differences to the next grid nodes), at most the tree's node spacing along each axis.
  struct Start {
    Eigen::Vector2d uv;     // where Newton starts
    NodeIndex node;         // the nearest valid tree node
    Eigen::Vector3d point;  // its point (file unit): the nearest point is no farther from x than it
  };
  Start start(const Eigen::Vector3d& x) const;

  /// x_other = offset + scale * rotation * x_this: this table's points in another table's axes and
  /// unit.
  struct Similarity {
    Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
    double scale = 1;
    Eigen::Vector3d offset = Eigen::Vector3d::Zero();
    Eigen::Vector3d operator()(const Eigen::Vector3d& x) const { return offset + scale * (rotation * x); }
  };
  /// Two nodes, one of each table, from which a common-normal solve starts.
  struct NodePair {
    NodeIndex here, there;  // on this table, on the other
    double separation = 0;  // the other's file unit: the distance between them, negative when
                            // the node here lies behind the other's node (along its normal)
  };
  /// The pair of valid tree nodes (the other's the nearest to this one's) whose
  /// separation is least, among the records whose spheres come within the closest distance found:
  /// apart, the closest nodes; overlapping, the deepest node here among the records near where
  /// the tables cross. The records read leave resident memory
  /// when it returns. Throws FormatError when a record it reads is damaged or a table has no valid
  /// node.
  NodePair closest(const NodeTree& other, const Similarity& this_to_other) const;

  /// A sphere holding every node and interpolated cell of the table (file unit), for cheap
  /// rejection of distant pairs.
  const Eigen::Vector3d& bounding_centre() const;
  double bounding_radius() const;
  /// The box (table axes, file unit) holding every record's nodes and the allowance its sphere has
  /// for the points between them: the surface lies inside.
  const Eigen::Vector3d& box_low() const;
  const Eigen::Vector3d& box_high() const;

  /// The sphere of data record `number` (1-based), for tests: centre and radius, file unit.
  std::pair<Eigen::Vector3d, double> record_sphere(std::uint64_t number) const;

 private:
  NodeTree();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace surfdb
