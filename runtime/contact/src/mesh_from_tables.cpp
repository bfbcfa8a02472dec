#include "surfdb/contact/mesh_from_tables.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <stdexcept>
#include <vector>

#include <Eigen/Geometry>

#include "surfdb/formats/header.hpp"
#include "surfdb/formats/scalar.hpp"

namespace surfdb {
namespace {

// The grid lines taken along one direction: every stride-th and the last.
std::vector<std::uint64_t> lines(std::uint64_t points, std::uint32_t stride) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t k = 0; k < points; k += stride) out.push_back(k);
  if (out.back() != points - 1) out.push_back(points - 1);
  return out;
}

// Nodes at one point (a periodic face's seam, a pole's collapsed line) made one vertex, so that
// the mesh closes there: positions equal to 1e-9 of the face's size. Returns, per vertex, the one
// it becomes.
std::vector<std::uint32_t> coincident(const std::vector<Eigen::Vector3d>& vertices) {
  Eigen::Vector3d lo = Eigen::Vector3d::Constant(INFINITY), hi = -lo;
  for (const Eigen::Vector3d& v : vertices) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
  const double cell = 1e-9 * std::max((hi - lo).norm(), 1e-300);
  std::vector<std::pair<std::array<std::int64_t, 3>, std::uint32_t>> keys;
  for (std::uint32_t v = 0; v < vertices.size(); ++v) {
    const Eigen::Vector3d q = ((vertices[v] - lo) / cell).array().round();
    keys.push_back({{static_cast<std::int64_t>(q.x()), static_cast<std::int64_t>(q.y()), static_cast<std::int64_t>(q.z())}, v});
  }
  std::sort(keys.begin(), keys.end());
  std::vector<std::uint32_t> same(vertices.size());
  for (std::size_t k = 0; k < keys.size(); ++k)
    same[keys[k].second] = k > 0 && keys[k].first == keys[k - 1].first ? same[keys[k - 1].second] : keys[k].second;
  return same;
}

}  // namespace

std::vector<std::uint64_t> grid_lines(std::uint64_t count, std::uint64_t most) {
  const std::uint64_t limit = std::max<std::uint64_t>(most, 2);
  const std::uint64_t stride = count <= limit ? 1 : (count - 1 + limit - 2) / (limit - 1);
  std::vector<std::uint64_t> lines;
  for (std::uint64_t i = 0; i + 1 < count; i += stride) lines.push_back(i);
  lines.push_back(count - 1);
  return lines;
}

FaceGrid face_grid(const Database& db, std::span<const std::uint64_t> us, std::span<const std::uint64_t> vs, bool join) {
  const Header& h = db.header();
  const RecordLayout& l = h.layout;
  const int x = column_offset(h, Column::x), nx = column_offset(h, Column::nx), flags = column_offset(h, Column::flags);
  constexpr std::uint32_t kInvalid = ~0u;
  FaceGrid grid;
  std::vector<std::uint32_t> index(us.size() * vs.size(), kInvalid);  // vertex per taken node
  for (std::size_t a = 0; a < us.size(); ++a) {
    for (std::size_t b = 0; b < vs.size(); ++b) {
      const NodeIndex n{us[a], vs[b]};
      const std::uint8_t* p = db.record(l.record_number(l.record_of_node(n))) +
                              l.slot_of_node(n) * l.column_count * l.scalar_bytes;
      const auto value = [&](int column) { return load_scalar(p, l.scalar_bytes, column); };
      if (flags >= 0 && !(static_cast<std::uint32_t>(value(flags)) & point_flags::valid)) continue;
      index[a * vs.size() + b] = static_cast<std::uint32_t>(grid.points.size());
      grid.points.emplace_back(value(x), value(x + 1), value(x + 2));
      grid.normals.emplace_back(value(nx), value(nx + 1), value(nx + 2));
    }
    const std::uint64_t row = us[a] / l.u_record_points;  // of records
    if (a + 1 == us.size() || us[a + 1] / l.u_record_points != row) db.release(l.record_number({row, 0}), l.v_records);
  }
  if (join) {
    const std::vector<std::uint32_t> same = coincident(grid.points);
    for (std::uint32_t& i : index)
      if (i != kInvalid) i = same[i];
  }
  for (std::size_t a = 0; a + 1 < us.size(); ++a)
    for (std::size_t b = 0; b + 1 < vs.size(); ++b) {
      const std::size_t k00 = a * vs.size() + b, k10 = k00 + vs.size(), k01 = k00 + 1, k11 = k10 + 1;
      if (index[k00] == kInvalid || index[k10] == kInvalid || index[k01] == kInvalid || index[k11] == kInvalid) continue;
      const Eigen::Vector3d stored =
          grid.normals[index[k00]] + grid.normals[index[k10]] + grid.normals[index[k01]] + grid.normals[index[k11]];
      for (std::array<std::uint32_t, 3> t : {std::array{index[k00], index[k10], index[k11]},
                                             std::array{index[k00], index[k11], index[k01]}}) {
        const std::vector<Eigen::Vector3d>& v = grid.points;
        const Eigen::Vector3d n = (v[t[1]] - v[t[0]]).cross(v[t[2]] - v[t[0]]);
        if (n.dot(stored) < 0) std::swap(t[1], t[2]);
        grid.triangles.push_back(t);
      }
    }
  return grid;
}

std::shared_ptr<const TriangleMesh> mesh_from_tables(const TableSet& set, std::uint32_t stride) {
  if (stride == 0) throw std::invalid_argument("the mesh stride must be at least 1 grid line");
  std::vector<Eigen::Vector3d> vertices;
  std::vector<std::array<std::uint32_t, 3>> triangles;
  for (const TableFace& face : set.faces()) {
    const RecordLayout& l = face.table->header().layout;
    const FaceGrid grid = face_grid(*face.table, lines(l.u_points, stride), lines(l.v_points, stride), true);
    const auto first = static_cast<std::uint32_t>(vertices.size());
    for (const Eigen::Vector3d& p : grid.points) vertices.push_back(set.meters_per_unit() * p);
    for (const auto& t : grid.triangles) triangles.push_back({first + t[0], first + t[1], first + t[2]});
  }
  if (triangles.empty()) throw std::invalid_argument("the tables have no cell with four valid nodes to mesh");
  return std::make_shared<const TriangleMesh>(std::move(vertices), triangles);
}

}  // namespace surfdb
