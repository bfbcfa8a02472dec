#include "surfdb/table/table_set.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "surfdb/formats/error.hpp"
#include "surfdb/formats/surface_set.hpp"
#include "surfdb/table/node_tree.hpp"

namespace surfdb {
namespace {

std::string face_list(const SetManifest& m) {
  std::string s;
  for (const SetFace& f : m.faces) s += (s.empty() ? "" : ", ") + std::to_string(f.index);
  return s;
}

// The tables a set's manifest names, checked against it once more after mapping (a table swapped
// between the manifest's check and the mapping is refused too).
std::shared_ptr<const Database> open_face(const std::filesystem::path& dir, const SetFace& face) {
  const std::string where = dir.string() + ", face " + std::to_string(face.index) + " (" + face.file + ")";
  std::shared_ptr<const Database> db;
  try {
    db = Database::open(dir / face.file);
  } catch (const FormatError& e) {
    throw FormatError(where + ": " + e.what());
  }
  if (header_checksum(db->bytes().first(kHeaderBytes)) != face.header_checksum)
    throw FormatError(where + ": its header does not match the manifest's checksum (a table from another conversion)");
  return db;
}

}  // namespace

TableSet::TableSet(std::vector<TableFace> faces, std::vector<std::uint8_t> adjacent, std::vector<SetEdge> edges)
    : faces_(std::move(faces)), adjacent_(std::move(adjacent)), edges_(std::move(edges)), face_edges_(faces_.size()) {
  for (std::size_t k = 0; k < faces_.size(); ++k)
    for (const SetEdge& e : edges_)
      for (std::size_t side = 0; side < e.sides.size(); ++side) {
        if (e.sides[side].face != faces_[k].face) continue;
        FaceEdge f{&e, side, Eigen::Vector3d::Constant(INFINITY), Eigen::Vector3d::Constant(-INFINITY)};
        for (const auto& p : e.points) {
          const Eigen::Vector3d x(p[0], p[1], p[2]);
          f.low = f.low.cwiseMin(x), f.high = f.high.cwiseMax(x);
        }
        face_edges_[k].push_back(f);
      }
  closed_ = !edges_.empty() && std::all_of(edges_.begin(), edges_.end(), [&](const SetEdge& e) {
    return e.sides.size() == 2 && std::all_of(e.sides.begin(), e.sides.end(), [&](const EdgeSide& s) {
      return std::any_of(faces_.begin(), faces_.end(), [&](const TableFace& f) { return f.face == s.face; });
    });
  });
  // The smallest sphere around the first face's sphere grown to hold each next one.
  bool first = true;
  for (const TableFace& f : faces_) {
    const NodeTree& tree = f.table->node_tree();
    const Eigen::Vector3d c = tree.bounding_centre();
    const double r = tree.bounding_radius();
    if (first) {
      centre_ = c, radius_ = r, first = false;
      continue;
    }
    const double d = (c - centre_).norm();
    if (d + r <= radius_) continue;
    if (d + radius_ <= r) {
      centre_ = c, radius_ = r;
      continue;
    }
    const double grown = 0.5 * (d + r + radius_);
    centre_ += (grown - radius_) / d * (c - centre_);
    radius_ = grown;
  }
}

const FaceSurvey& TableSet::survey(std::size_t k) const {
  std::call_once(surveyed_, [this] {
    for (const TableFace& f : faces_) surveys_.push_back(survey_face(*f.table));
  });
  return surveys_[k];
}

std::shared_ptr<const TableSet> TableSet::single(std::shared_ptr<const Database> table) {
  std::vector<TableFace> faces{{0, std::move(table)}};
  return std::shared_ptr<const TableSet>(new TableSet(std::move(faces), {0}));
}

std::shared_ptr<const TableSet> TableSet::open(const std::filesystem::path& path, const std::vector<std::uint32_t>& faces) {
  if (!is_surface_set_path(path)) {
    if (!faces.empty())
      throw std::invalid_argument(path.string() + " is a single table: faces apply to a surface set (.sdbs) only");
    return single(Database::open(path));
  }
  const SurfaceSet set = read_surface_set(path);
  const SetManifest& m = set.manifest;
  std::vector<const SetFace*> chosen;
  if (faces.empty()) {
    for (const SetFace& f : m.faces) chosen.push_back(&f);
  } else {
    for (const std::uint32_t index : faces) {
      const SetFace* f = m.find(index);
      if (!f)
        throw FormatError(path.string() + ": holds no face " + std::to_string(index) + " (it holds faces " +
                          face_list(m) + ")");
      if (std::find(chosen.begin(), chosen.end(), f) != chosen.end())
        throw FormatError(path.string() + ": face " + std::to_string(index) + " is chosen twice");
      chosen.push_back(f);
    }
  }
  std::vector<TableFace> tables;
  for (const SetFace* f : chosen) tables.push_back({f->index, open_face(path, *f)});
  const std::size_t n = chosen.size();
  std::vector<std::uint8_t> adjacent(n * n, 0);
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b) {
      const std::vector<std::uint32_t>& next = chosen[a]->adjacent;
      adjacent[a * n + b] = std::find(next.begin(), next.end(), chosen[b]->index) != next.end() ? 1 : 0;
    }
  // The edges bounding a chosen face.
  std::vector<SetEdge> edges;
  for (const SetEdge& e : set.edges)
    if (std::any_of(e.sides.begin(), e.sides.end(), [&](const EdgeSide& side) {
          return std::any_of(chosen.begin(), chosen.end(), [&](const SetFace* f) { return f->index == side.face; });
        }))
      edges.push_back(e);
  auto made = std::shared_ptr<TableSet>(new TableSet(std::move(tables), std::move(adjacent), std::move(edges)));
  made->mass_frame_ = m.mass_frame;
  return made;
}

}  // namespace surfdb
