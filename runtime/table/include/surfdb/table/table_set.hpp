// The tables of one contact surface: a single table (`.sdb`), or chosen faces of a surface set
// (`.sdbs`, docs/surface-set.md) with which of them share an edge. Read-only model data, shared by
// every contact that uses the surface; each contact keeps its own bindings (windows) on the tables.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "surfdb/formats/set_edges.hpp"
#include "surfdb/formats/surface_set.hpp"
#include "surfdb/table/database.hpp"
#include "surfdb/table/face_survey.hpp"

namespace surfdb {

/// A point or direction of an edge's table (set_edges.hpp) as a vector.
inline Eigen::Vector3d edge_vector(const std::array<double, 3>& a) { return {a[0], a[1], a[2]}; }

/// An edge bounding a face of a contact surface, as the set tabulates it (set_edges.hpp): the side
/// of the edge the face lies on (0 or 1), and the box of the edge's points (file unit).
struct FaceEdge {
  const SetEdge* edge = nullptr;
  std::size_t side = 0;
  Eigen::Vector3d low, high;
};

/// One face of a contact surface.
struct TableFace {
  std::uint32_t face = 0;  // the part's face number (1-based); 0 for a single table
  std::shared_ptr<const Database> table;
};

class TableSet {
 public:
  /// A single table: one face, adjacent to nothing.
  static std::shared_ptr<const TableSet> single(std::shared_ptr<const Database> table);

  /// A `.sdb` file or a `.sdbs` directory. For a set, `faces` chooses part face numbers (all the
  /// set holds when empty); adjacency is kept between the chosen faces. Throws FormatError naming
  /// the set, the face and the file when the manifest or a table is missing, damaged or from
  /// another conversion, or when a chosen face is not in the set; std::invalid_argument when faces
  /// are given for a single table.
  static std::shared_ptr<const TableSet> open(const std::filesystem::path& path,
                                              const std::vector<std::uint32_t>& faces = {});

  TableSet(const TableSet&) = delete;  // face_edges_ points into edges_
  TableSet& operator=(const TableSet&) = delete;

  std::size_t size() const { return faces_.size(); }
  const TableFace& operator[](std::size_t k) const { return faces_[k]; }
  std::span<const TableFace> faces() const { return faces_; }

  /// Whether faces at positions a and b share an edge of the part (false for a == b).
  bool adjacent(std::size_t a, std::size_t b) const { return adjacent_[a * faces_.size() + b] != 0; }

  /// The edges bounding the chosen faces (a version 1 set and a single table have none).
  std::span<const SetEdge> edges() const { return edges_; }
  /// Whether the chosen faces close into a solid: the set has edges, none free, and both faces of
  /// every edge are chosen (solid_distance.hpp then tells inside from outside).
  bool closed() const { return closed_; }
  /// Face k's survey (face_survey.hpp: its shape, trimmed box and curvature), every face's made on
  /// the first call (thread-safe) and kept for every contact that uses the surface.
  const FaceSurvey& survey(std::size_t k) const;
  /// The edges bounding face k (its position in the surface), with the side it lies on.
  std::span<const FaceEdge> face_edges(std::size_t k) const { return face_edges_[k]; }

  /// The part's mass frame from the set's manifest (version 3; file unit, part coordinates): its
  /// closed solids' centre of mass, principal axes and volume integrals. None for a single table,
  /// an older set, or a part without closed solids.
  const std::optional<SetMassFrame>& mass_frame() const { return mass_frame_; }

  /// Metres per file length unit (every table of a set has the part's unit).
  double meters_per_unit() const { return faces_.front().table->header().meters_per_unit; }

  /// A sphere holding every valid node of every face (file unit, surface axes): the surface's
  /// bounds for the broad phase between bodies. Builds the tables' node trees.
  const Eigen::Vector3d& bounding_centre() const { return centre_; }
  double bounding_radius() const { return radius_; }

 private:
  TableSet(std::vector<TableFace> faces, std::vector<std::uint8_t> adjacent, std::vector<SetEdge> edges = {});
  std::vector<TableFace> faces_;
  std::vector<std::uint8_t> adjacent_;  // size() x size(), row-major
  std::vector<SetEdge> edges_;
  std::vector<std::vector<FaceEdge>> face_edges_;  // per face
  bool closed_ = false;
  std::optional<SetMassFrame> mass_frame_;
  mutable std::once_flag surveyed_;
  mutable std::vector<FaceSurvey> surveys_;
  Eigen::Vector3d centre_ = Eigen::Vector3d::Zero();
  double radius_ = 0;
};

}  // namespace surfdb
