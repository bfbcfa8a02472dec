// The node tree's searches: the nearest tree node to a point, the closest tree nodes of two
// tables, descending the quadtree of record spheres.
#include "surfdb/formats/error.hpp"
#include "node_tree_impl.hpp"

namespace surfdb {

using node_tree_detail::Sphere;

namespace {

// The children of quadtree cell (level, a, b) on level - 1, nearest first by gap(sphere).
struct Children {
  std::array<std::pair<double, std::array<std::uint64_t, 2>>, 4> cells;
  std::size_t count = 0;
  template <class Impl, class Gap>
  Children(const Impl& d, std::size_t level, std::uint64_t a, std::uint64_t b, Gap&& gap) {
    const auto [rows, columns] = d.dims[level - 1];
    for (std::uint64_t ca = 2 * a; ca < std::min(2 * a + 2, rows); ++ca)
      for (std::uint64_t cb = 2 * b; cb < std::min(2 * b + 2, columns); ++cb) {
        const double g = gap(d.sphere(level - 1, ca, cb));
        std::size_t k = count++;  // insertion: at most four
        for (; k > 0 && cells[k - 1].first > g; --k) cells[k] = cells[k - 1];
        cells[k] = {g, {ca, cb}};
      }
  }
};

}  // namespace

struct NodeTree::Impl::NearestSearch {
  const Impl& d;
  Eigen::Vector3d x;
  double best2 = INFINITY;
  NodeIndex best;
  node_tree_detail::ReadSpan& read;

  double gap(const Sphere& s) const { return (x - s.centre).norm() - s.radius; }
  bool worth(double g) const { return g <= 0 || g * g < best2; }
  void scan(std::uint64_t a, std::uint64_t b) {
    const double* nodes = d.cached(a, b, read);
    if (!nodes) {
      d.for_each_node(a, b, d.stride, read, [&](NodeIndex n, const std::uint8_t* node) {
        const double d2 = (d.point(node) - x).squaredNorm();
        if (d2 < best2) best2 = d2, best = n;
      });
      return;
    }
    const RecordLayout& l = d.header.layout;
    for (std::uint64_t m = 0; m < d.tree_u * d.tree_v; ++m) {
      const double d2 = (Eigen::Map<const Eigen::Vector3d>(nodes + 3 * m) - x).squaredNorm();
      if (d2 < best2)  // false for NaN: invalid nodes and those past the grid
        best2 = d2, best = {a * l.u_record_points + m / d.tree_v * d.stride, b * l.v_record_points + m % d.tree_v * d.stride};
    }
  }
  void descend(std::size_t level, std::uint64_t a, std::uint64_t b) {
    if (level == 0) return scan(a, b);
    const Children next(d, level, a, b, [&](const Sphere& s) { return gap(s); });
    for (std::size_t k = 0; k < next.count; ++k)
      if (worth(next.cells[k].first)) descend(level - 1, next.cells[k].second[0], next.cells[k].second[1]);
  }
};

NodeIndex NodeTree::nearest(const Eigen::Vector3d& x) const {
  node_tree_detail::ReadSpan read;  // left mapped: a projection's next search reads them again
  Impl::NearestSearch search{*impl_, x, INFINITY, {}, read};
  search.descend(impl_->levels.size() - 1, 0, 0);
  if (!std::isfinite(search.best2)) throw FormatError(impl_->db->path().string() + ": no valid grid node");
  return search.best;
}

NodeTree::Start NodeTree::start(const Eigen::Vector3d& x) const {
  const Impl& d = *impl_;
  const NodeIndex n = nearest(x);
  const Header& h = d.header;
  const RecordLayout& l = h.layout;
  const Eigen::Vector3d p = d.point(d.verified(n));
  const auto at = [&](std::uint64_t i, std::uint64_t j) { return d.point(d.verified({i, j})); };
  // Forward differences, backward on the last grid line: the bilinear table's own slopes.
  const Eigen::Vector3d p_u = n.i + 1 < l.u_points ? (at(n.i + 1, n.j) - p) / h.du : (p - at(n.i - 1, n.j)) / h.du;
  const Eigen::Vector3d p_v = n.j + 1 < l.v_points ? (at(n.i, n.j + 1) - p) / h.dv : (p - at(n.i, n.j - 1)) / h.dv;
  const Eigen::Vector2d uv(h.u_at(n.i), h.v_at(n.j));
  // Least squares in the tangent plane: [p_u p_v] (du, dv) = x - p.
  const Eigen::Vector3d r = x - p;
  const double guu = p_u.dot(p_u), guv = p_u.dot(p_v), gvv = p_v.dot(p_v), det = guu * gvv - guv * guv;
  const Eigen::Vector2d step = Eigen::Vector2d(gvv * p_u.dot(r) - guv * p_v.dot(r), guu * p_v.dot(r) - guv * p_u.dot(r)) / det;
  if (!step.allFinite()) return {uv, n, p};  // a degenerate node (pole): start on it
  const double reach = static_cast<double>(d.stride);  // no farther than the next tree node
  return {{uv.x() + std::clamp(step.x(), -reach * h.du, reach * h.du), uv.y() + std::clamp(step.y(), -reach * h.dv, reach * h.dv)},
          n,
          p};
}

struct NodeTree::Impl::PairSearch {
  const Impl& here;
  const Impl& there;
  const NodeTree::Similarity& map;  // here's points into there's axes
  double best_distance = INFINITY;  // the closest node pair so far
  NodeTree::NodePair best{{}, {}, INFINITY};
  std::vector<double> nodes;        // there's record being compared: x y z nx ny nz per valid node
  std::vector<NodeIndex> indices;
  node_tree_detail::ReadSpan read_here, read_there;

