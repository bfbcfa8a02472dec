// One of bench_query's sequences through one binding, runtime only, for a profiler: run it under
// `valgrind --tool=callgrind` with 1 and with 2 passes, and the difference of the two totals over
// the number of queries is the cost of a query without the one-time work (opening, verifying).
// Prints the fastest pass's time per query too, by wall clock: for runs alternated between
// builds or sequences (bench_query's processor-time figures stay the reference).
// Usage: profile_query FILE.sdb cell|path|corner|random d1|full|floor|floor6|answer_d1|answer_full|cold|compare PASSES
//   (floor: bare_table.hpp's x + nz, two values interpolated; floor6: all six, point and normal;
//   answer_d1, answer_full: the answer's floor, BareTable::answer_sum, for query_d1 and query;
//   compare: checks that the answer's floor answers as the binding does, field by field)
//   cell: ten points in one cell, over and over; path: bench_query's smooth path, a tenth of a
//   cell per query; corner: the same path squeezed into a tenth of the table along each axis, its
//   cells entered as often but its nodes kept in the caches (the path's cost without the misses);
//   random: uniform over the face. One binding over the whole table, mapped.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "bare_table.hpp"
#include "surfdb/table/projection.hpp"
#include "surfdb/table/surface_binding.hpp"

namespace {

constexpr std::array<std::string_view, 4> kSequences = {"cell", "path", "corner", "random"};
constexpr std::array<std::string_view, 8> kKinds = {"d1",          "full", "floor", "floor6", "answer_d1",
                                                    "answer_full", "cold", "compare"};

bool same(const Eigen::Vector3d& x, const Eigen::Vector3d& y) {
  return std::memcmp(x.data(), y.data(), sizeof(double) * 3) == 0;
}

// Whether the answer's floor (BareTable::answer_at) answers as the binding does, every field
// both have, bit for bit: the floor is a floor of this answer only if it is this answer.
bool same_answers(surfdb::SurfaceBinding& binding, surfdb::bench::BareTable& bare, double u, double v) {
  const surfdb::SurfaceD1 d1 = binding.query_d1(u, v);
  surfdb::SurfaceD1 bare_d1;
  bare.answer_at(u, v, bare_d1);
  const surfdb::SurfacePoint s = binding.query(u, v);
  surfdb::SurfacePoint bare_s;
  bare.answer_at(u, v, bare_s);
  return same(d1.p, bare_d1.p) && same(d1.dp_du, bare_d1.dp_du) && same(d1.dp_dv, bare_d1.dp_dv) &&
         same(d1.n, bare_d1.n) && same(s.p, bare_s.p) && same(s.dp_du, bare_s.dp_du) &&
         same(s.dp_dv, bare_s.dp_dv) && same(s.n, bare_s.n) && same(s.t, bare_s.t) && same(s.b, bare_s.b) &&
         same(s.dn_du, bare_s.dn_du) && same(s.dn_dv, bare_s.dn_dv) && std::memcmp(&s.k1, &bare_s.k1, 8) == 0 &&
         std::memcmp(&s.k2, &bare_s.k2, 8) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string_view sequence = argc == 5 ? argv[2] : "", kind = argc == 5 ? argv[3] : "";
  if (std::find(kSequences.begin(), kSequences.end(), sequence) == kSequences.end() ||
      std::find(kKinds.begin(), kKinds.end(), kind) == kKinds.end()) {
    std::fprintf(stderr,
                 "usage: profile_query FILE.sdb cell|path|corner|random "
                 "d1|full|floor|floor6|answer_d1|answer_full|cold|compare PASSES\n");
    return 2;
  }
  try {
    const auto db = surfdb::Database::open(argv[1]);
    const surfdb::Header& h = db->header();
    constexpr std::size_t n = 200000;
    std::vector<std::pair<double, double>> uv(n);
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> unit(0, 1);
    for (std::size_t k = 0; k < n; ++k) {
      if (sequence == "cell") {
        uv[k] = {h.u0 + (500.2 + 0.06 * double(k * 7 % 10)) * h.du, h.v0 + (500.2 + 0.06 * double(k * 3 % 10)) * h.dv};
      } else if (sequence == "path" || sequence == "corner") {
        const double s = 0.1 * static_cast<double>(k) / static_cast<double>(h.layout.v_points - 1);
        const double span = sequence == "path" ? 1.0 : 0.1;  // the same speed along both axes
        uv[k] = {h.u0 + (h.u1 - h.u0) * (0.5 + 0.4 * span * std::sin(s * 3.1 / span)),
                 h.v0 + (h.v1 - h.v0) * std::fmod(s, span)};
      } else {
        uv[k] = {h.u0 + (h.u1 - h.u0) * unit(rng), h.v0 + (h.v1 - h.v0) * unit(rng)};
      }
    }
    const surfdb::RecordLayout& l = h.layout;
    surfdb::SurfaceBinding binding(db, {static_cast<std::uint32_t>(l.u_records), static_cast<std::uint32_t>(l.v_records)});
    double sink = 0;
    const bool light = kind == "d1";
    struct UV {
      double u, v;
    };
    std::vector<UV> bare_uv;
    for (const auto& [u, v] : uv) bare_uv.push_back({u, v});
    surfdb::bench::BareTable bare(*db);
    // cold: projections without a guess of points up to 2 length units off the surface at (u,v).
    std::vector<Eigen::Vector3d> points;
    const auto tree = kind == "cold" ? surfdb::NodeTree::build(*db) : nullptr;
    if (tree) {
      for (const auto& [u, v] : uv) {
        const surfdb::SurfacePoint s = binding.query(u, v);
        points.push_back(s.p + (4 * unit(rng) - 2) * s.n);
      }
    }
    // One pass of `kind` over the sequence; returns how many answers the compare kind found to differ.
    const auto one_pass = [&]() -> std::size_t {
      std::size_t differ = 0;
      if (kind == "floor" || kind == "floor6") {
        sink += kind == "floor" ? bare.sum(bare_uv) : bare.sum_all(bare_uv);
      } else if (kind == "compare") {
        for (const auto& [u, v] : uv) differ += !same_answers(binding, bare, u, v);
        std::printf("%zu of %zu answers of the answer's floor differ from the binding's\n", differ, n);
      } else if (kind == "answer_d1" || kind == "answer_full") {
        sink += kind == "answer_d1" ? bare.answer_sum<surfdb::SurfaceD1>(bare_uv)
                                    : bare.answer_sum<surfdb::SurfacePoint>(bare_uv);
      } else if (tree) {
        for (const Eigen::Vector3d& x : points) sink += surfdb::project_global(binding, *tree, x).distance;
      } else {
        for (const auto& [u, v] : uv) {
          if (light) {
            const surfdb::SurfaceD1 s = binding.query_d1(u, v);
            sink += s.p.x() + s.n.z();
          } else {
            const surfdb::SurfacePoint s = binding.query(u, v);
            sink += s.p.x() + s.n.z();
          }
        }
      }
      return differ;
    };
    double fastest = std::numeric_limits<double>::infinity();  // seconds of the fastest pass
    for (int pass = 0; pass < std::stoi(argv[4]); ++pass) {
      const auto start = std::chrono::steady_clock::now();
      if (one_pass() != 0) return 1;
      fastest = std::min(fastest, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::printf("%zu queries a pass, checksum %.17g; the fastest pass %.1f ns a query\n", n, sink, fastest / n * 1e9);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "profile_query: %s\n", e.what());
    return 1;
  }
  return 0;
}
