// Conversion of a 999 x 999 grid of a bicubic B-spline face, from the STEP file to a verified
// .sdb on disk, against the bare single-threaded OpenCASCADE evaluation, in grid order, of what the
// file needs at the same points: BRepAdaptor_Surface::D2, the unit normal Du x Dv and the
// principal curvatures from the first and second fundamental forms (BRepLProp_SLProps, 2.7x
// slower, beside it for reference). Beside them the floor of the write: the same number of bytes
// written, fsync'ed and renamed into place the way the converter does it, with no sampling.
// Then trimmed and untrimmed faces of the public CAD parts (docs/benchmarks.md), when CAD_DIR holds
// them, at the same grid: validity from the trimming curves' crossings, and with --before node by
// node from BRepClass_FaceClassifier as every conversion did before (minutes per face).
// Usage: bench_convert [RESULTS_FILE [CAD_DIR [--before]]]   (default bench_convert.txt ../shared/cad)
#include <BRepAdaptor_Surface.hxx>
#include <BRepLProp_SLProps.hxx>
#include <BRepTools.hxx>
#include <TopExp_Explorer.hxx>
#include <TopoDS.hxx>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <vector>
#include <string>
#include <thread>

#include "bench_support.hpp"
#include "surfdb/libsurfdb/cad_model.hpp"
#include "surfdb/formats/checksum.hpp"
#include "surfdb/libsurfdb/converter.hpp"
#include "surfdb/table/database.hpp"

using namespace surfdb;
using namespace surfdb::bench;
using Clock = std::chrono::steady_clock;

namespace {
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

double cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Wall time of the fastest of `repeats` runs and the CPU time (every thread of the process) of that run.
struct Timing {
  double wall = 1e300, cpu = 0;
};

// The fastest of `repeats` runs of f; on_best() is called right after each run that is the
// fastest so far, to keep what that run measured of itself.
template <class F, class OnBest = void (*)()>
Timing best_timing(F&& f, int repeats = 3, OnBest on_best = [] {}) {
  Timing best;
  for (int r = 0; r < repeats; ++r) {
    const double c0 = cpu_now();
    const auto t0 = Clock::now();
    f();
    const double wall = since(t0), cpu = cpu_now() - c0;
    if (wall < best.wall) {
      best = {wall, cpu};
      on_best();
    }
  }
  return best;
}

// The bare evaluation at one node: D2, the unit normal, the principal curvatures from the first
// (E, F, G) and second (L, M, N) fundamental forms; what the file needs of OpenCASCADE, a few lines.
double bare_node(const BRepAdaptor_Surface& surface, double u, double v) {
  gp_Pnt p;
  gp_Vec du, dv, duu, dvv, duv;
  surface.D2(u, v, p, du, dv, duu, dvv, duv);
  gp_Vec n = du.Crossed(dv);
  const double length = n.Magnitude();
  if (length > 0) n /= length;
  const double E = du.Dot(du), F = du.Dot(dv), G = dv.Dot(dv);
  const double L = duu.Dot(n), M = duv.Dot(n), N = dvv.Dot(n);
  const double det = E * G - F * F;
  const double H = det > 0 ? (E * N - 2 * F * M + G * L) / (2 * det) : 0;
  const double K = det > 0 ? (L * N - M * M) / det : 0;
  const double root = std::sqrt(std::max(H * H - K, 0.0));
  return p.X() + n.Z() + (H + root) + (H - root);
}

TopoDS_Face read_face(const std::filesystem::path& step) {
  STEPControl_Reader reader;  // the same file read, for a like-for-like start
  reader.ReadFile(step.c_str());
  reader.TransferRoots();
  return TopoDS::Face(TopExp_Explorer(reader.OneShape(), TopAbs_FACE).Current());
}

// The floor of the write: `bytes` bytes (a record-long pattern, written record by record with
// pwrite) into a temporary file beside `destination`, fsync'ed, renamed onto `destination` (the
// previous file replaced, as a repeated conversion replaces it) and the directory fsync'ed: the
// converter's disk work with nothing sampled, checksummed or verified. Without `sync`, only the
// copies into the page cache.
void write_floor(const std::filesystem::path& destination, std::uint64_t bytes, std::uint64_t record_bytes, bool sync) {
  static std::vector<std::uint8_t> pattern;
  if (pattern.size() != record_bytes) {
    pattern.resize(record_bytes);
    for (std::size_t k = 0; k < pattern.size(); ++k) pattern[k] = static_cast<std::uint8_t>(k * 2654435761u >> 13);
  }
  const std::filesystem::path temporary = destination.string() + ".tmp";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw std::runtime_error("cannot create " + temporary.string());
  for (std::uint64_t at = 0; at < bytes; at += record_bytes) {
    const std::size_t n = static_cast<std::size_t>(std::min(record_bytes, bytes - at));
    if (::pwrite(fd, pattern.data(), n, static_cast<off_t>(at)) != static_cast<ssize_t>(n))
      throw std::runtime_error("cannot write " + temporary.string());
  }
  if (sync && ::fsync(fd) != 0) throw std::runtime_error("cannot flush " + temporary.string());
  ::close(fd);
  std::filesystem::rename(temporary, destination);
  if (!sync) return;
  const int dfd = ::open(destination.parent_path().c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) ::fsync(dfd), ::close(dfd);
}

// The same face with validity asked node by node (SurfaceSource::inside_line's default: for a CAD
// face one BRepClass_FaceClassifier per node, the conversion before trim_scanline), or not asked at
// all (every node valid: what sampling the face costs without trimming).
class Validity final : public SurfaceSource {
 public:
  enum Mode { node_by_node, not_asked };
  Validity(std::unique_ptr<SurfaceSource> s, Mode mode) : s_(std::move(s)), mode_(mode) {}
  ParamBounds bounds() const override { return s_->bounds(); }
  SurfaceD2 d2(double u, double v) const override { return s_->d2(u, v); }
  void d2_block(std::span<const double> u, std::span<const double> v, std::span<SurfaceD2> out) const override {
    s_->d2_block(u, v, out);
  }
  bool inside(double u, double v) const override { return mode_ == not_asked || s_->inside(u, v); }
  SourceInfo info() const override { return s_->info(); }
  LengthUnit unit() const override { return s_->unit(); }
  std::unique_ptr<SurfaceSource> clone() const override { return std::make_unique<Validity>(s_->clone(), mode_); }