  // Spheres whose gap is no less than the closest distance found hold no closer pair. Where the
  // tables overlap, the pairs compared are those near where they cross, and the deepest of their
  // nodes starts Newton: searching on for the deepest node of all would compare every pair
  // of records within that depth, without bound for large parts sunk into each other.
  bool worth(double gap) const { return gap < best_distance; }
  double gap(const Sphere& h, const Sphere& t) const {
    return (map(h.centre) - t.centre).norm() - map.scale * h.radius - t.radius;
  }
  void visit(std::size_t lh, std::uint64_t ah, std::uint64_t bh, std::size_t lt, std::uint64_t at, std::uint64_t bt) {
    if (lh == 0 && lt == 0) return compare(ah, bh, at, bt);
    const Sphere &sh = here.sphere(lh, ah, bh), &st = there.sphere(lt, at, bt);
    if (lt == 0 || (lh > 0 && map.scale * sh.radius >= st.radius)) {  // split the larger
      const Children next(here, lh, ah, bh, [&](const Sphere& s) { return gap(s, st); });
      for (std::size_t k = 0; k < next.count; ++k)
        if (worth(next.cells[k].first)) visit(lh - 1, next.cells[k].second[0], next.cells[k].second[1], lt, at, bt);
    } else {
      const Children next(there, lt, at, bt, [&](const Sphere& s) { return gap(sh, s); });
      for (std::size_t k = 0; k < next.count; ++k)
        if (worth(next.cells[k].first)) visit(lh, ah, bh, lt - 1, next.cells[k].second[0], next.cells[k].second[1]);
    }
  }
  void compare(std::uint64_t ah, std::uint64_t bh, std::uint64_t at, std::uint64_t bt) {
    nodes.clear(), indices.clear();
    there.for_each_node(at, bt, there.stride, read_there, [&](NodeIndex n, const std::uint8_t* node) {
      const Eigen::Vector3d p = there.point(node), nn = there.normal(node);
      nodes.insert(nodes.end(), {p.x(), p.y(), p.z(), nn.x(), nn.y(), nn.z()});
      indices.push_back(n);
    });
    if (indices.empty()) return;
    here.for_each_node(ah, bh, here.stride, read_here, [&](NodeIndex n, const std::uint8_t* node) {
      const Eigen::Vector3d x = map(here.point(node));
      double nearest2 = INFINITY;
      std::size_t k = 0;
      for (std::size_t m = 0; m < indices.size(); ++m) {
        const double d2 = (x - Eigen::Map<const Eigen::Vector3d>(&nodes[6 * m])).squaredNorm();
        if (d2 < nearest2) nearest2 = d2, k = m;
      }
      const double distance = std::sqrt(nearest2);
      best_distance = std::min(best_distance, distance);
      if (signed_distance(x, Eigen::Map<const Eigen::Vector3d>(&nodes[6 * k]),
                          Eigen::Map<const Eigen::Vector3d>(&nodes[6 * k + 3])) >= best.separation)
        return;
      // Nearest in this record of the other, x may lie behind a node of its far side: the
      // separation counts from the other's nearest tree node, this record's a first bound.
      NearestSearch nearest{there, x, nearest2, indices[k], read_there};
      nearest.descend(there.levels.size() - 1, 0, 0);
      const std::uint8_t* y = there.verified(nearest.best);
      const double separation = signed_distance(x, there.point(y), there.normal(y));
      if (separation < best.separation) best = {n, nearest.best, separation};
    });
  }
  // |x - y|, negative when x lies behind y along y's normal n.
  static double signed_distance(const Eigen::Vector3d& x, const Eigen::Vector3d& y, const Eigen::Vector3d& n) {
    const double distance = (x - y).norm();
    return (x - y).dot(n) < 0 ? -distance : distance;
  }
};

NodeTree::NodePair NodeTree::closest(const NodeTree& other, const Similarity& this_to_other) const {
  Impl::PairSearch search{*impl_, *other.impl_, this_to_other, INFINITY, {{}, {}, INFINITY}, {}, {}, {}, {}};
  search.visit(impl_->levels.size() - 1, 0, 0, other.impl_->levels.size() - 1, 0, 0);
  impl_->release(search.read_here);
  other.impl_->release(search.read_there);
  if (!std::isfinite(search.best.separation))
    throw FormatError(impl_->db->path().string() + " and " + other.impl_->db->path().string() +
                      ": no valid grid node on one of them");
  return search.best;
}

}  // namespace surfdb
