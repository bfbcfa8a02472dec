#include "surfdb/runtime/surface_binding.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "surfdb/formats/columns.hpp"
#include "surfdb/formats/scalar.hpp"
#include "surfdb/runtime/interp_bilinear.hpp"

namespace surfdb {
namespace {

constexpr Column kRead[12] = {Column::x,  Column::y,  Column::z,  Column::nx, Column::ny, Column::nz,
                              Column::tx, Column::ty, Column::tz, Column::k1, Column::k2, Column::flags};

// Where (u,v) falls along one axis: cell index and local coordinate in [0, 1].
struct AxisHit {
  std::uint64_t cell;
  double local;
  double param;  // the parameter actually used (wrapped or clamped)
  bool outside;
};

template <class Axis>
AxisHit locate(double x, const Axis& axis) {
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
  if (local > 1 - 1e-9) {
    ++cell;
    local = 0;
  } else if (local < 1e-9) {
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
  v_record_points_ = l.v_record_points;
  u_lines_ = db_->u_lines();
  v_lines_ = db_->v_lines();
}

void SurfaceBinding::gather(const std::uint8_t* at, double* v) const {
  if (standard_layout_) {  // float64, version-1 column order: x..tz at 2..10, k1 k2 flags at 16..18
    std::memcpy(v, at + 8 * 2, 9 * 8);
    std::memcpy(v + kK1, at + 8 * 16, 3 * 8);
    return;
  }
  const std::uint32_t bytes = db_->layout().scalar_bytes;
  for (int k = 0; k < kCornerValues; ++k) {
    const int c = columns_[k];
    v[k] = c >= 0 ? load_scalar(at, bytes, c) : (k == kFlags ? 1.0 : 0.0);  // no flags column: all valid
  }
}

void SurfaceBinding::load_cell(std::uint64_t i0, std::uint64_t j0) {
  const auto address = [&](std::uint64_t i, std::uint64_t j) {
    return window_.record({u_lines_[i].tile, v_lines_[j].tile}) +
           (std::uint64_t{u_lines_[i].local} * v_record_points_ + v_lines_[j].local) * node_bytes_;
  };
  cell_i_ = ~std::uint64_t{0};  // no stale cache if a damaged record throws below
  gather(address(i0, j0), cell_.corners[0]);
  gather(address(i0 + 1, j0), cell_.corners[1]);
  gather(address(i0, j0 + 1), cell_.corners[2]);
  gather(address(i0 + 1, j0 + 1), cell_.corners[3]);
  window_.release_outside_reads();  // the corners are copied: pages outside the window can go
  make_bilinear_cell(cell_);
  cell_i_ = i0;
  cell_j_ = j0;
}

SurfacePoint SurfaceBinding::query(double u, double v, WindowPolicy policy) {
  if (u == last_u_ && v == last_v_) {  // the cell is still the last one
    if (policy == WindowPolicy::follow) window_.follow({u_lines_[cell_i_].tile, v_lines_[cell_j_].tile});
    return last_;
  }
  last_u_ = std::numeric_limits<double>::quiet_NaN();  // until this query succeeds
  const AxisHit hu = locate(u, u_axis_);
  const AxisHit hv = locate(v, v_axis_);
  if (policy == WindowPolicy::follow || !window_.placed()) window_.follow({u_lines_[hu.cell].tile, v_lines_[hv.cell].tile});
  if (hu.cell != cell_i_ || hv.cell != cell_j_) load_cell(hu.cell, hv.cell);  // else: same corners

  SurfacePoint out;
  out.u = hu.param;
  out.v = hv.param;
  interpolate_bilinear(cell_, hu.local, hv.local, u_axis_.inv_step, v_axis_.inv_step, interpolation_, out);
  out.status = (hu.outside || hv.outside)                 ? QueryStatus::outside_domain
               : (cell_.flags_all & point_flags::valid) ? QueryStatus::valid
                                                         : QueryStatus::invalid_cell;
  last_ = out;
  last_u_ = u;
  last_v_ = v;
  return out;
}

}  // namespace surfdb
