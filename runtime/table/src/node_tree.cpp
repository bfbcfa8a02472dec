#include "surfdb/table/node_tree.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <nanoflann.hpp>
#include <vector>

#include "surfdb/formats/error.hpp"
#include "surfdb/formats/scalar.hpp"

namespace surfdb {
namespace {
constexpr double kTargetNodes = 65536;  // about 1.5 MB of points
}

struct NodeTree::Impl {
  // nanoflann's dataset interface over the node points.
  struct Points {
    std::vector<double> xyz;          // 3 per node
    std::vector<std::uint64_t> node;  // i * v_points + j
    std::size_t kdtree_get_point_count() const { return node.size(); }
    double kdtree_get_pt(std::size_t k, std::size_t dim) const { return xyz[3 * k + dim]; }
    template <class Box>
    bool kdtree_get_bbox(Box&) const { return false; }
  };
  using Tree = nanoflann::KDTreeSingleIndexAdaptor<nanoflann::L2_Simple_Adaptor<double, Points>,
                                                   Points, 3, std::size_t>;
  Points points;
  std::vector<double> derivatives;  // dp/du, dp/dv of node k at 6k: differences to the next node
  std::unique_ptr<Tree> tree;
  Header header;
  std::uint64_t stride = 1;  // every stride-th grid node along u and v is in the tree
  Eigen::Vector3d centre = Eigen::Vector3d::Zero(), low = centre, high = centre;
  double radius = 0;
};

NodeTree::NodeTree() : impl_(std::make_unique<Impl>()) {}
NodeTree::~NodeTree() = default;

std::shared_ptr<const NodeTree> NodeTree::build(const Database& db) {
  const Header& h = db.header();
  const RecordLayout& l = h.layout;
  const int cx = column_offset(h, Column::x), cy = column_offset(h, Column::y),
            cz = column_offset(h, Column::z), cf = column_offset(h, Column::flags);
  std::shared_ptr<NodeTree> tree(new NodeTree());
  Impl& d = *tree->impl_;
  d.header = h;
  const auto value = [&](const std::uint8_t* node, int column) { return load_scalar(node, l.scalar_bytes, column); };
  // A node's point, read through db.record: a neighbour may lie in another record than the one
  // being scanned, whose pages then go again at once.
  std::uint64_t scanning = 0;
  const auto point_at = [&](NodeIndex n) {
    const std::uint64_t number = l.record_number({n.i / l.u_record_points, n.j / l.v_record_points});
    const std::uint8_t* at = db.record(number) + l.slot_of_node(n) * l.column_count * l.scalar_bytes;
    const Eigen::Vector3d p(value(at, cx), value(at, cy), value(at, cz));
    if (number != scanning) db.release(number);
    return p;
  };
  // Every stride-th node along u and v: a tree small enough to stay in cache. Newton, which
  // steps several cells at a time, finishes from a node at most a few cells from the answer.
  const std::uint64_t stride = d.stride = std::max<std::uint64_t>(
      1, static_cast<std::uint64_t>(std::ceil(std::sqrt(double(l.u_points) * double(l.v_points) / kTargetNodes))));
  const auto kept = [&](std::uint64_t i, std::uint64_t n) { return i % stride == 0 || i + 1 == n; };
  for (std::uint64_t k = 1; k <= l.data_records; ++k) {
    const std::uint8_t* record = db.record(k);
    const RecordIndex r = l.record_index(k);
    scanning = k;
    for (std::uint64_t li = 0; li < l.u_record_points; ++li) {
      for (std::uint64_t lj = 0; lj < l.v_record_points; ++lj) {
        const NodeIndex n{r.ti * l.u_record_points + li, r.tj * l.v_record_points + lj};
        if (n.i >= l.u_points || n.j >= l.v_points || !kept(n.i, l.u_points) || !kept(n.j, l.v_points)) continue;
        const std::uint8_t* at = record + l.slot_of_node(n) * l.column_count * l.scalar_bytes;
        if (cf >= 0 && !(static_cast<std::uint32_t>(value(at, cf)) & point_flags::valid)) continue;
        const Eigen::Vector3d p(value(at, cx), value(at, cy), value(at, cz));
        d.points.xyz.insert(d.points.xyz.end(), {p.x(), p.y(), p.z()});
        d.points.node.push_back(n.i * l.v_points + n.j);
        // Forward differences, backward on the last grid line: the bilinear table's own slopes.
        const Eigen::Vector3d p_u = n.i + 1 < l.u_points ? (point_at({n.i + 1, n.j}) - p) / h.du
                                                         : (p - point_at({n.i - 1, n.j})) / h.du;
        const Eigen::Vector3d p_v = n.j + 1 < l.v_points ? (point_at({n.i, n.j + 1}) - p) / h.dv
                                                         : (p - point_at({n.i, n.j - 1})) / h.dv;
        d.derivatives.insert(d.derivatives.end(), {p_u.x(), p_u.y(), p_u.z(), p_v.x(), p_v.y(), p_v.z()});
      }
    }
    db.release(k);
  }
  if (d.points.node.empty()) throw FormatError(db.path().string() + ": no valid grid node");
  Eigen::Vector3d lo = Eigen::Vector3d::Constant(INFINITY), hi = -lo;
  for (std::size_t k = 0; k < d.points.node.size(); ++k) {
    lo = lo.cwiseMin(tree->point(k));
    hi = hi.cwiseMax(tree->point(k));
  }
  d.centre = 0.5 * (lo + hi);
  for (std::size_t k = 0; k < d.points.node.size(); ++k) d.radius = std::max(d.radius, (tree->point(k) - d.centre).norm());
  d.low = lo.array() - kInterpolationBulge * d.radius;
  d.high = hi.array() + kInterpolationBulge * d.radius;
  d.tree = std::make_unique<Impl::Tree>(3, d.points, nanoflann::KDTreeSingleIndexAdaptorParams(16));
  d.tree->buildIndex();
  return tree;
}

std::size_t NodeTree::size() const { return impl_->points.node.size(); }
Eigen::Vector3d NodeTree::point(std::size_t k) const {
  const double* x = impl_->points.xyz.data() + 3 * k;
  return {x[0], x[1], x[2]};
}
NodeIndex NodeTree::node(std::size_t k) const {
  return {impl_->points.node[k] / impl_->header.layout.v_points, impl_->points.node[k] % impl_->header.layout.v_points};
}
const Eigen::Vector3d& NodeTree::bounding_centre() const { return impl_->centre; }
double NodeTree::bounding_radius() const { return impl_->radius; }
const Eigen::Vector3d& NodeTree::box_low() const { return impl_->low; }
const Eigen::Vector3d& NodeTree::box_high() const { return impl_->high; }

std::size_t NodeTree::nearest_index(const Eigen::Vector3d& x) const {
  std::size_t k = 0;
  double distance2 = 0;
  nanoflann::KNNResultSet<double, std::size_t> result(1);
  result.init(&k, &distance2);
  impl_->tree->findNeighbors(result, x.data(), nanoflann::SearchParams());
  return k;
}

NodeIndex NodeTree::nearest(const Eigen::Vector3d& x) const { return node(nearest_index(x)); }

NodeTree::Start NodeTree::start(const Eigen::Vector3d& x) const {
  const std::size_t k = nearest_index(x);
  const NodeIndex n = node(k);
  const Header& h = impl_->header;
  const Eigen::Vector2d at(h.u_at(n.i), h.v_at(n.j));
  // Least squares in the tangent plane: [p_u p_v] (du, dv) = x - p.
  const Eigen::Map<const Eigen::Vector3d> p_u(impl_->derivatives.data() + 6 * k), p_v(p_u.data() + 3);
  const Eigen::Vector3d r = x - point(k);
  const double guu = p_u.dot(p_u), guv = p_u.dot(p_v), gvv = p_v.dot(p_v), det = guu * gvv - guv * guv;
  const Eigen::Vector2d step = Eigen::Vector2d(gvv * p_u.dot(r) - guv * p_v.dot(r), guu * p_v.dot(r) - guv * p_u.dot(r)) / det;
  if (!step.allFinite()) return {at, n, point(k)};  // a degenerate node (pole): start on it
  const double reach = static_cast<double>(impl_->stride);  // no farther than the next tree node
  return {{at.x() + std::clamp(step.x(), -reach * h.du, reach * h.du),
           at.y() + std::clamp(step.y(), -reach * h.dv, reach * h.dv)},
          n,
          point(k)};
}

}  // namespace surfdb
