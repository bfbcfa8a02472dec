// The floor of any table lookup on this machine: bilinear interpolation of the point and the
// normal (the least a D1-plus-normal answer reads; a floor of 12 doubles would read more)
// from the same mapped table at the same (u,v) as a query, and nothing else: no window, no
// status, no periodic wrap or clamping, no re-normalisation, no derivatives. Like a query it
// keeps the last cell's corners, so a path reads a cell once. bench_query times it beside each
// query row, so each row also shows about the largest speedup over OpenCASCADE that a lookup
// table could reach there.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "surfdb/formats/columns.hpp"
#include "surfdb/table/database.hpp"
#include "surfdb/table/interp_bilinear.hpp"

namespace surfdb::bench {

class BareTable {
 public:
  /// Requires a float64 table in version-1 column order (what `surfdb convert` writes).
  explicit BareTable(const Database& db)
      : h_(db.header()), u_lines_(db.u_lines()), v_lines_(db.v_lines()) {
    if (h_.scalar != ScalarType::f64 ||
        !std::equal(h_.columns.begin(), h_.columns.end(), kColumnsV1.begin(), kColumnsV1.end()))
      throw std::invalid_argument("BareTable: the table is not float64 in version-1 column order");
    const RecordLayout& l = h_.layout;
    for (std::uint64_t r = 1; r <= l.data_records; ++r) records_.push_back(db.record(r));
    node_bytes_ = std::uint64_t{l.column_count} * l.scalar_bytes;
  }

  /// Sum over (u,v) in [u0,u1] x [v0,v1] of x + nz at each, so that nothing is optimised away.
  template <class UVs>
  double sum(const UVs& uv) {
    double total = 0;
    for (const auto& q : uv) total += at(q.u, q.v);
    return total;
  }

  /// The same with the sum of all six values, x + y + z + nx + ny + nz: every value is used, so the
  /// compiler computes all six. sum() returns x + nz only, and the compiler then leaves the other
  /// four out (GCC 12, -O3: 12 multiplications a lookup instead of 28), so that floor is that of
  /// two interpolated values, below a point and a normal; bench_query prints both.
  template <class UVs>
  double sum_all(const UVs& uv) {
    double total = 0;
    for (const auto& q : uv) total += at<true>(q.u, q.v);
    return total;
  }

  /// The answer's floor: the answer a query returns (SurfaceD1 or SurfacePoint), computed from
  /// this lookup by the library's own interpolation (interpolate_bilinear, a call here where
  /// SurfaceBinding inlines the same operations), with the grid lines snapped to as a binding
  /// does, and nothing else of a binding: no window, status, periodic wrap or clamping, no reuse
  /// of the corners a neighbouring cell shares, no memo. A SurfaceD1 reads and prepares the six
  /// values it needs (point and normal, bytes 16..64 of a node), a SurfacePoint all twelve. The
  /// fields it returns equal the binding's bit for bit (`profile_query FILE compare` checks).
  /// Sums x + nz of each answer.
  template <class Answer, class UVs>
  double answer_sum(const UVs& uv) {
    double total = 0;
    Answer out;
    for (const auto& q : uv) {
      answer_at(q.u, q.v, out);
      total += out.p.x() + out.n.z();
    }
    return total;
  }

  /// One answer of answer_sum(), at (u,v) inside the table's rectangle.
  template <class Answer>
  void answer_at(double u, double v, Answer& out) {
    constexpr bool kFull = std::is_same_v<Answer, SurfacePoint>;
    AnswerCell& last = kFull ? full_cell_ : d1_cell_;
    double a, b;
    const std::uint64_t i = snapped_cell(u, h_.u0, inv_du_, h_.layout.u_points, a);
    const std::uint64_t j = snapped_cell(v, h_.v0, inv_dv_, h_.layout.v_points, b);
    if (i != last.i || j != last.j) {
      const std::uint8_t* at[4];
      for (int k = 0; k < 4; ++k) {  // every cache line read, in flight at once
        at[k] = node(i + (k & 1), j + (k >> 1));
        __builtin_prefetch(at[k] + 16);
        __builtin_prefetch(at[k] + 8 * (kFull ? 11 : 8) - 1);
        if (kFull) __builtin_prefetch(at[k] + 128), __builtin_prefetch(at[k] + 151);
      }
      BilinearCell& c = last.cell;
      for (int k = 0; k < 4; ++k) {  // x..tz at bytes 16..88, k1 k2 flags at 128..152
        std::memcpy(c.corners[k], at[k] + 16, (kFull ? 9 : 6) * 8);
        if (kFull) std::memcpy(c.corners[k] + kK1, at[k] + 128, 3 * 8);
      }
      if (kFull) {
        make_bilinear_cell(c);
      } else {  // make_bilinear_cell's coefficients of the point and the normal alone
        for (int m = kX; m <= kNz; ++m) {
          c.base[m] = c.corners[0][m];
          c.along_u[m] = c.corners[1][m] - c.corners[0][m];
          c.along_v[m] = c.corners[2][m] - c.corners[0][m];
          c.twist[m] = (c.corners[3][m] - c.corners[2][m]) - (c.corners[1][m] - c.corners[0][m]);
        }
      }
      last.i = i;
      last.j = j;
    }
    interpolate_bilinear(last.cell, a, b, inv_du_, inv_dv_, Interpolation::bilinear, out);
  }

