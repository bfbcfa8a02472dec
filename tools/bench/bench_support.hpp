// What the benchmarks share: the 20 x 20-pole bicubic B-spline patch of the benchmarks (written as a
// STEP file), a best-of-three timer, and a report that prints and saves its lines.
#pragma once

#include <BRepBuilderAPI_MakeFace.hxx>
#include <Geom_BSplineSurface.hxx>
#include <Message.hxx>
#include <Message_Messenger.hxx>
#include <Precision.hxx>
#include <STEPControl_Reader.hxx>
#include <STEPControl_Writer.hxx>
#include <TColStd_Array1OfInteger.hxx>
#include <TColStd_Array1OfReal.hxx>
#include <TColgp_Array2OfPnt.hxx>
#include <TopoDS_Face.hxx>

#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace surfdb::bench {

/// 20 x 20 poles, degree 3 x 3, uniform knots on [0, 1]^2, a wavy 100 x 100 mm sheet.
inline Handle(Geom_BSplineSurface) bicubic_patch() {
  constexpr int n = 20;
  TColgp_Array2OfPnt poles(1, n, 1, n);
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j)
      poles(i, j) = gp_Pnt(100.0 * (i - 1) / (n - 1), 100.0 * (j - 1) / (n - 1),
                           6.0 * std::sin(0.7 * i) * std::cos(0.5 * j) + 0.05 * i * j);
  const int spans = n - 3;
  TColStd_Array1OfReal knots(1, spans + 1);
  TColStd_Array1OfInteger mults(1, spans + 1);
  for (int k = 1; k <= spans + 1; ++k) {
    knots(k) = static_cast<double>(k - 1) / spans;
    mults(k) = (k == 1 || k == spans + 1) ? 4 : 1;
  }
  return new Geom_BSplineSurface(poles, knots, knots, mults, mults, 3, 3);
}

inline void write_step(const Handle(Geom_Surface)& surface, const std::filesystem::path& path) {
  Message::DefaultMessenger()->ChangePrinters().Clear();  // keep the report clean
  STEPControl_Writer writer;
  const TopoDS_Face face = BRepBuilderAPI_MakeFace(surface, Precision::Confusion()).Face();
  if (writer.Transfer(face, STEPControl_AsIs) != IFSelect_RetDone ||
      writer.Write(path.c_str()) != IFSelect_RetDone)
    throw std::runtime_error("cannot write " + path.string());
}

/// Wall seconds of the fastest of `repeats` runs of f.
template <class F>
double best_seconds(F&& f, int repeats = 3) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

/// One timed run: seconds of processor time (user and system: page faults and releases count) and
/// the minor page faults it took.
struct CpuRun {
  double seconds = 1e300;
  long faults = 0;
};

/// The fastest of `repeats` runs of f by processor time, which other jobs on a shared machine
/// inflate far less than wall time.
template <class F>
CpuRun best_cpu_run(F&& f, int repeats = 3) {
  const auto now = [] {
    rusage u;
    ::getrusage(RUSAGE_SELF, &u);
    const auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
    return std::pair<double, long>(s(u.ru_utime) + s(u.ru_stime), u.ru_minflt);
  };
  CpuRun best;
  for (int r = 0; r < repeats; ++r) {
    const auto [t0, f0] = now();
    f();
    const auto [t1, f1] = now();
    if (t1 - t0 < best.seconds) best = {t1 - t0, f1 - f0};
  }
  return best;
}

/// Lines printed on standard output and appended to a results file.
class Report {
 public:
  explicit Report(const std::filesystem::path& file) : out_(file) {
    if (!out_) throw std::runtime_error("cannot write " + file.string());
  }
  template <class... A>
  void line(const char* format, A... args) {
    char buffer[512];
    std::snprintf(buffer, sizeof(buffer), format, args...);
    std::puts(buffer);
    out_ << buffer << '\n';
    out_.flush();
  }

 private:
  std::ofstream out_;
};

}  // namespace surfdb::bench