 private:
  std::unique_ptr<SurfaceSource> s_;
  Mode mode_;
};

struct CadFace {
  const char* file;
  std::uint32_t face;
  const char* what;
};

// Each face converted at 999 x 999 in 27 x 27 records from the loaded part (best of three; node by
// node once), its time against the first face's, an untrimmed plane of the same grid.
void trimmed_faces(Report& report, const std::filesystem::path& cad, bool before, const std::filesystem::path& out) {
  const CadFace faces[] = {
      {"bug3883_xr2-ct-214_plate.stp", 2, "untrimmed plane (rectangle)"},
      {"bug3883_xr2-ct-214_plate.stp", 1, "plane with 6 round holes, 16 edges"},
      {"trj2_as1-ug-214.stp", 13, "plane with a round corner cut"},
      {"trj1_t4m-pe.stp", 2, "B-spline face, 4 loops, 11 edges"},
      {"trj1_t4m-pe.stp", 5, "cylinder, 6 edges"},
  };
  if (!std::filesystem::exists(cad / faces[0].file)) {
    report.line("# trimmed faces: skipped, no %s in %s", faces[0].file, cad.c_str());
    return;
  }
  report.line("# trimmed faces of the public CAD parts, 999 x 999 points, 27 x 27 records, conversion of the loaded face");
  double reference = 0;
  for (const CadFace& f : faces) {
    const CadModel model = CadModel::load(cad / f.file);
    const auto source = model.face(f.face);
    std::uint64_t invalid = 0;
    const double t = best_seconds([&] { invalid = convert_surface(*source, ConvertOptions{}, out).header.invalid_points; });
    if (reference == 0) reference = t;
    report.line("%-30s %2u %-36s %7.3f s %6.2f Mpoint/s %7llu invalid  x%.2f", f.file, f.face, f.what, t,
                999.0 * 999.0 / t / 1e6, static_cast<unsigned long long>(invalid), t / reference);
    if (&f == &faces[0]) continue;
    const Validity untrimmed(model.face(f.face), Validity::not_asked);
    const double bare = best_seconds([&] { convert_surface(untrimmed, ConvertOptions{}, out); });
    report.line("%-30s %2u %-36s %7.3f s %6.2f Mpoint/s  validity not asked  x%.2f", f.file, f.face, f.what, bare,
                999.0 * 999.0 / bare / 1e6, bare / reference);
    if (!before) continue;
    const Validity per_node(model.face(f.face), Validity::node_by_node);
    const double slow = best_seconds([&] { convert_surface(per_node, ConvertOptions{}, out); }, 1);
    report.line("%-30s %2u %-36s %7.1f s %6.4f Mpoint/s  node by node (before)", f.file, f.face, f.what, slow,
                999.0 * 999.0 / slow / 1e6);
  }
}
}  // namespace