  /// x + nz at (u,v), or with All the sum of the six values.
  template <bool All = false>
  double at(double u, double v) {
    double a, b;
    const std::uint64_t i = cell(u, h_.u0, inv_du_, h_.layout.u_points, a);
    const std::uint64_t j = cell(v, h_.v0, inv_dv_, h_.layout.v_points, b);
    if (i != cell_i_ || j != cell_j_) {
      for (int k = 0; k < 4; ++k) std::memcpy(c_[k], node(i + (k & 1), j + (k >> 1)) + 16, sizeof c_[k]);
      cell_i_ = i;
      cell_j_ = j;
    }
    const double w[4] = {(1 - a) * (1 - b), a * (1 - b), (1 - a) * b, a * b};
    double f[6];
    for (int m = 0; m < 6; ++m) f[m] = w[0] * c_[0][m] + w[1] * c_[1][m] + w[2] * c_[2][m] + w[3] * c_[3][m];
    if constexpr (All) return ((f[0] + f[1]) + (f[2] + f[3])) + (f[4] + f[5]);
    return f[0] + f[5];
  }

 private:
  static std::uint64_t cell(double x, double lo, double inv_step, std::uint64_t nodes, double& local) {
    const double f = (x - lo) * inv_step;
    const std::uint64_t c = std::min(static_cast<std::uint64_t>(f), nodes - 2);
    local = f - static_cast<double>(c);
    return c;
  }
  // cell() with SurfaceBinding's rules at grid lines: a local coordinate within 1e-9 of 0 or 1
  // is on the line (the next cell's 0 above), and the last cell takes the upper edge.
  static std::uint64_t snapped_cell(double x, double lo, double inv_step, std::uint64_t nodes, double& local) {
    const double f = (x - lo) * inv_step;
    std::uint64_t c = static_cast<std::uint64_t>(f);
    local = f - static_cast<double>(c);
    if (local > 1 - 1e-9) {
      ++c;
      local = 0;
    } else if (local < 1e-9) {
      local = 0;
    }
    if (c > nodes - 2) {
      local = std::min(local + static_cast<double>(c - (nodes - 2)), 1.0);
      c = nodes - 2;
    }
    return c;
  }
  const std::uint8_t* node(std::uint64_t i, std::uint64_t j) const {
    const GridLine &gu = u_lines_[i], &gv = v_lines_[j];
    const std::uint8_t* record = records_[gu.tile * h_.layout.v_records + gv.tile];
    return record + (std::uint64_t{gu.local} * h_.layout.v_record_points + gv.local) * node_bytes_;
  }

  const Header& h_;
  std::span<const GridLine> u_lines_, v_lines_;
  std::vector<const std::uint8_t*> records_;  // by record number - 1
  std::uint64_t node_bytes_ = 0;
  double inv_du_ = 1 / h_.du, inv_dv_ = 1 / h_.dv;
  double c_[4][6] = {};  // x y z nx ny nz of the last cell's corners
  std::uint64_t cell_i_ = ~std::uint64_t{0}, cell_j_ = 0;
  struct AnswerCell {
    BilinearCell cell;
    std::uint64_t i = ~std::uint64_t{0}, j = 0;
  };
  AnswerCell d1_cell_, full_cell_;  // answer_at()'s last cell of each kind
};

}  // namespace surfdb::bench
