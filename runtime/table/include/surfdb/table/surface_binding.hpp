// One body's use of one surface database: the shared, read-only database plus this binding's
// storage window. Queries return point and frame at any (u,v) of the surface's own parameters.
// A binding is not thread-safe; distinct bindings (even on one database) may be used from
// different threads at once.
#pragma once

#include <array>
#include <limits>
#include <memory>
#include <span>

#include "surfdb/table/database.hpp"
#include "surfdb/table/interp_bilinear.hpp"
#include "surfdb/table/storage_window.hpp"
#include "surfdb/table/surface_point.hpp"

namespace surfdb {

enum class WindowPolicy : std::uint8_t {
  follow,  // move the window by the seven-step rule to the record holding (u,v) first
  hold,    // leave the window where it is (Newton iterations between accepted steps)
};

class SurfaceBinding {
 public:
  explicit SurfaceBinding(std::shared_ptr<const Database> db, WindowSize window = {},
                          Residency residency = Residency::direct_mapping,
                          Interpolation interpolation = Interpolation::bilinear);

  /// Point and frame at (u,v). On a grid line or at exactly u1/v1 the point is inside (the last
  /// cell takes the upper edge); periodic directions wrap; beyond a non-periodic bound the answer
  /// is at the nearest boundary point with status outside_domain. Never throws for any (u,v),
  /// NaN included; throws FormatError only if a record it must read is damaged. The same (u,v)
  /// twice in a row gives the same answer without interpolating again.
  SurfacePoint query(double u, double v, WindowPolicy policy = WindowPolicy::follow);

  /// Point, first derivatives and unit normal at (u,v), as query() gives them, without the frame,
  /// the normal's derivatives and the curvatures: for callers that need no more (a projection, a
  /// renderer, a comparison with a CAD kernel's D1). Same rules for status, window and errors.
  SurfaceD1 query_d1(double u, double v, WindowPolicy policy = WindowPolicy::follow);

  /// The same answers as the calls above for each (u[k], v[k]) in turn, into out[k], with the same
  /// window moves. While one is computed the corners of the cell some queries ahead are requested
  /// from memory (prefetch below), so that at random over a large table the misses overlap instead
  /// of following one another. Throws std::invalid_argument when the spans differ in length.
  void query(std::span<const double> u, std::span<const double> v, std::span<SurfacePoint> out,
             WindowPolicy policy = WindowPolicy::follow);
  void query_d1(std::span<const double> u, std::span<const double> v, std::span<SurfaceD1> out,
                WindowPolicy policy = WindowPolicy::follow);

  /// A hint that a query at (u,v) comes soon: requests the corners of its cell from memory when
  /// they lie in the window's records, and does nothing else (no window move, no record read or
  /// verified, no error).
  void prefetch(double u, double v) const;
  /// How many queries ahead a loop should hint, as the span calls above do (bench_query's random
  /// row: the batch call takes about two thirds of the time of one call per point).
  static constexpr std::size_t kPrefetchAhead = 8;

  const Database& database() const { return *db_; }
  StorageWindow& window() { return window_; }
  const StorageWindow& window() const { return window_; }

 private:
  /// One parameter direction of the grid, copied from the header so queries touch one object.
  struct Axis {
    double lo = 0, hi = 0, inv_step = 0, period = 0;  // period 0: not periodic
    std::uint64_t nodes = 0;
  };
  /// Where (u,v) falls: local coordinates in the cell, the parameters used, the status.
  struct CellHit {
    double a, b, u, v;
    QueryStatus status;
  };
  /// What a cell holds: query_d1 needs the point, the normal and the flags of its corners; query
  /// also the tangent and the curvatures (the frame's values).
  enum class Reach : std::uint8_t { point_normal, frame };
  /// True when (u,v) lies inside the last cell, clear of its edges: sets the local coordinates
  /// and moves the window by `policy`.
  bool in_last_cell(double u, double v, WindowPolicy policy, double& a, double& b);
  /// Otherwise: locates (u,v), moves the window by `policy` and loads the cell's corners as far
  /// as `reach` (again when the same cell holds less).
  template <Reach reach>
  CellHit enter_cell(double u, double v, WindowPolicy policy);
  /// Copies a node's values as far as `reach`; its flags too unless `flags` is false, which
  /// point_normal cells in a record of uniform flags (reads_corner_flags) leave out.
  void gather(const std::uint8_t* node, double* values, Reach reach, bool flags) const;
  void gather_any_layout(const std::uint8_t* node, double* values) const;
  template <Reach reach>
  void load_cell(std::uint64_t i, std::uint64_t j);
  std::uint64_t node_offset(std::uint64_t i, std::uint64_t j) const;  // node (i, j) in its record
  /// Requests the cache lines gather() would read of a node (for prefetch(): a query's own loads
  /// are all in flight at once without it).
  void prefetch_node(const std::uint8_t* node, Reach reach, bool flags) const;
  /// Whether a cell reads its corners' flags (the node's last cache line, for point_normal). Not
  /// when it lies inside `one_record`, record `tile` (checked already), whose grid nodes all carry
  /// the same flags: record_flags_ then holds them (Database::record_flags).
  bool reads_corner_flags(bool one_record, RecordIndex tile, Reach reach) const;
  /// prefetch() for a query that loads its cell as far as `reach`.
  void prefetch(double u, double v, Reach reach) const;
  template <class Answer, class Query>
  void query_each(std::span<const double> u, std::span<const double> v, std::span<Answer> out, Reach reach,
                  Query one);

  std::shared_ptr<const Database> db_;
  StorageWindow window_;
  // Value offsets in a node of x y z nx ny nz tx ty tz k1 k2 flags; -1 where a column is absent.
  std::array<int, 12> columns_{};
  Interpolation interpolation_;
  bool standard_layout_ = false;  // float64 in version-1 column order: the fast path
  Axis u_axis_, v_axis_;
  std::span<const GridLine> u_lines_, v_lines_;  // the database's
  const RecordLayout* layout_ = nullptr;  // the database's
  std::uint64_t node_bytes_ = 0, u_record_points_ = 0, v_record_points_ = 0;
  std::uint64_t row_bytes_ = 0;  // from node (i, j) to (i + 1, j) in one record
  // The last cell: a smooth path stays in one cell for several queries.
  BilinearCell cell_{};
  std::uint64_t cell_i_ = ~std::uint64_t{0}, cell_j_ = 0;
  double cell_fu_ = std::numeric_limits<double>::quiet_NaN(), cell_fv_ = cell_fu_;  // the same as doubles
  RecordIndex cell_record_{};  // the record holding node (cell_i_, cell_j_)
  QueryStatus cell_status_ = QueryStatus::valid;  // valid or invalid_cell
  Reach cell_reach_ = Reach::point_normal;  // the values of cell_ set; the others are stale
  // The cell prefetch() hinted last (as doubles, NaN for none): a hint's memo, not an answer's.
  mutable double hinted_fu_ = std::numeric_limits<double>::quiet_NaN(), hinted_fv_ = hinted_fu_;
  // reads_corner_flags()'s last record (its number, 0 for none) and that record's combined flags.
  mutable std::uint64_t flags_record_ = 0;
  mutable RecordFlags record_flags_{};
  // The last answer and where it was asked: a Newton solver starts each solve where the last one
  // ended. NaN until a query has succeeded.
  SurfacePoint last_{};
  double last_u_ = std::numeric_limits<double>::quiet_NaN(), last_v_ = last_u_;
};

}  // namespace surfdb
