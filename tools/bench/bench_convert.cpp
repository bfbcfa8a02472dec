// Conversion of a 999 x 999 grid of a bicubic B-spline face, from the STEP file to a verified
// .sdb on disk, against OpenCASCADE's own single-threaded evaluation, in grid order, of what the
// file needs (second derivatives, normal, principal curvatures) at the same points.
// Usage: bench_convert [RESULTS_FILE]   (default bench_convert.txt)
#include <BRepAdaptor_Surface.hxx>
#include <BRepLProp_SLProps.hxx>
#include <BRepTools.hxx>
#include <TopExp_Explorer.hxx>
#include <TopoDS.hxx>

#include <chrono>
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
  std::filesystem::remove_all(dir);
  return sink == 0.123 ? 1 : 0;
}
