#include "surfdb/runtime/surface_binding.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "surfdb/formats/columns.hpp"
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

AxisHit locate(double x, double lo, double hi, double step, std::uint64_t nodes, double period) {
  bool outside = false;
  if (!std::isfinite(x)) {
    x = lo;
    outside = true;
  } else if (period > 0) {
    x = lo + std::fmod(x - lo, period);
    if (x < lo) x += period;
    if (x > hi) x = hi;  // fmod rounding at the seam
  } else if (x < lo || x > hi) {
    x = x < lo ? lo : hi;
    outside = true;
  }
  double f = (x - lo) / step;
  const double node = std::nearbyint(f);
  if (std::abs(f - node) < 1e-9) f = node;  // on a grid line: the stored values, exactly
  std::uint64_t cell = f <= 0 ? 0 : static_cast<std::uint64_t>(f);
  if (cell > nodes - 2) cell = nodes - 2;  // the last cell takes the upper edge
  double local = f - static_cast<double>(cell);
  local = local < 0 ? 0 : (local > 1 ? 1 : local);
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

SurfaceBinding::SurfaceBinding(std::shared_ptr<const Database> db, WindowSize window, Residency residency)
    : db_(db), window_(std::move(db), window, residency) {
  for (std::size_t k = 0; k < columns_.size(); ++k) columns_[k] = column_offset(db_->header(), kRead[k]);
  const Header& h = db_->header();
  standard_layout_ = h.scalar == ScalarType::f64 &&
                     std::equal(h.columns.begin(), h.columns.end(), kColumnsV1.begin(), kColumnsV1.end());
}

NodeFrame SurfaceBinding::load(const std::uint8_t* at) const {
  double v[12];
  if (standard_layout_) {  // float64, version-1 column order: x..tz at 2..10, k1 k2 flags at 16..18
    std::memcpy(v, at + 8 * 2, 9 * 8);
    std::memcpy(v + 9, at + 8 * 16, 3 * 8);
  } else {
    const std::uint32_t bytes = db_->layout().scalar_bytes;
    for (int k = 0; k < 12; ++k) {
      const int c = columns_[k];
      if (c < 0) {
        v[k] = k == 11 ? 1.0 : 0.0;  // no flags column: every node valid
      } else if (bytes == 8) {
        std::memcpy(&v[k], at + 8 * c, 8);
      } else {
        float f;
        std::memcpy(&f, at + 4 * c, 4);
        v[k] = f;
      }
    }
  }
  NodeFrame f;
  f.p = {v[0], v[1], v[2]};
  f.n = {v[3], v[4], v[5]};
  f.t = {v[6], v[7], v[8]};
  f.k1 = v[9];
  f.k2 = v[10];
  f.flags = static_cast<std::uint32_t>(v[11]);
  return f;
}

SurfacePoint SurfaceBinding::query(double u, double v, WindowPolicy policy) {
  const Header& h = db_->header();
  const RecordLayout& l = h.layout;
  const AxisHit hu = locate(u, h.u0, h.u1, h.du, l.u_points, h.u_period);
  const AxisHit hv = locate(v, h.v0, h.v1, h.dv, l.v_points, h.v_period);
  if (policy == WindowPolicy::follow || !window_.placed())
    window_.follow({hu.cell / l.u_record_points, hv.cell / l.v_record_points});

  // Record and slot of the cell's first node once (divisions are the costly part of addressing),
  // the other corners by stepping; addresses first and prefetched, so cache misses overlap.
  const std::uint32_t urp = l.u_record_points, vrp = l.v_record_points;
  const std::uint64_t ti = hu.cell / urp, tj = hv.cell / vrp;
  const std::uint32_t li = static_cast<std::uint32_t>(hu.cell - ti * urp);
  const std::uint32_t lj = static_cast<std::uint32_t>(hv.cell - tj * vrp);
  const bool wrap_u = li + 1 == urp, wrap_v = lj + 1 == vrp;
  const std::uint64_t ti1 = ti + wrap_u, tj1 = tj + wrap_v;
  const std::uint32_t li1 = wrap_u ? 0 : li + 1, lj1 = wrap_v ? 0 : lj + 1;
  const std::uint64_t stride = std::uint64_t{l.column_count} * l.scalar_bytes;
  const auto address = [&](std::uint64_t rt, std::uint64_t rs, std::uint32_t a, std::uint32_t b) {
    return window_.record({rt, rs}) + (std::uint64_t{a} * vrp + b) * stride;
  };
  const std::uint8_t* corners[4] = {address(ti, tj, li, lj), address(ti1, tj, li1, lj),
                                    address(ti, tj1, li, lj1), address(ti1, tj1, li1, lj1)};
  for (const std::uint8_t* c : corners) {
    __builtin_prefetch(c);
    __builtin_prefetch(c + 64);
    __builtin_prefetch(c + 128);
  }
  const Cell cell{load(corners[0]), load(corners[1]), load(corners[2]), load(corners[3])};
  SurfacePoint out;
  out.u = hu.param;
  out.v = hv.param;
  interpolate_bilinear(cell, hu.local, hv.local, h.du, h.dv, out);
  const std::uint32_t all = cell.c00.flags & cell.c10.flags & cell.c01.flags & cell.c11.flags;
  const std::uint32_t any = cell.c00.flags | cell.c10.flags | cell.c01.flags | cell.c11.flags;
  out.degenerate = any & point_flags::degenerate;
  out.status = (hu.outside || hv.outside) ? QueryStatus::outside_domain
               : (all & point_flags::valid) ? QueryStatus::valid
                                            : QueryStatus::invalid_cell;
  return out;
}

}  // namespace surfdb
