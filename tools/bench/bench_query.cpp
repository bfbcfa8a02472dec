// surfdb's runtime against OpenCASCADE on the same B-spline face and the same (u,v) sequences:
// queries (random over the face, random inside a window, a smooth path), projections (warm and
// cold), queries per second per residency mode, and resident memory of window against full load.
// Usage: bench_query [RESULTS_FILE]   (default bench_query.txt)
#include <BRepAdaptor_Surface.hxx>
#include <Extrema_ExtPS.hxx>
#include <Extrema_GenLocateExtPS.hxx>
#include <GeomAdaptor_Surface.hxx>

#include <sys/mman.h>

#include <array>
#include <cstdlib>
#include <memory>
#include <random>
#include <span>
#include <vector>

#include "bare_table.hpp"
#include "bench_support.hpp"
#include "surfdb/libsurfdb/analytic_surfaces.hpp"
#include "surfdb/libsurfdb/cad_model.hpp"
#include "surfdb/libsurfdb/converter.hpp"
#include "surfdb/table/projection.hpp"

using namespace surfdb;
using namespace surfdb::bench;

namespace {

struct UV {
  double u, v;
};

double occt_d1_normal(const GeomAdaptor_Surface& s, const std::vector<UV>& uv) {
  double sum = 0;
  gp_Pnt p;
  gp_Vec du, dv;
  for (const UV& q : uv) {
    s.D1(q.u, q.v, p, du, dv);
    const gp_Vec n = du.Crossed(dv).Normalized();
    sum += p.X() + n.Z();
  }
  return sum;
}

// Both sides sum a coordinate of p and of n so that nothing is optimised away. Full: with
// SurfaceBinding::query (the full answer: frame, derivatives of point and normal, curvatures), else
// SurfaceBinding::query_d1 (what OpenCASCADE's side computes: point, first derivatives, normal).
template <bool Full>
double surfdb_sum(SurfaceBinding& b, const std::vector<UV>& uv, WindowPolicy policy) {
  double sum = 0;
  for (const UV& q : uv) {
    if constexpr (Full) {
      const SurfacePoint s = b.query(q.u, q.v, policy);
      sum += s.p.x() + s.n.z();
    } else {
      const SurfaceD1 s = b.query_d1(q.u, q.v, policy);
      sum += s.p.x() + s.n.z();
    }
  }
  return sum;
}

// query_d1 over the sequence in runs of 256 (the batch call, which prefetches the cells of the
// queries ahead); the same sums.
double surfdb_batch_sum(SurfaceBinding& b, const std::vector<double>& u, const std::vector<double>& v,
                        WindowPolicy policy) {
  std::array<SurfaceD1, 256> out;
  double sum = 0;
  for (std::size_t k = 0; k < u.size(); k += out.size()) {
    const std::size_t m = std::min(out.size(), u.size() - k);
    b.query_d1(std::span(u).subspan(k, m), std::span(v).subspan(k, m), std::span(out).first(m), policy);
    for (std::size_t i = 0; i < m; ++i) sum += out[i].p.x() + out[i].n.z();
  }
  return sum;
}

// The mapped window's floor, reported under its row: its faults and its releases, at what each
// costs alone, times the window's counts a pass (`faults` minor faults, `releases` calls to
// Database::release). A fault: each record's first page read again through the mapping after the
// whole file's release (one call a round of every record, its cost shared by the round's
// faults); a release: a record's pages released, then read again, less a fault. Per fault counted
// (getrusage), not per turn of the loop. `extra_ns`: the window's time a query over the whole
// table's.
void report_mapped_window_floor(Report& report, const Database& db, long faults, double releases, double extra_ns,
                                std::size_t queries) {
  if (faults <= 0) {
    report.line("  (the faults' and releases' floor: the window took no fault)");
    return;
  }
  const RecordLayout& l = db.layout();
  volatile std::uint8_t touched = 0;
  const auto rounds = [&](bool release_each) {
    const CpuRun run = best_cpu_run([&] {
      for (long k = 0; k < faults; ++k) {
        const std::uint64_t number = 1 + static_cast<std::uint64_t>(k) % l.data_records;
        if (number == 1 && !release_each) db.release(1, l.data_records);
        if (release_each) db.release(number);
        touched = touched + *db.record(number);
      }
    });
    return run.seconds / static_cast<double>(std::max(run.faults, 1L));
  };
  const double fault = rounds(false), release = std::max(0.0, rounds(true) - fault);
  const double floor_ns = (static_cast<double>(faults) * fault + releases * release) / static_cast<double>(queries) * 1e9;
  report.line("  (the faults' and releases' floor: the window's %ld faults and %.0f releases a pass at %.1f us a fault"
              " and %.1f us a release, each timed alone: %.1f ns a query; the mapped window took %.1f ns a query"
              " over the whole table's, %.2fx that floor)",
              faults, releases, fault * 1e6, release * 1e6, floor_ns, extra_ns, extra_ns / floor_ns);
}

// The copied window's floor, reported under its row: the copies themselves. `copies` records (the
// window's count a pass), taken in the order the path enters records, each read
// (Database::read_record, as the window reads them) into the place it would take in a 5 x 5-record
// buffer, and nothing else. `extra_ns`: the window's time a query over the whole table's.
void report_copied_window_floor(Report& report, const Database& db, const std::vector<UV>& path, double copies,
                                double extra_ns) {
  const Header& h = db.header();
  const RecordLayout& l = h.layout;
  const auto node = [](double x, double lo, double step, std::uint64_t points) {
    return std::min(static_cast<std::uint64_t>(std::max(0.0, (x - lo) / step)), points - 2);
  };
  std::vector<std::uint64_t> entered;  // the records the path enters, in order, its first included
  for (const UV& q : path) {
    const std::uint64_t number = l.record_number({node(q.u, h.u0, h.du, l.u_points) / l.u_record_points,
                                                  node(q.v, h.v0, h.dv, l.v_points) / l.v_record_points});
    if (entered.empty() || entered.back() != number) entered.push_back(number);
  }
  const auto count = static_cast<std::size_t>(copies);
  if (count == 0 || entered.empty()) {
    report.line("  (the copies' floor: the window copied no record)");
    return;
  }
  // In 2 MiB pages where the kernel allows, as the window's buffer is (storage_window.cpp).
  constexpr std::size_t huge = std::size_t{2} << 20;
  const std::size_t buffer_bytes = (25 * l.record_bytes + huge - 1) / huge * huge;
  const std::unique_ptr<std::uint8_t, decltype(&std::free)> buffer(
      static_cast<std::uint8_t*>(std::aligned_alloc(huge, buffer_bytes)), &std::free);
  if (!buffer) throw std::bad_alloc();
  ::madvise(buffer.get(), buffer_bytes, MADV_HUGEPAGE);
  const CpuRun run = best_cpu_run([&] {
    for (std::size_t k = 0; k < count; ++k) {
      const RecordIndex r = l.record_index(entered[k % entered.size()]);
      std::uint8_t* place = buffer.get() + ((r.ti % 5) * 5 + r.tj % 5) * l.record_bytes;
      db.read_record(l.record_number(r), place);  // a library call: not optimised away
    }
  });
  const double floor_ns = run.seconds / static_cast<double>(path.size()) * 1e9;
  report.line("  (the copies' floor: %zu records a pass, the window's count, read in the order the path enters"
              " records (%zu records entered a pass): %.1f ns a query, %.1f us a record; the copied window"
              " took %.1f ns a query over the whole table's, %.2fx the copies)",
              count, entered.size(), floor_ns, run.seconds / static_cast<double>(count) * 1e6, extra_ns,
              extra_ns / floor_ns);
}

}  // namespace

