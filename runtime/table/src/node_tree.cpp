#include "surfdb/table/node_tree.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <span>
#include <vector>

#include "surfdb/formats/error.hpp"
#include "surfdb/formats/scalar.hpp"

namespace surfdb {
namespace {

struct Sphere {
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  double radius = INFINITY;  // unbounded until shown otherwise
};

// The sphere around parts: centred on the box holding theirs.
Sphere enclose(std::span<const Sphere> parts) {
  Eigen::Vector3d low = Eigen::Vector3d::Constant(INFINITY), high = -low;
  for (const Sphere& s : parts) {
    if (!std::isfinite(s.radius)) return {};
    low = low.cwiseMin((s.centre.array() - s.radius).matrix());
    high = high.cwiseMax((s.centre.array() + s.radius).matrix());
  }
  Sphere out{0.5 * (low + high), 0};
  for (const Sphere& s : parts) out.radius = std::max(out.radius, (s.centre - out.centre).norm() + s.radius);
  return out;
}

// How far the surface over a cell can stray from the chord between its corners, from the
// curvature: the sagitta of an arc of curvature k over the chord.
double sagitta(double curvature, double chord) {
  const double half = 0.5 * curvature * chord;
  if (half < 1e-4) return curvature * chord * chord / 8;
  return half < 1 ? (1 - std::sqrt(1 - half * half)) / curvature : chord;
}

}  // namespace

struct NodeTree::Impl {
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
  // Reads go into `read` (record numbers), for release() when the search is done.
  template <class F>
  void for_each_node(std::uint64_t a, std::uint64_t b, std::uint64_t stride, std::vector<std::uint64_t>& read, F&& f) const {
    const RecordLayout& l = header.layout;
    read.push_back(l.record_number({a, b}));
    const std::uint8_t* record = db->record(read.back());
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
  void release(std::vector<std::uint64_t>& read) const {
    if (read.empty()) return;
    const auto [low, high] = std::minmax_element(read.begin(), read.end());
    db->release(*low, *high - *low + 1);
    read.clear();
  }
  // Record (a, b)'s tree nodes from the cache, filling it first if no other thread is; null when
  // another is filling it. Throws FormatError for a damaged record (left unfilled).
  const double* cached(std::uint64_t a, std::uint64_t b, std::vector<std::uint64_t>& read) const {
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
  Sphere record_bounds(const Line& first, const Line& last, double du_lines, std::uint64_t j0, std::uint64_t j1) const;
  void build_levels(std::vector<Sphere> records);
  struct NearestSearch;
  struct PairSearch;
};

// Lines i = 0, u_record_points, 2 u_record_points, ... and the last, read a record's part at a
// time by one read call each (docs/format.md: a line's nodes are consecutive in a record): some
// 1,400 calls for a 999 x 999 table in 27 x 27 records, unverified, where mapped pages would cost
// a page fault each.
std::vector<NodeTree::Impl::Line> NodeTree::Impl::read_lines() const {
  const RecordLayout& l = header.layout;
  std::vector<std::uint64_t> at;
  for (std::uint64_t i = 0; i < l.u_points; i += l.u_record_points) at.push_back(i);
  if (at.back() != l.u_points - 1) at.push_back(l.u_points - 1);
  const std::uint64_t node_bytes = std::uint64_t{l.column_count} * l.scalar_bytes;
  std::vector<std::uint8_t> buffer(l.v_record_points * node_bytes);
  std::vector<Line> lines(at.size());
  for (std::size_t k = 0; k < at.size(); ++k) {
    for (std::uint64_t b = 0; b < l.v_records; ++b) {
      const NodeIndex first{at[k], b * l.v_record_points};
      const std::uint64_t count = std::min<std::uint64_t>(l.v_record_points, l.v_points - first.j);
      db->copy(l.record_offset(record_of(first)) + l.slot_of_node(first) * node_bytes,
               std::span(buffer.data(), count * node_bytes));
      for (std::uint64_t m = 0; m < count; ++m) {
        const std::uint8_t* node = buffer.data() + m * node_bytes;
        lines[k].p.push_back(point(node));
        lines[k].curvature.push_back(ck1 >= 0 && ck2 >= 0 ? std::max(std::abs(value(node, ck1)), std::abs(value(node, ck2))) : 0.0);
        lines[k].speed.push_back(csu >= 0 ? std::abs(value(node, csu)) : 0.0);
      }
    }
  }
  return lines;
}

// The cell of the record grid between two read lines, from node j0 to j1 (the next record's first,
// or the last): a sphere around the lines' nodes there, grown for the nodes between the lines,
// unread. A curve along u from one line to the other is about du_lines |ds/du| long, so none of
// its points lies farther than half that from the nearer line; where the nodes' curvature says the
// curve bends little, by twice the sagitta of that length instead. And by 1 % of the cell.
Sphere NodeTree::Impl::record_bounds(const Line& first, const Line& last, double du_lines, std::uint64_t j0,
                                     std::uint64_t j1) const {
  Eigen::Vector3d low = Eigen::Vector3d::Constant(INFINITY), high = -low;
  double curvature = 0, across = 0, speed = 0;
  for (std::uint64_t j = j0; j <= j1; ++j) {
    low = low.cwiseMin(first.p[j]).cwiseMin(last.p[j]);
    high = high.cwiseMax(first.p[j]).cwiseMax(last.p[j]);
    curvature = std::max({curvature, first.curvature[j], last.curvature[j]});
    speed = std::max({speed, first.speed[j], last.speed[j]});
    across = std::max(across, (last.p[j] - first.p[j]).norm());
  }
  Sphere s{0.5 * (low + high), 0};
  for (std::uint64_t j = j0; j <= j1; ++j)
    s.radius = std::max({s.radius, (first.p[j] - s.centre).norm(), (last.p[j] - s.centre).norm()});
  // The speed may vary between the lines: 1.5 times the larger at either end.
  const double length = std::max(across, 1.5 * speed * du_lines);
  const double along = std::max((first.p[j1] - first.p[j0]).norm(), (last.p[j1] - last.p[j0]).norm());
  s.radius += std::min(0.5 * length, 2 * sagitta(curvature, length)) + 0.01 * std::max(length, along);
  if (!s.centre.allFinite() || !std::isfinite(s.radius)) return {};
  return s;
}

void NodeTree::Impl::build_levels(std::vector<Sphere> records) {
  dims.push_back({header.layout.u_records, header.layout.v_records});
  levels.push_back(std::move(records));
  while (dims.back()[0] > 1 || dims.back()[1] > 1) {
    const auto [rows, columns] = dims.back();
    const std::array<std::uint64_t, 2> up{(rows + 1) / 2, (columns + 1) / 2};
    std::vector<Sphere> merged(up[0] * up[1]);
    for (std::uint64_t a = 0; a < up[0]; ++a)
      for (std::uint64_t b = 0; b < up[1]; ++b) {
        std::array<Sphere, 4> parts;
        std::size_t n = 0;
        for (std::uint64_t ca = 2 * a; ca < std::min(2 * a + 2, rows); ++ca)
          for (std::uint64_t cb = 2 * b; cb < std::min(2 * b + 2, columns); ++cb) parts[n++] = sphere(levels.size() - 1, ca, cb);
        merged[a * up[1] + b] = enclose(std::span(parts.data(), n));
      }
    dims.push_back(up);
    levels.push_back(std::move(merged));
  }
}

NodeTree::NodeTree() : impl_(std::make_unique<Impl>()) {}
NodeTree::~NodeTree() = default;

std::shared_ptr<const NodeTree> NodeTree::build(const Database& db) {
  std::shared_ptr<NodeTree> tree(new NodeTree());
  Impl& d = *tree->impl_;
  d.db = &db;
  d.header = db.header();
  const Header& h = d.header;
  d.cx = column_offset(h, Column::x), d.cy = column_offset(h, Column::y), d.cz = column_offset(h, Column::z);
  d.cnx = column_offset(h, Column::nx), d.cny = column_offset(h, Column::ny), d.cnz = column_offset(h, Column::nz);
  d.cf = column_offset(h, Column::flags), d.ck1 = column_offset(h, Column::k1), d.ck2 = column_offset(h, Column::k2);
  d.csu = column_offset(h, Column::su_norm);
  const RecordLayout& l = h.layout;
  const std::vector<Impl::Line> lines = d.read_lines();
  std::vector<Sphere> records(l.data_records);
  for (std::uint64_t a = 0; a < l.u_records; ++a)
    for (std::uint64_t b = 0; b < l.v_records; ++b) {
      const std::uint64_t j0 = b * l.v_record_points, j1 = std::min(j0 + l.v_record_points, l.v_points - 1);
      const std::size_t last = std::min<std::size_t>(a + 1, lines.size() - 1);
      const double du_lines = h.u_at(std::min(a * l.u_record_points + l.u_record_points, l.u_points - 1)) - h.u_at(a * l.u_record_points);
      records[a * l.v_records + b] = d.record_bounds(lines[a], lines[last], du_lines, j0, j1);
    }
  const Sphere all = enclose(records);
  d.centre = all.centre, d.radius = all.radius;
  d.low = Eigen::Vector3d::Constant(std::isfinite(all.radius) ? INFINITY : -INFINITY), d.high = -d.low;
  if (std::isfinite(all.radius))
    for (const Sphere& s : records) {
      d.low = d.low.cwiseMin((s.centre.array() - s.radius).matrix());
      d.high = d.high.cwiseMax((s.centre.array() + s.radius).matrix());
    }
  // About 50 nodes of a record in a search: Newton finishes from a few cells.
  d.stride = std::max<std::uint64_t>(1, std::llround(std::sqrt(double(l.points_per_record()) / 50)));
  d.tree_u = (l.u_record_points + d.stride - 1) / d.stride, d.tree_v = (l.v_record_points + d.stride - 1) / d.stride;
  d.cache = std::make_unique_for_overwrite<double[]>(3 * d.tree_u * d.tree_v * l.data_records);
  d.cache_state = std::make_unique<std::atomic<std::uint8_t>[]>(l.data_records);
  d.build_levels(std::move(records));
  return tree;
}

const Eigen::Vector3d& NodeTree::bounding_centre() const { return impl_->centre; }
double NodeTree::bounding_radius() const { return impl_->radius; }
const Eigen::Vector3d& NodeTree::box_low() const { return impl_->low; }
const Eigen::Vector3d& NodeTree::box_high() const { return impl_->high; }
std::pair<Eigen::Vector3d, double> NodeTree::record_sphere(std::uint64_t number) const {
  const Sphere& s = impl_->levels.at(0).at(number - 1);
  return {s.centre, s.radius};
}

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
  std::vector<std::uint64_t>& read;

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
  std::vector<std::uint64_t> read;  // left mapped: a projection's next search reads them again
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
  std::vector<std::uint64_t> read_here, read_there;

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
