#include "surfdb/table/surface_binding.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "interp_bilinear_inline.hpp"
#include "surfdb/formats/columns.hpp"
#include "surfdb/formats/scalar.hpp"
#include "surfdb/table/interp_bilinear.hpp"

namespace surfdb {
namespace {

constexpr Column kRead[12] = {Column::x,  Column::y,  Column::z,  Column::nx, Column::ny, Column::nz,
                              Column::tx, Column::ty, Column::tz, Column::k1, Column::k2, Column::flags};

constexpr double kSnap = 1e-9;  // a local coordinate this close to 0 or 1 is on the grid line

// Where (u,v) falls along one axis: cell index and local coordinate in [0, 1].
struct AxisHit {
  std::uint64_t cell;
  double local;
  double param;  // the parameter actually used (wrapped or clamped)
  bool outside;
};

template <class Axis>
[[gnu::always_inline]] inline AxisHit locate(double x, const Axis& axis) {
  bool outside = false;
  if (!(x >= axis.lo && x <= axis.hi)) [[unlikely]] {  // the common case skips all of this, NaN does not
    if (!std::isfinite(x)) {
      x = axis.lo;
      outside = true;
    } else if (axis.period > 0) {
      x = axis.lo + std::fmod(x - axis.lo, axis.period);
      if (x < axis.lo) x += axis.period;
      if (x > axis.hi) x = axis.hi;  // fmod rounding at the seam
    } else {
      x = x < axis.lo ? axis.lo : axis.hi;
      outside = true;
    }
  }
  const double f = (x - axis.lo) * axis.inv_step;
  std::uint64_t cell = static_cast<std::uint64_t>(f);
  double local = f - static_cast<double>(cell);
  // On a grid line (to rounding): exactly the stored node. The last cell takes the upper edge.
  if (local > 1 - kSnap) {
    ++cell;
    local = 0;
  } else if (local < kSnap) {
    local = 0;
  }
  if (cell > axis.nodes - 2) {
    local += static_cast<double>(cell - (axis.nodes - 2));
    cell = axis.nodes - 2;
    if (local > 1) local = 1;
  }
  return {cell, local, x, outside};
}

}  // namespace

const char* status_name(QueryStatus s) {
  switch (s) {
    case QueryStatus::valid: return "valid";
    case QueryStatus::outside_domain: return "outside_domain";
    case QueryStatus::invalid_cell: return "invalid_cell";
  }
  return "?";
}

SurfaceBinding::SurfaceBinding(std::shared_ptr<const Database> db, WindowSize window, Residency residency,
                               Interpolation interpolation)
    : db_(db), window_(std::move(db), window, residency), interpolation_(interpolation) {
  for (std::size_t k = 0; k < columns_.size(); ++k) columns_[k] = column_offset(db_->header(), kRead[k]);
  const Header& h = db_->header();
  const RecordLayout& l = h.layout;
  standard_layout_ = h.scalar == ScalarType::f64 &&
                     std::equal(h.columns.begin(), h.columns.end(), kColumnsV1.begin(), kColumnsV1.end());
  u_axis_ = {h.u0, h.u1, 1 / h.du, h.u_period, l.u_points};
  v_axis_ = {h.v0, h.v1, 1 / h.dv, h.v_period, l.v_points};
  node_bytes_ = std::uint64_t{l.column_count} * l.scalar_bytes;
  u_record_points_ = l.u_record_points;
  v_record_points_ = l.v_record_points;
  layout_ = &l;
  row_bytes_ = v_record_points_ * node_bytes_;
  u_lines_ = db_->u_lines();
  v_lines_ = db_->v_lines();
}

// Inlined into load_cell: called four times per cell entered.
[[gnu::always_inline]] inline void SurfaceBinding::gather(const std::uint8_t* at, double* v, Reach reach, bool flags) const {
  if (standard_layout_) [[likely]] {  // float64, version-1 column order: x..tz at 2..10, k1 k2 flags at 16..18
    if (reach == Reach::frame) {
      std::memcpy(v, at + 8 * 2, 9 * 8);
      std::memcpy(v + kK1, at + 8 * 16, 3 * 8);
    } else {
      std::memcpy(v, at + 8 * 2, 6 * 8);
      if (flags) std::memcpy(v + kFlags, at + 8 * 18, 8);
    }
    return;
  }
  gather_any_layout(at, v);
}

void SurfaceBinding::gather_any_layout(const std::uint8_t* at, double* v) const {
  const std::uint32_t bytes = db_->layout().scalar_bytes;
  for (int k = 0; k < kCornerValues; ++k) {
    const int c = columns_[k];
    v[k] = c >= 0 ? load_scalar(at, bytes, c) : (k == kFlags ? 1.0 : 0.0);  // no flags column: all valid
  }
}

std::uint64_t SurfaceBinding::node_offset(std::uint64_t i, std::uint64_t j) const {
  return (std::uint64_t{u_lines_[i].local} * v_record_points_ + v_lines_[j].local) * node_bytes_;
}

[[gnu::always_inline]] inline void SurfaceBinding::prefetch_node(const std::uint8_t* node, Reach reach, bool flags) const {
  if (standard_layout_) [[likely]] {  // the cache lines of the runs gather() copies
    __builtin_prefetch(node + 8 * 2);
    if (reach == Reach::frame) {
      __builtin_prefetch(node + 8 * 11 - 1);
      __builtin_prefetch(node + 8 * 16);
    } else {
      __builtin_prefetch(node + 8 * 8 - 1);
    }
    if (flags || reach == Reach::frame) __builtin_prefetch(node + 8 * 19 - 1);
    return;
  }
  const std::uint8_t* last = node + node_bytes_ - 1;
  __builtin_prefetch(node);
  __builtin_prefetch(last);
  for (const std::uint8_t* at = node + 64; at < last; at += 64) __builtin_prefetch(at);
}

// Inlined into load_cell and prefetch: called at every cell entered and every hint.
[[gnu::always_inline]] inline bool SurfaceBinding::reads_corner_flags(bool one_record, RecordIndex tile, Reach reach) const {
  // The frame's values and gather_any_layout's runs take the flags along; a cell straddling
  // records has no one record's flags.
  if (reach != Reach::point_normal || !standard_layout_ || !one_record) return true;
  const std::uint64_t number = layout_->record_number(tile);
  if (number != flags_record_) {
    record_flags_ = db_->record_flags(number);
    flags_record_ = number;
  }
  return record_flags_.all != record_flags_.any;
}

// Inlined into enter_cell (and, for a table whose values gather() cannot copy in runs, into
// load_cell<point_normal>).
template <SurfaceBinding::Reach reach>
[[gnu::always_inline]] inline void SurfaceBinding::load_cell(std::uint64_t i0, std::uint64_t j0) {
  if constexpr (reach == Reach::point_normal) {
    if (!standard_layout_) [[unlikely]] return load_cell<Reach::frame>(i0, j0);  // gather_any_layout reads every value
  }
  cell_i_ = ~std::uint64_t{0};  // no stale cell if a damaged record throws below
  cell_fu_ = cell_fv_ = std::numeric_limits<double>::quiet_NaN();
  // Corner k is node (i0 + k % 2, j0 + k / 2). A cell inside one record (all but those on a
  // record's last row or column) has its corners at fixed strides from the first; a cell
  // straddling records reads each from its own. A neighbour of the last cell reads the two
  // corners it shares with it again, from the nearest cache when the last cell read the same
  // values (a cell straddling records looks their records up again).
  const GridLine &line_u = u_lines_[i0], &line_v = v_lines_[j0];
  const bool one_record = line_u.local + 1 < u_record_points_ && line_v.local + 1 < v_record_points_;
  const std::uint8_t* node[4];
  if (one_record) [[likely]] {
    node[0] = window_.record({line_u.tile, line_v.tile}) + node_offset(i0, j0);
    node[1] = node[0] + row_bytes_;
    node[2] = node[0] + node_bytes_;
    node[3] = node[1] + node_bytes_;
  } else {
    for (int k = 0; k < 4; ++k) {
      const std::uint64_t i = i0 + (k & 1), j = j0 + (k >> 1);
      node[k] = window_.record({u_lines_[i].tile, v_lines_[j].tile}) + node_offset(i, j);
    }
  }
  const bool flags = reads_corner_flags(one_record, {line_u.tile, line_v.tile}, reach);
  for (int k = 0; k < 4; ++k) gather(node[k], cell_.corners[k], reach, flags);
  window_.release_outside_reads();  // the corners are copied: pages outside the window can go
  interp_detail::set_coefficients(cell_, kX, kTx);
  if (reach == Reach::frame) interp_detail::set_coefficients(cell_, kTx, kFlags);
  if (flags) {
    interp_detail::set_flags(cell_);
  } else {
    cell_.flags_all = record_flags_.all;
    cell_.flags_any = record_flags_.any;
  }
  cell_i_ = i0;
  cell_j_ = j0;
  cell_fu_ = static_cast<double>(i0);
  cell_fv_ = static_cast<double>(j0);
  cell_record_ = {line_u.tile, line_v.tile};
  cell_status_ = cell_.flags_all & point_flags::valid ? QueryStatus::valid : QueryStatus::invalid_cell;
  cell_reach_ = reach;
}

inline bool SurfaceBinding::in_last_cell(double u, double v, WindowPolicy policy, double& a, double& b) {
  // Strictly inside the last cell, clear of its grid lines (where locate() snaps to them): the
  // common case of a path or a Newton solve, decided by two subtractions. NaN fails the test.
  a = (u - u_axis_.lo) * u_axis_.inv_step - cell_fu_;
  b = (v - v_axis_.lo) * v_axis_.inv_step - cell_fv_;
  if (!(a >= kSnap && a <= 1 - kSnap && b >= kSnap && b <= 1 - kSnap)) return false;
  if (policy == WindowPolicy::follow) window_.follow(cell_record_);
  return true;
}

template <SurfaceBinding::Reach reach>
SurfaceBinding::CellHit SurfaceBinding::enter_cell(double u, double v, WindowPolicy policy) {
  const AxisHit hu = locate(u, u_axis_);
  const AxisHit hv = locate(v, v_axis_);
  if (policy == WindowPolicy::follow || !window_.placed()) window_.follow({u_lines_[hu.cell].tile, v_lines_[hv.cell].tile});
  if (hu.cell != cell_i_ || hv.cell != cell_j_ || reach > cell_reach_) load_cell<reach>(hu.cell, hv.cell);
  const bool outside = hu.outside || hv.outside;
  return {hu.local, hv.local, hu.param, hv.param, outside ? QueryStatus::outside_domain : cell_status_};
}

SurfacePoint SurfaceBinding::query(double u, double v, WindowPolicy policy) {
  if (u == last_u_ && v == last_v_) {  // the cell is still the last one
    if (policy == WindowPolicy::follow) window_.follow(cell_record_);
    return last_;
  }
  last_u_ = std::numeric_limits<double>::quiet_NaN();  // until this query succeeds
  SurfacePoint& out = last_;
  CellHit hit{0, 0, u, v, cell_status_};
  if (cell_reach_ != Reach::frame || !in_last_cell(u, v, policy, hit.a, hit.b)) [[unlikely]]
    hit = enter_cell<Reach::frame>(u, v, policy);
  out.u = hit.u;
  out.v = hit.v;
  // The bilinear mode inline (the same operations as interpolate_bilinear's, interp_bilinear_inline.hpp).
  if (interpolation_ == Interpolation::bilinear) [[likely]]
    interp_detail::bilinear(cell_, hit.a, hit.b, u_axis_.inv_step, v_axis_.inv_step, out);
  else
    interpolate_bilinear(cell_, hit.a, hit.b, u_axis_.inv_step, v_axis_.inv_step, interpolation_, out);
  out.status = hit.status;
  last_u_ = u;
  last_v_ = v;
  return out;
}

SurfaceD1 SurfaceBinding::query_d1(double u, double v, WindowPolicy policy) {
  last_u_ = std::numeric_limits<double>::quiet_NaN();  // the memo is of full answers in the current cell
  CellHit hit{0, 0, u, v, cell_status_};
  if (!in_last_cell(u, v, policy, hit.a, hit.b)) [[unlikely]] hit = enter_cell<Reach::point_normal>(u, v, policy);
  SurfaceD1 out;
  out.u = hit.u;
  out.v = hit.v;
  if (interpolation_ == Interpolation::bilinear) [[likely]]
    interp_detail::bilinear(cell_, hit.a, hit.b, u_axis_.inv_step, v_axis_.inv_step, out);
  else
    interpolate_bilinear(cell_, hit.a, hit.b, u_axis_.inv_step, v_axis_.inv_step, interpolation_, out);
  out.status = hit.status;
  return out;
}

void SurfaceBinding::prefetch(double u, double v) const { prefetch(u, v, Reach::frame); }

void SurfaceBinding::prefetch(double u, double v, Reach reach) const {
  // The cell hinted last: on a path most hints fall in it again, and those cost two subtractions.
  const double a = (u - u_axis_.lo) * u_axis_.inv_step - hinted_fu_, b = (v - v_axis_.lo) * v_axis_.inv_step - hinted_fv_;
  if (a >= 0 && a < 1 && b >= 0 && b < 1) return;
  const AxisHit hu = locate(u, u_axis_), hv = locate(v, v_axis_);
  if (hu.outside || hv.outside) return;
  const GridLine &line_u = u_lines_[hu.cell], &line_v = v_lines_[hv.cell];
  const std::uint8_t* record = window_.resident({line_u.tile, line_v.tile});
  if (!record) return;
  hinted_fu_ = static_cast<double>(hu.cell);
  hinted_fv_ = static_cast<double>(hv.cell);
  // The corners in this record: all four unless the cell straddles records.
  const std::uint8_t* first = record + node_offset(hu.cell, hv.cell);
  const bool next_u = line_u.local + 1 < u_record_points_, next_v = line_v.local + 1 < v_record_points_;
  const bool flags = reads_corner_flags(next_u && next_v, {line_u.tile, line_v.tile}, reach);  // as load_cell() will
  prefetch_node(first, reach, flags);
  if (next_u) prefetch_node(first + row_bytes_, reach, flags);
  if (next_v) prefetch_node(first + node_bytes_, reach, flags);
  if (next_u && next_v) prefetch_node(first + row_bytes_ + node_bytes_, reach, flags);
}

template <class Answer, class Query>
void SurfaceBinding::query_each(std::span<const double> u, std::span<const double> v, std::span<Answer> out,
                                Reach reach, Query one) {
  if (u.size() != v.size() || u.size() != out.size())
    throw std::invalid_argument("SurfaceBinding::query: u, v and the answers differ in length");
  for (std::size_t k = 0; k < u.size(); ++k) {
    if (k + kPrefetchAhead < u.size()) prefetch(u[k + kPrefetchAhead], v[k + kPrefetchAhead], reach);
    out[k] = one(u[k], v[k]);
  }
}

void SurfaceBinding::query(std::span<const double> u, std::span<const double> v, std::span<SurfacePoint> out,
                           WindowPolicy policy) {
  query_each(u, v, out, Reach::frame, [&](double a, double b) { return query(a, b, policy); });
}

void SurfaceBinding::query_d1(std::span<const double> u, std::span<const double> v, std::span<SurfaceD1> out,
                              WindowPolicy policy) {
  query_each(u, v, out, Reach::point_normal, [&](double a, double b) { return query_d1(a, b, policy); });
}

}  // namespace surfdb
