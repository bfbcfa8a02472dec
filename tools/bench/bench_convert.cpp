// Conversion of a 999 x 999 grid of a bicubic B-spline face, from the STEP file to a verified
// .sdb on disk, against OpenCASCADE's own single-threaded evaluation, in grid order, of what the
// file needs (second derivatives, normal, principal curvatures) at the same points.
// Then trimmed and untrimmed faces of the public CAD parts (docs/benchmarks.md), when CAD_DIR holds
// them, at the same grid: validity from the trimming curves' crossings, and with --before node by
// node from BRepClass_FaceClassifier as every conversion did before (minutes per face).
// Usage: bench_convert [RESULTS_FILE [CAD_DIR [--before]]]   (default bench_convert.txt ../shared/cad)
#include <BRepAdaptor_Surface.hxx>
#include <BRepLProp_SLProps.hxx>
#include <BRepTools.hxx>
#include <TopExp_Explorer.hxx>
#include <TopoDS.hxx>

#include <chrono>
#include <string>
#include <thread>

#include "bench_support.hpp"
#include "surfdb/libsurfdb/cad_model.hpp"
#include "surfdb/libsurfdb/converter.hpp"
#include "surfdb/table/database.hpp"

using namespace surfdb;
using namespace surfdb::bench;
using Clock = std::chrono::steady_clock;

namespace {
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The same face with validity asked node by node (SurfaceSource::inside_line's default: for a CAD
// face one BRepClass_FaceClassifier per node, the conversion before trim_scanline), or not asked at
// all (every node valid: what sampling the face costs without trimming).
class Validity final : public SurfaceSource {
 public:
  enum Mode { node_by_node, not_asked };
  Validity(std::unique_ptr<SurfaceSource> s, Mode mode) : s_(std::move(s)), mode_(mode) {}
  ParamBounds bounds() const override { return s_->bounds(); }
  SurfaceD2 d2(double u, double v) const override { return s_->d2(u, v); }
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

  // OpenCASCADE alone: D2, normal and curvatures at the grid nodes, one thread, grid order.
  const CadModel model = CadModel::load(dir / "patch.step");
  const FaceInfo info = model.face_info(1);
  double sink = 0;
  const double occt = best_seconds([&] {
    STEPControl_Reader reader;  // the same file read, for a like-for-like start
    reader.ReadFile((dir / "patch.step").c_str());
    reader.TransferRoots();
    const TopoDS_Face face = TopoDS::Face(TopExp_Explorer(reader.OneShape(), TopAbs_FACE).Current());
    BRepAdaptor_Surface surface(face);
    BRepLProp_SLProps props(surface, 2, 1e-9);
    for (int i = 0; i < n; ++i) {
      const double u = info.bounds.u0 + (info.bounds.u1 - info.bounds.u0) * i / (n - 1);
      for (int j = 0; j < n; ++j) {
        props.SetParameters(u, info.bounds.v0 + (info.bounds.v1 - info.bounds.v0) * j / (n - 1));
        if (props.IsNormalDefined()) sink += props.Normal().Z();
        if (props.IsCurvatureDefined()) sink += props.MaxCurvature() + props.MinCurvature();
      }
    }
  });

  // surfdb: read the STEP file, sample on all cores, write, then verify every checksum.
  double load = 0, sampling = 0, writing = 0, verify = 0;
  const double ours = best_seconds([&] {
    const auto t0 = Clock::now();
    const CadModel m = CadModel::load(dir / "patch.step");
    load = since(t0);
    const ConvertReport r = convert_surface(*m.face(1), ConvertOptions{}, dir / "patch.sdb");
    sampling = r.sampling_seconds;
    writing = r.writing_seconds;
    const auto t1 = Clock::now();
    if (Database::open(dir / "patch.sdb")->first_damaged_record() != 0) throw std::runtime_error("verify failed");
    verify = since(t1);
  });
  const double points = double(n) * n;
  report.line("# bench_convert: 20 x 20-pole bicubic B-spline face from STEP, 999 x 999 points, 27 x 27 records, %u threads",
              std::thread::hardware_concurrency());
  report.line("%-52s %8.3f s  %6.2f Mpoint/s", "OpenCASCADE D2 + normal + curvatures, 1 thread", occt, points / occt / 1e6);
  report.line("%-52s %8.3f s  %6.2f Mpoint/s", "surfdb convert, STEP to verified .sdb", ours, points / ours / 1e6);
  report.line("%-52s %8.2f   (target <= 1.5)", "ratio surfdb / OpenCASCADE", ours / occt);
  report.line("  where the time goes: read STEP %.3f s, sample %.3f s, checksum+write+fsync %.3f s, verify %.3f s",
              load, sampling, writing, verify);
  trimmed_faces(report, argc > 2 ? argv[2] : "../shared/cad", argc > 3 && std::string(argv[3]) == "--before",
                dir / "face.sdb");
  std::filesystem::remove_all(dir);
  return sink == 0.123 ? 1 : 0;
}
