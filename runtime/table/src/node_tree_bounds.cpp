// The node tree's build: the grid lines records begin on, read by read calls, a sphere per record
// and the quadtree over them.
#include <span>

#include "node_tree_impl.hpp"

namespace surfdb {
namespace {

using node_tree_detail::Sphere;

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
                                     std::uint64_t j1, Eigen::Vector3d& low, Eigen::Vector3d& high) const {
  low = Eigen::Vector3d::Constant(INFINITY), high = -low;
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
  const double allowance = std::min(0.5 * length, 2 * sagitta(curvature, length)) + 0.01 * std::max(length, along);
  s.radius += allowance;
  low.array() -= allowance, high.array() += allowance;
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
  // The box of the records' boxes: a plane's is its nodes' and a small allowance, where the box
  // of its records' spheres would stand half a record off the plane.
  d.low = Eigen::Vector3d::Constant(INFINITY), d.high = -d.low;
  for (std::uint64_t a = 0; a < l.u_records; ++a)
    for (std::uint64_t b = 0; b < l.v_records; ++b) {
      const std::uint64_t j0 = b * l.v_record_points, j1 = std::min(j0 + l.v_record_points, l.v_points - 1);
      const std::size_t last = std::min<std::size_t>(a + 1, lines.size() - 1);
      const double du_lines = h.u_at(std::min(a * l.u_record_points + l.u_record_points, l.u_points - 1)) - h.u_at(a * l.u_record_points);
      Eigen::Vector3d low, high;
      records[a * l.v_records + b] = d.record_bounds(lines[a], lines[last], du_lines, j0, j1, low, high);
      d.low = d.low.cwiseMin(low), d.high = d.high.cwiseMax(high);
    }
  const Sphere all = enclose(records);
  d.centre = all.centre, d.radius = all.radius;
  if (!std::isfinite(all.radius))  // some record unbounded: so is the box
    d.low = Eigen::Vector3d::Constant(-INFINITY), d.high = -d.low;
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

}  // namespace surfdb
