// The C++ side of bench_python_query.py: the batch query a C++ caller writes, one binding over the
// whole table, every answer stored into arrays laid out as the Python module returns them.
// Usage: bench_batch_query FILE.sdb UV.f64   (UV.f64: u0 v0 u1 v1 ... as native float64)
// Prints the best of three runs in nanoseconds per point.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <fstream>
#include <vector>

#include "surfdb/table/surface_binding.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: bench_batch_query FILE.sdb UV.f64\n");
    return 2;
  }
  try {
    const auto db = surfdb::Database::open(argv[1]);
    std::ifstream in(argv[2], std::ios::binary | std::ios::ate);
    if (!in) throw std::runtime_error(std::string("cannot read ") + argv[2]);
    std::vector<double> uv(static_cast<std::size_t>(in.tellg()) / sizeof(double));
    in.seekg(0);
    in.read(reinterpret_cast<char*>(uv.data()), static_cast<std::streamsize>(uv.size() * sizeof(double)));
    const std::size_t n = uv.size() / 2;
    const surfdb::RecordLayout& l = db->layout();
    surfdb::SurfaceBinding binding(db, {static_cast<std::uint32_t>(l.u_records), static_cast<std::uint32_t>(l.v_records)});
    double best = 1e300;
    for (int run = 0; run < 3; ++run) {
      const auto t0 = std::chrono::steady_clock::now();
      // Fresh outputs each run, as each Python call allocates its arrays.
      std::vector<double> u(n), v(n), p(3 * n), nn(3 * n), t(3 * n), b(3 * n), k1(n), k2(n);
      std::vector<std::uint8_t> status(n), degenerate(n);
      constexpr std::size_t ahead = surfdb::SurfaceBinding::kPrefetchAhead;  // as the Python module does
      for (std::size_t i = 0; i < n; ++i) {
        if (i + ahead < n) binding.prefetch(uv[2 * (i + ahead)], uv[2 * (i + ahead) + 1]);
        const surfdb::SurfacePoint s = binding.query(uv[2 * i], uv[2 * i + 1]);
        u[i] = s.u, v[i] = s.v, k1[i] = s.k1, k2[i] = s.k2;
        for (int c = 0; c < 3; ++c)
          p[3 * i + c] = s.p[c], nn[3 * i + c] = s.n[c], t[3 * i + c] = s.t[c], b[3 * i + c] = s.b[c];
        status[i] = static_cast<std::uint8_t>(s.status);
        degenerate[i] = s.degenerate;
      }
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::printf("%.1f\n", best / static_cast<double>(n) * 1e9);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_batch_query: %s\n", e.what());
    return 1;
  }
}
