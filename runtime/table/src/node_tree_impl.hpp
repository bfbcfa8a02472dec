// The node tree's model data (NodeTree::Impl), shared by its build (node_tree_bounds.cpp) and its
// searches (node_tree.cpp). Private to the table library.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "surfdb/formats/scalar.hpp"
#include "surfdb/table/node_tree.hpp"

namespace surfdb {
namespace node_tree_detail {

// The span of record numbers a search read, for releasing them by one call.
struct ReadSpan {
  std::uint64_t low = UINT64_MAX, high = 0;
  void add(std::uint64_t number) { low = std::min(low, number), high = std::max(high, number); }
};

struct Sphere {
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  double radius = INFINITY;  // unbounded until shown otherwise
};

}  // namespace node_tree_detail

struct NodeTree::Impl {
  using Sphere = node_tree_detail::Sphere;
  const Database* db = nullptr;
  Header header;
  int cx = 0, cy = 0, cz = 0, cnx = 0, cny = 0, cnz = 0, cf = -1, ck1 = -1, ck2 = -1, csu = -1;
  std::vector<std::vector<Sphere>> levels;            // levels[0]: record number - 1; then merged 2 x 2
  std::vector<std::array<std::uint64_t, 2>> dims;      // rows (along u) and columns of each level
  std::uint64_t stride = 1;                            // searches: every stride-th node of a record
  // A record's tree nodes copied together the first time a nearest-node search scans it: x y z per
  // node (x NaN where invalid or past the grid), u-major. Scans then read a few cache lines, not a
  // cache line a node from the mapped file. The thread that claims a record (state 0 -> 1) fills
  // and publishes it (2); others scan the record itself meanwhile.
  std::uint64_t tree_u = 1, tree_v = 1;                // tree nodes of a record along u and v
  std::unique_ptr<double[]> cache;
  std::unique_ptr<std::atomic<std::uint8_t>[]> cache_state;
  Eigen::Vector3d centre = Eigen::Vector3d::Zero(), low = centre, high = centre;
  double radius = 0;

  double value(const std::uint8_t* node, int column) const {
    return load_scalar(node, header.layout.scalar_bytes, column);
  }
  Eigen::Vector3d point(const std::uint8_t* node) const { return {value(node, cx), value(node, cy), value(node, cz)}; }
  Eigen::Vector3d normal(const std::uint8_t* node) const { return {value(node, cnx), value(node, cny), value(node, cnz)}; }
  bool valid(const std::uint8_t* node) const {
    return cf < 0 || (static_cast<std::uint32_t>(value(node, cf)) & point_flags::valid);
  }
  const std::uint8_t* node_in(const std::uint8_t* record, NodeIndex n) const {
    const RecordLayout& l = header.layout;
    return record + l.slot_of_node(n) * l.column_count * l.scalar_bytes;
  }
  std::uint64_t record_of(NodeIndex n) const {
    const RecordLayout& l = header.layout;
    return l.record_number({n.i / l.u_record_points, n.j / l.v_record_points});
  }
  // A node of a verified record.
  const std::uint8_t* verified(NodeIndex n) const { return node_in(db->record(record_of(n)), n); }
  const Sphere& sphere(std::size_t level, std::uint64_t a, std::uint64_t b) const {
    return levels[level][a * dims[level][1] + b];
  }
  // The nodes of record (a, b) that lie on the grid, visited as f(node index, node bytes).
  // Reads widen `read`, for release() when the search is done.
  template <class F>
  void for_each_node(std::uint64_t a, std::uint64_t b, std::uint64_t stride, node_tree_detail::ReadSpan& read, F&& f) const {
    const RecordLayout& l = header.layout;
    const std::uint64_t number = l.record_number({a, b});
    read.add(number);
    const std::uint8_t* record = db->record(number);
    for (std::uint64_t li = 0; li < l.u_record_points; li += stride)
      for (std::uint64_t lj = 0; lj < l.v_record_points; lj += stride) {
        const NodeIndex n{a * l.u_record_points + li, b * l.v_record_points + lj};
        if (n.i >= l.u_points || n.j >= l.v_points) continue;
        const std::uint8_t* node = node_in(record, n);
        if (valid(node)) f(n, node);
      }
  }
  // The grid lines records begin on, and the last: every node's point and larger curvature.
  struct Line {
    std::vector<Eigen::Vector3d> p;
    std::vector<double> curvature;  // the larger principal curvature's magnitude, 0 if not stored
    std::vector<double> speed;      // |ds/du|, 0 if not stored
  };
  std::vector<Line> read_lines() const;
  // A search's records leave resident memory by one call over the span of their numbers: a call
  // costs a TLB flush (tens of microseconds here), while a record of a window inside the span
  // that loses its pages only maps them again from the page cache.
  void release(const node_tree_detail::ReadSpan& read) const {
    if (read.low <= read.high) db->release(read.low, read.high - read.low + 1);
  }
  // Record (a, b)'s tree nodes from the cache, filling it first if no other thread is; null when
  // another is filling it. Throws FormatError for a damaged record (left unfilled).
  const double* cached(std::uint64_t a, std::uint64_t b, node_tree_detail::ReadSpan& read) const {
    const std::uint64_t k = a * header.layout.v_records + b;
    double* out = cache.get() + 3 * tree_u * tree_v * k;
    std::uint8_t state = cache_state[k].load(std::memory_order_acquire);
    if (state == 2) return out;
    if (state != 0 || !cache_state[k].compare_exchange_strong(state, 1, std::memory_order_acq_rel)) return nullptr;
    std::fill(out, out + 3 * tree_u * tree_v, NAN);
    try {
      for_each_node(a, b, stride, read, [&](NodeIndex n, const std::uint8_t* node) {
        const std::uint64_t m = (n.i % header.layout.u_record_points) / stride * tree_v + (n.j % header.layout.v_record_points) / stride;
        const Eigen::Vector3d p = point(node);
        out[3 * m] = p.x(), out[3 * m + 1] = p.y(), out[3 * m + 2] = p.z();
      });
    } catch (...) {
      cache_state[k].store(0, std::memory_order_release);
      throw;
    }
    cache_state[k].store(2, std::memory_order_release);
    return out;
  }
  /// A record's sphere, and its box (low, high) grown by the same allowance for the unread lines.
  Sphere record_bounds(const Line& first, const Line& last, double du_lines, std::uint64_t j0, std::uint64_t j1,
                       Eigen::Vector3d& low, Eigen::Vector3d& high) const;
  void build_levels(std::vector<Sphere> records);
  struct NearestSearch;
  struct PairSearch;
};

}  // namespace surfdb
