// Validity of grid nodes on trimmed faces: SurfaceSource::inside_line (the scanline over the
// trimming curves, trim_scanline.hpp) against BRepClass_FaceClassifier asked node by node, on the
// faces of real parts (holes, several loops, seams, poles), and against a closed form.
#include <BRepBuilderAPI_MakeEdge.hxx>
#include <BRepBuilderAPI_MakeFace.hxx>
#include <BRepBuilderAPI_MakeWire.hxx>
#include <BRepClass_FaceClassifier.hxx>
#include <BRepTools.hxx>
#include <BRep_Tool.hxx>
#include <TopExp.hxx>
#include <TopTools_IndexedMapOfShape.hxx>
#include <TopoDS.hxx>
#include <TopoDS_Wire.hxx>
#include <doctest/doctest.h>
#include <gp_Circ.hxx>
#include <gp_Pln.hxx>

#include <chrono>
#include <cmath>
#include <cstdio>

#include "../support/cad_parts.hpp"
#include "../support/occt_faces.hpp"
#include "../support/temp_dir.hpp"
#include "surfdb/libsurfdb/cad_model.hpp"

using namespace surfdb;
using namespace surfdb::test;

namespace {

std::vector<double> grid(double lo, double hi, int n) {
  std::vector<double> x(n);
  for (int k = 0; k < n; ++k) x[k] = k + 1 == n ? hi : lo + (hi - lo) * k / (n - 1);  // as Header::u_at
  return x;
}

struct Tally {
  std::uint64_t nodes = 0, valid = 0, mismatches = 0;
};

// Every node of an nu x nv grid over the face's parameter rectangle: the source's inside_line
// against BRepClass_FaceClassifier at the face's tolerance (what OcctFaceSource::inside asks).
Tally compare_face(const SurfaceSource& source, const TopoDS_Face& face, int nu, int nv) {
  const ParamBounds b = source.bounds();
  double u0, u1, v0, v1;
  BRepTools::UVBounds(face, u0, u1, v0, v1);
  REQUIRE(u0 == b.u0);  // the same face
  REQUIRE(v1 == b.v1);
  const std::vector<double> us = grid(b.u0, b.u1, nu), vs = grid(b.v0, b.v1, nv);
  std::vector<std::uint8_t> line(vs.size());
  const double tolerance = BRep_Tool::Tolerance(face);
  Tally t;
  for (double u : us) {
    source.inside_line(u, vs, line);
    for (std::size_t k = 0; k < vs.size(); ++k) {
      const TopAbs_State state = BRepClass_FaceClassifier(face, gp_Pnt2d(u, vs[k]), tolerance).State();
      const bool truth = state == TopAbs_IN || state == TopAbs_ON;
      ++t.nodes;
      t.valid += truth;
      if ((line[k] != 0) != truth) {
        if (++t.mismatches <= 3) std::printf("  mismatch at (u, v) = (%.17g, %.17g): classifier %d\n", u, vs[k], truth);
      }
    }
  }
  return t;
}

struct Part {
  const char* file;
  int first_face, last_face;
  const char* what;
};

}  // namespace

TEST_CASE("trimmed faces of real parts: every node's validity is BRepClass_FaceClassifier's") {
  if (!have_cad_parts()) {
    MESSAGE("skipped: no CAD directory at " << kCadDir);
    return;
  }
  const Part parts[] = {
      {"bug3883_xr2-ct-214_plate.stp", 1, 18, "plates with 12 holes, half cylinders"},
      {"trj1_t4m-pe.stp", 1, 11, "torus, sphere with a pole, cone, cylinders, B-splines"},
      {"trj2_as1-ug-214.stp", 1, 30, "planes with holes and slots, full cylinders with seams"},
      {"xr1-tu-plt.stp", 1, 8, "plates with holes, B-spline hole walls"},
      {"OCC8842_cone_CATIA.igs", 1, 3, "surfaces of revolution, a disk"},
      {"BIGES.igs", 11, 15, "B-spline faces, a surface of revolution"},
      {"trj12_is1-oc-214.stp", 1, 30, "planes of a moulded part"},
  };
  const auto t0 = std::chrono::steady_clock::now();
  Tally all;
  int faces = 0;
  for (const Part& part : parts) {
    const CadModel model = CadModel::load(kCadDir / part.file);
    const TopTools_IndexedMapOfShape occt = read_faces(kCadDir / part.file);
    REQUIRE(occt.Extent() == static_cast<int>(model.face_count()));
    for (int f = part.first_face; f <= std::min(part.last_face, occt.Extent()); ++f) {
      CAPTURE(part.file);
      CAPTURE(f);
      const Tally t = compare_face(*model.face(f), TopoDS::Face(occt(f)), 41, 37);
      CHECK(t.mismatches == 0);
      all.nodes += t.nodes;
      all.valid += t.valid;
      all.mismatches += t.mismatches;
      ++faces;
    }
  }
  MESSAGE(faces << " faces, " << all.nodes << " nodes (" << all.valid << " valid), " << all.mismatches
                << " mismatches, " << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()
                << " s");
  CHECK(all.valid > all.nodes / 4);
  CHECK(all.valid < all.nodes);
}

TEST_CASE("a plate with a round hole: nodes in the hole are invalid, the rest valid") {
  // 100 x 60 mm rectangle, hole of radius 17 centred at (40, 30); the plane's (u, v) is (x, y).
  const gp_Pln plane;
  const gp_Pnt corners[] = {{0, 0, 0}, {100, 0, 0}, {100, 60, 0}, {0, 60, 0}};
  BRepBuilderAPI_MakeWire outer;
  for (int k = 0; k < 4; ++k) outer.Add(BRepBuilderAPI_MakeEdge(corners[k], corners[(k + 1) % 4]).Edge());
  const gp_Pnt2d centre(40, 30);
  const double radius = 17;
  const gp_Circ circle(gp_Ax2(gp_Pnt(40, 30, 0), gp::DZ()), radius);
  TopoDS_Wire hole = BRepBuilderAPI_MakeWire(BRepBuilderAPI_MakeEdge(circle).Edge()).Wire();
  hole.Reverse();
  BRepBuilderAPI_MakeFace make(plane, outer.Wire());
  make.Add(hole);
  TempDir dir;
  write_brep(make.Face(), dir / "plate.brep");
  const auto source = CadModel::load(dir / "plate.brep").face(1);

  const ParamBounds b = source->bounds();
  const std::vector<double> us = grid(b.u0, b.u1, 201), vs = grid(b.v0, b.v1, 121);
  std::vector<std::uint8_t> line(vs.size());
  int in_hole = 0, on_plate = 0;
  for (double u : us) {
    source->inside_line(u, vs, line);
    for (std::size_t k = 0; k < vs.size(); ++k) {
      const double d = centre.Distance(gp_Pnt2d(u, vs[k]));
      if (std::abs(d - radius) < 1e-6) continue;  // on the circle: either answer
      CAPTURE(u);
      CAPTURE(vs[k]);
      CHECK((line[k] != 0) == (d > radius));
      (d > radius ? on_plate : in_hole)++;
    }
  }
  CHECK(in_hole > 2500);  // pi 17^2 / (0.5 x 0.5) = 3632 nodes
  CHECK(on_plate > 20000);
}