int main(int argc, char** argv) {
  Report report(argc > 1 ? argv[1] : "bench_query.txt");
  const auto dir = std::filesystem::temp_directory_path() / "surfdb-bench-query";
  std::filesystem::create_directories(dir);
  const Handle(Geom_BSplineSurface) patch = bicubic_patch();
  write_step(patch, dir / "patch.step");
  convert_surface(*CadModel::load(dir / "patch.step").face(1), ConvertOptions{}, dir / "patch.sdb");
  const auto db = Database::open(dir / "patch.sdb");
  const Header& h = db->header();
  const GeomAdaptor_Surface exact(patch);
  report.line("# bench_query: 20 x 20-pole bicubic B-spline, 999 x 999 points, 27 x 27 records");

  constexpr std::size_t n = 1'000'000;
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<UV> random(n), window(n), path(n);
  for (UV& q : random) q = {unit(rng), unit(rng)};
  // Inside records 16..20 x 16..20 (a 5 x 5 window placed on record 18), cells fully inside.
  const double lo = 16 * 27 * h.du, hi = (21 * 27 - 1) * h.du;
  for (UV& q : window) q = {lo + (hi - lo) * unit(rng), lo + (hi - lo) * unit(rng)};
  // A smooth path: a tenth of a cell per query, winding over the face.
  for (std::size_t k = 0; k < n; ++k) {
    const double s = 0.1 * h.du * static_cast<double>(k);
    path[k] = {0.5 + 0.4 * std::sin(s * 3.1), std::fmod(s, 1.0)};
  }

  // Each sequence twice on surfdb's side: query_d1 computes what OpenCASCADE's side does (point,
  // D1, normal), query the full answer a contact solver uses (adds the frame, the normal's
  // derivatives and the curvatures). Beside them the floor: a bare bilinear lookup of point and normal
  // in the same table (bare_table.hpp), the most any table lookup reaches on that sequence.
  // And query_d1 over the whole sequence in one batch call, which prefetches ahead.
  // Two floors: `floor` sums x + nz of each lookup, and the compiler then interpolates those two
  // values alone; `floor6` sums all six, point and normal (bare_table.hpp). Under the first three
  // rows, the answer's floor: the same lookup computing each answer by the library's interpolation,
  // with nothing else of a binding (no window, status or wrap), what the answer itself costs.
  report.line("%-50s %9s %9s %8s %9s %9s %8s %9s %8s %9s %8s", "queries (same face, same sequence)", "OCCT ns",
              "floor ns", "speedup", "floor6 ns", "d1 ns", "speedup", "batch ns", "speedup", "full ns", "speedup");
  BareTable bare(*db);
  double last_d1_ns = 0;  // the last row's query_d1 and the minor page faults of its fastest pass
  long last_d1_faults = 0;
  enum class AnswerFloor { no, yes };  // whether a row also times the answer's floor
  const auto compare = [&](const char* name, const std::vector<UV>& uv, SurfaceBinding& b, WindowPolicy policy,
                           AnswerFloor answer_floor = AnswerFloor::no) {
    double sink = 0;
    std::vector<double> us(uv.size()), vs(uv.size());
    for (std::size_t k = 0; k < uv.size(); ++k) us[k] = uv[k].u, vs[k] = uv[k].v;
    const double t_occt = best_cpu_run([&] { sink += occt_d1_normal(exact, uv); }).seconds / n * 1e9;
    const double t_bare = best_cpu_run([&] { sink += bare.sum(uv); }).seconds / n * 1e9;
    const double t_bare6 = best_cpu_run([&] { sink += bare.sum_all(uv); }).seconds / n * 1e9;
    const CpuRun d1 = best_cpu_run([&] { sink += surfdb_sum<false>(b, uv, policy); });
    const double t_d1 = d1.seconds / n * 1e9;
    last_d1_ns = t_d1;
    last_d1_faults = d1.faults;
    const double t_batch = best_cpu_run([&] { sink += surfdb_batch_sum(b, us, vs, policy); }).seconds / n * 1e9;
    const double t_full = best_cpu_run([&] { sink += surfdb_sum<true>(b, uv, policy); }).seconds / n * 1e9;
    report.line("%-50s %9.1f %9.1f %7.1fx %9.1f %9.1f %7.1fx %9.1f %7.1fx %9.1f %7.1fx", name, t_occt, t_bare,
                t_occt / t_bare, t_bare6, t_d1, t_occt / t_d1, t_batch, t_occt / t_batch, t_full, t_occt / t_full);
    if (answer_floor == AnswerFloor::yes) {  // each answer computed from the floor's lookup (BareTable::answer_sum)
      const double t_answer_d1 = best_cpu_run([&] { sink += bare.answer_sum<SurfaceD1>(uv); }).seconds / n * 1e9;
      const double t_answer = best_cpu_run([&] { sink += bare.answer_sum<SurfacePoint>(uv); }).seconds / n * 1e9;
      report.line("  (the answer's floor, the bare lookup computing the answer by the library's interpolation: query_d1's"
                  " %.1f ns, %.2fx the floor, query_d1 %.2fx it; query's %.1f ns, %.2fx the floor, query %.2fx it)",
                  t_answer_d1, t_answer_d1 / t_bare, t_d1 / t_answer_d1, t_answer, t_answer / t_bare, t_full / t_answer);
    }
    return sink;
  };
  SurfaceBinding whole(db, {37, 37}, Residency::direct_mapping);
  compare("random (u,v), whole table mapped", random, whole, WindowPolicy::follow, AnswerFloor::yes);
  SurfaceBinding small(db, {5, 5}, Residency::window_copy);
  small.window().follow({18, 18});  // records 16..20 x 16..20: every query of the sequence inside
  small.query(window[0].u, window[0].v, WindowPolicy::hold);
  compare("random (u,v) inside a 5 x 5-record window", window, small, WindowPolicy::hold, AnswerFloor::yes);
  compare("smooth path, 0.1 cell per query, whole table mapped", path, whole, WindowPolicy::follow, AnswerFloor::yes);
  const double whole_d1_ns = last_d1_ns;
  const long whole_d1_faults = last_d1_faults;
  SurfaceBinding tracking(db, {5, 5}, Residency::direct_mapping);
  compare("smooth path, the same, 5 x 5-record window mapped", path, tracking, WindowPolicy::follow);
  const auto passes = 3 * 3;  // best of three, for query_d1, its batch and query
  const double updates = static_cast<double>(tracking.window().stats().updates / passes);
  report.line("  (5 x 5 window on the smooth path, query_d1: %.0f window updates and %ld minor page faults per pass of %zu"
              " queries, against %ld on the whole table; %.1f us per update over the whole table's time; %.2fx it)",
              updates, last_d1_faults, n, whole_d1_faults, (last_d1_ns - whole_d1_ns) * 1e-3 * n / updates,
              last_d1_ns / whole_d1_ns);
  report_mapped_window_floor(report, *db, last_d1_faults, static_cast<double>(tracking.window().stats().releases) / passes,
                             last_d1_ns - whole_d1_ns, n);
  // The same window copying its records (window_copy): a move changes no page-table entry.
  SurfaceBinding tracking_copy(db, {5, 5}, Residency::window_copy);
  compare("smooth path, the same, 5 x 5-record window copied", path, tracking_copy, WindowPolicy::follow);
  const double copy_updates = static_cast<double>(tracking_copy.window().stats().updates / passes);
  report.line("  (5 x 5 window copied, query_d1: %.0f window updates and %ld minor page faults per pass, %.1f us per"
              " update over the whole table's time; %.2fx it; %.2f records copied per update)",
              copy_updates, last_d1_faults, (last_d1_ns - whole_d1_ns) * 1e-3 * n / copy_updates,
              last_d1_ns / whole_d1_ns,
              static_cast<double>(tracking_copy.window().stats().records_read) /
                  static_cast<double>(tracking_copy.window().stats().updates));
  report_copied_window_floor(report, *db, path,
                             static_cast<double>(tracking_copy.window().stats().records_read) / passes,
                             last_d1_ns - whole_d1_ns);

  // Queries per second per residency mode, smooth path.
  // Beside each: window updates and minor page faults per pass (fastest of three), and the cost of
  // an update, the time over full load's (which never updates) per update.
  report.line("%-44s %12s %12s %10s %10s %12s", "residency mode, smooth path, query", "Mquery/s", "resident MB",
              "updates", "faults", "us/update");
  double full_seconds = 0;
  for (Residency r : {Residency::full_load, Residency::window_copy, Residency::direct_mapping}) {
    SurfaceBinding b(db, {5, 5}, r);
    double sink = 0;
    const CpuRun run = best_cpu_run([&] { sink += surfdb_sum<true>(b, path, WindowPolicy::follow); });
    if (r == Residency::full_load) full_seconds = run.seconds;
    const double moves = static_cast<double>(b.window().stats().updates) / 3;
    report.line("%-44s %12.1f %12.2f %10.0f %10ld %12.1f", residency_name(r), n / run.seconds / 1e6,
                b.window().stats().bytes_resident / 1e6, moves, run.faults,
                moves > 0 ? (run.seconds - full_seconds) / moves * 1e6 : 0.0);
  }

  // Projections: points off the surface, warm starts a few cells from the answer.
  constexpr std::size_t m = 20000;
  std::vector<Eigen::Vector3d> points(m);
  std::vector<UV> guess(m), answer(m);
  for (std::size_t k = 0; k < m; ++k) {
    const double u = 0.05 + 0.9 * unit(rng), v = 0.05 + 0.9 * unit(rng);
    answer[k] = {u, v};
    gp_Pnt p;
    gp_Vec du, dv;
    exact.D1(u, v, p, du, dv);
    const gp_Vec nrm = du.Crossed(dv).Normalized() * (4 * unit(rng) - 2);
    points[k] = {p.X() + nrm.X(), p.Y() + nrm.Y(), p.Z() + nrm.Z()};
    guess[k] = {u + 3 * h.du, v - 2 * h.dv};
  }
  report.line("%-44s %12s %12s %8s %9s %8s", "projections", "OCCT ns", "surfdb ns", "speedup", "floor ns", "speedup");
  {
    double sink = 0;
    const double t_occt = best_cpu_run([&] {
      for (std::size_t k = 0; k < m; ++k) {
        Extrema_GenLocateExtPS ext(exact, 1e-9, 1e-9);
        ext.Perform(gp_Pnt(points[k].x(), points[k].y(), points[k].z()), guess[k].u, guess[k].v);
        sink += ext.IsDone() ? ext.SquareDistance() : 0;
      }
    }).seconds / m * 1e9;
    SurfaceBinding b(db, {37, 37});  // points all over the face: a window of the whole table
    const double t_ours = best_cpu_run([&] {
      for (std::size_t k = 0; k < m; ++k) sink += project_local(b, points[k], guess[k].u, guess[k].v).distance;
    }).seconds / m * 1e9;
    // The floor of any table-based local projection: it reads the guess's cell, and only then can
    // it find (and read) the answer's.
    const double t_bare = best_cpu_run([&] {
      for (std::size_t k = 0; k < m; ++k) {
        const double first = bare.at(guess[k].u, guess[k].v);
        sink += bare.at(answer[k].u + 0 * first, answer[k].v);
      }
    }).seconds / m * 1e9;
    // The answer's floor of a warm projection: the full answers Newton reads, one at the guess and
    // three more for its (at most) three steps, taken here at the foot point itself: the first
    // enters the foot's cell, the other two answer from it. Without the 3 x 3 solves.
    const double t_answers = best_cpu_run([&] {
      SurfacePoint s;
      for (std::size_t k = 0; k < m; ++k) {
        bare.answer_at(guess[k].u, guess[k].v, s);
        for (int step = 0; step < 3; ++step) bare.answer_at(answer[k].u + 0 * s.p.x(), answer[k].v, s);
        sink += s.p.x();
      }
    }).seconds / m * 1e9;
    report.line("%-44s %12.1f %12.1f %7.1fx %9.1f %7.1fx", "warm (Extrema_GenLocateExtPS vs Newton)", t_occt, t_ours,
                t_occt / t_ours, t_bare, t_occt / t_bare);
    std::size_t converged = 0, iterations = 0, worst = 0;
    for (std::size_t k = 0; k < m; ++k) {
      const Projection p = project_local(b, points[k], guess[k].u, guess[k].v);
      converged += p.converged;
      iterations += static_cast<std::size_t>(p.iterations);
      worst = std::max(worst, static_cast<std::size_t>(p.iterations));
    }
    report.line("  (warm: %.1f%% converged, %.2f iterations on average, %zu at most; a query each and one at the guess,"
                " against the floor's two lookups)", 100.0 * converged / m, double(iterations) / m, worst);
    report.line("  (the answer's floor, the four full answers Newton reads, by the bare lookup, without the"
                " solves: %.1f ns, %.2fx the floor; surfdb %.2fx it)", t_answers, t_answers / t_bare,
                t_ours / t_answers);
  }
  {
    double sink = 0;
    Extrema_ExtPS ext;
    ext.Initialize(exact, 0, 1, 0, 1, 1e-9, 1e-9);
    constexpr std::size_t cold = 300;
    const double t_occt = best_cpu_run([&] {
      for (std::size_t k = 0; k < cold; ++k) {
        ext.Perform(gp_Pnt(points[k].x(), points[k].y(), points[k].z()));
        sink += ext.IsDone() && ext.NbExt() > 0 ? ext.SquareDistance(1) : 0;
      }
    }).seconds / cold * 1e9;
    const auto t_build0 = std::chrono::steady_clock::now();
    const auto tree = NodeTree::build(*db);
    const double build = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_build0).count();
    SurfaceBinding b(db, {37, 37});
    const double t_ours = best_cpu_run([&] {
      for (std::size_t k = 0; k < m; ++k) sink += project_global(b, *tree, points[k]).distance;
    }).seconds / m * 1e9;
    report.line("%-44s %12.1f %12.1f %7.1fx", "cold (Extrema_ExtPS::Perform vs node tree + Newton)", t_occt, t_ours, t_occt / t_ours);
    report.line("  (node tree of record spheres, every 4th node along u and v, built once in %.2f s)", build);
  }

  // Resident memory on the paper's octant: a 5 x 5 window against the whole table loaded.
  convert_surface(*make_analytic_surface(AnalyticSpec{}), ConvertOptions{}, dir / "octant.sdb");
  const auto octant = Database::open(dir / "octant.sdb");
  report.line("%-44s %12s", "octant 999 x 999, resident bytes", "MB");
  for (Residency r : {Residency::full_load, Residency::window_copy, Residency::direct_mapping}) {
    SurfaceBinding b(octant, {5, 5}, r);
    for (double i = 13; i < 999; i += 27)
      for (double j = 0; j < 999; j += 0.5) b.query(i * octant->header().du, j * octant->header().dv);
    report.line("%-44s %12.2f", residency_name(r), b.window().stats().bytes_resident / 1e6);
  }
  std::filesystem::remove_all(dir);
  return 0;
}