int main(int argc, char** argv) {
  Report report(argc > 1 ? argv[1] : "bench_convert.txt");
  const auto dir = std::filesystem::temp_directory_path() / "surfdb-bench-convert";
  std::filesystem::create_directories(dir);
  write_step(bicubic_patch(), dir / "patch.step");
  constexpr int n = 999;
  const ConvertOptions options;  // 999 x 999 points, 27 x 27 records, f64, every core
  const RecordLayout layout = table_layout(options);

  // OpenCASCADE alone, one thread, grid order: the bare evaluation, then BRepLProp_SLProps.
  const CadModel model = CadModel::load(dir / "patch.step");
  const FaceInfo info = model.face_info(1);
  const auto u_at = [&](int i) { return info.bounds.u0 + (info.bounds.u1 - info.bounds.u0) * i / (n - 1); };
  const auto v_at = [&](int j) { return info.bounds.v0 + (info.bounds.v1 - info.bounds.v0) * j / (n - 1); };
  double sink = 0;
  const Timing bare = best_timing([&] {
    const BRepAdaptor_Surface surface(read_face(dir / "patch.step"));
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) sink += bare_node(surface, u_at(i), v_at(j));
  });
  // The same bare evaluation in the file's order (27 x 27-node records, row by row): what the
  // order alone costs OpenCASCADE's span cache.
  const Timing bare_records = best_timing([&] {
    const BRepAdaptor_Surface surface(read_face(dir / "patch.step"));
    for (int ti = 0; ti < n; ti += 27)
      for (int tj = 0; tj < n; tj += 27)
        for (int i = ti; i < std::min(ti + 27, n); ++i)
          for (int j = tj; j < std::min(tj + 27, n); ++j) sink += bare_node(surface, u_at(i), v_at(j));
  });
  const Timing slprops = best_timing([&] {
    BRepAdaptor_Surface surface(read_face(dir / "patch.step"));
    BRepLProp_SLProps props(surface, 2, 1e-9);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        props.SetParameters(u_at(i), v_at(j));
        if (props.IsNormalDefined()) sink += props.Normal().Z();
        if (props.IsCurvatureDefined()) sink += props.MaxCurvature() + props.MinCurvature();
      }
    }
  });

  // The floor of the write: the file's bytes written, fsync'ed and renamed, nothing else; and the
  // checksums of those bytes alone. Every timed write here and below replaces a file of the same
  // size, as a conversion run again does (ext4 frees the old file's blocks in the rename): an
  // untimed write first, so that the first repeat is not the only one with nothing to replace.
  write_floor(dir / "floor.sdb", layout.file_bytes, layout.record_bytes, false);
  const Timing floor = best_timing([&] { write_floor(dir / "floor.sdb", layout.file_bytes, layout.record_bytes, true); });
  const Timing cached = best_timing([&] { write_floor(dir / "floor.sdb", layout.file_bytes, layout.record_bytes, false); });
  std::filesystem::remove(dir / "floor.sdb");
  std::vector<std::uint8_t> record(layout.record_bytes, 0x5a);
  const Timing hashing = best_timing([&] {
    for (std::uint64_t k = 0; k < layout.data_records; ++k) sink += static_cast<double>(checksum(record) & 1);
  });

  // surfdb: read the STEP file, sample on all cores, write; the conversion itself checks every
  // record's values and reads the file back against the checksums beside the final fsync, so the
  // file it renames into place is verified. Where the time went is that of the fastest run.
  struct Breakdown {
    double load = 0, sampling = 0, writing = 0, read_back = 0, evaluation_cpu = 0, record_cpu = 0, convert_cpu = 0;
  } run, kept;
  convert_surface(*model.face(1), options, dir / "patch.sdb");  // the file each timed run replaces
  const Timing ours = best_timing(
      [&] {
        const auto t0 = Clock::now();
        const CadModel m = CadModel::load(dir / "patch.step");
        run.load = since(t0);
        const double c0 = cpu_now();
        const ConvertReport r = convert_surface(*m.face(1), options, dir / "patch.sdb");
        run.convert_cpu = cpu_now() - c0;
        run.sampling = r.sampling_seconds;
        run.writing = r.writing_seconds;
        run.read_back = r.read_back_seconds;
        run.evaluation_cpu = r.evaluation_cpu_seconds;
        run.record_cpu = r.record_writing_cpu_seconds;
      },
      3, [&] { kept = run; });
  // `surfdb verify` of the file afterwards, for reference: the conversion does not need it.
  const Timing verify = best_timing([&] {
    if (Database::open(dir / "patch.sdb")->first_damaged_record() != 0) throw std::runtime_error("verify failed");
  });
  const auto& [load, sampling, writing, read_back, evaluation_cpu, record_cpu, convert_cpu] = kept;
  // The conversion alone on one thread, for the scaling.
  ConvertOptions one = options;
  one.threads = 1;
  const Timing single = best_timing([&] { convert_surface(*model.face(1), one, dir / "patch.sdb"); });

  const double points = double(n) * n;
  report.line("# bench_convert: 20 x 20-pole bicubic B-spline face from STEP, 999 x 999 points, 27 x 27 records "
              "(%.1f MB), %u threads; wall time best of 3, CPU time of that run",
              layout.file_bytes / 1e6, std::thread::hardware_concurrency());
  const auto row = [&](const char* what, const Timing& t) {
    report.line("%-60s %7.3f s  %6.2f Mpoint/s  cpu %6.3f s", what, t.wall, points / t.wall / 1e6, t.cpu);
  };
  row("OpenCASCADE bare: D2 + normal + curvatures, 1 thread", bare);
  row("  the same in record order (27 x 27)", bare_records);
  row("  BRepLProp_SLProps instead (reference)", slprops);
  row("surfdb convert, STEP to verified .sdb", ours);
  row("  surfdb convert alone, 1 thread", single);
  row("  surfdb verify of that file (reference, not in the ratio)", verify);
  report.line("%-60s %7.3f s  cpu %6.3f s  (page cache only %.3f s, cpu %.3f s; checksums alone %.3f s)",
              "floor of the write: same bytes written + fsync + rename", floor.wall, floor.cpu, cached.wall, cached.cpu,
              hashing.wall);
  report.line("%-60s %7.2f   (target <= 1.5; floor of the write alone x%.2f)", "ratio surfdb / OpenCASCADE bare",
              ours.wall / bare.wall, floor.wall / bare.wall);
  report.line("%-60s %7.2f", "ratio surfdb / BRepLProp_SLProps", ours.wall / slprops.wall);
  report.line("  where the time goes (wall): read STEP %.3f s, sample + check + checksum + write records %.3f s "
              "(the rows flushed and read back behind them), checksum table + header + fsync + rename %.3f s (what "
              "was left to read back, checked beside the fsync %.3f s)", load, sampling, writing, read_back);
  report.line("  CPU: conversion %.3f s (the workers' sampling %.3f s, their checksums + writes of the records %.3f s)",
              convert_cpu, evaluation_cpu, record_cpu);
  trimmed_faces(report, argc > 2 ? argv[2] : "../shared/cad", argc > 3 && std::string(argv[3]) == "--before",
                dir / "face.sdb");
  std::filesystem::remove_all(dir);
  return sink == 0.123 ? 1 : 0;
}
