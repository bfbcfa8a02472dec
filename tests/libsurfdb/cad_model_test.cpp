// Loading CAD and NURBS-text files, and the errors bad input gets.
#include "surfdb/libsurfdb/cad_model.hpp"

#include <BRepAdaptor_Surface.hxx>
#include <doctest/doctest.h>

#include <fstream>

#include "../support/occt_faces.hpp"
#include "../support/temp_dir.hpp"

using namespace surfdb;
using surfdb::test::TempDir;

namespace {

void write_text(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p) << text;
}

// The bicubic patch of make_bspline(false), written out in the NURBS text format.
std::string patch_as_nurbs_text() {
  std::string t = "surfdb-nurbs 1\n# the test patch\nunit mm\ndegree 3 3\npoles 6 5\n"
                  "uknots 0 1 2 3\numults 4 1 1 4\nvknots 0 0.5 1\nvmults 4 1 4\npoints\n";
  char line[128];
  for (int i = 1; i <= 6; ++i) {
    for (int j = 1; j <= 5; ++j) {
      std::snprintf(line, sizeof(line), "%.17g %.17g %.17g\n", 10.0 * i, 8.0 * j + 0.5 * i,
                    4.0 * std::sin(i) * std::cos(0.9 * j));
      t += line;
    }
  }
  return t;
}

}  // namespace

TEST_CASE("a NURBS text file gives the same surface as OpenCASCADE built from the same data") {
  TempDir dir;
  write_text(dir / "patch.nurbs", patch_as_nurbs_text());
  const CadModel model = CadModel::load(dir / "patch.nurbs");
  REQUIRE(model.face_count() == 1);
  const auto face = model.face(1);
  CHECK(face->info().kind == "nurbs");
  const ParamBounds b = face->bounds();
  CHECK(b.u0 == 0);
  CHECK(b.u1 == 3);
  CHECK(b.v1 == 1);
  const Handle(Geom_BSplineSurface) truth = surfdb::test::make_bspline(false);
  for (double u : {0.0, 0.7, 1.5, 3.0}) {
    for (double v : {0.0, 0.33, 1.0}) {
      const gp_Pnt p = truth->Value(u, v);
      CHECK((face->d2(u, v).p - Eigen::Vector3d(p.X(), p.Y(), p.Z())).norm() < 1e-12);
    }
  }
}

TEST_CASE("bad NURBS text names the line and the problem") {
  TempDir dir;
  const auto expect = [&](const std::string& text, const std::string& message) {
    write_text(dir / "bad.nurbs", text);
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(CadModel::load(dir / "bad.nurbs"), doctest::Contains(message.c_str()), CadError);
  };
  expect("surfdb-nurbs 2\n", "version 2");
  expect("hello\n", "expected 'surfdb-nurbs 1'");
  expect("surfdb-nurbs 1\ndegree 3\n", ":2: 'degree' takes 2 values");
  expect("surfdb-nurbs 1\ncolour red\n", ":2: unknown keyword 'colour'");
  expect("surfdb-nurbs 1\ndegree 1 1\npoles 2 2\nuknots 0 1\numults 2 2\nvknots 0 1\nvmults 2 1\npoints\n",
         "add up to 3");
  expect("surfdb-nurbs 1\ndegree 1 1\npoles 2 2\nuknots 0 1\numults 2 2\nvknots 0 1\nvmults 2 2\npoints\n"
         "0 0 0\n1 0 0\n0 1 x\n",
         ":11: 'x' is not a number");
  expect("surfdb-nurbs 1\ndegree 1 1\npoles 2 2\nuknots 0 1\numults 2 2\nvknots 0 1\nvmults 2 2\npoints\n"
         "0 0 0\n1 0 0\n",
         "end of file after 2 of 4 poles");
}

TEST_CASE("missing or empty or directory or garbage or unknown files get a clear CadError") {
  TempDir dir;
  CHECK_THROWS_WITH_AS(CadModel::load(dir / "none.step"), doctest::Contains("no such file"), CadError);
  CHECK_THROWS_WITH_AS(CadModel::load(dir.path()), doctest::Contains("is a directory"), CadError);
  write_text(dir / "empty.step", "");
  CHECK_THROWS_WITH_AS(CadModel::load(dir / "empty.step"), doctest::Contains("empty"), CadError);
  write_text(dir / "garbage.step", std::string(4096, '\x7f'));
  CHECK_THROWS_WITH_AS(CadModel::load(dir / "garbage.step"), doctest::Contains("STEP"), CadError);
  write_text(dir / "garbage.igs", "not an iges file at all\n");
  CHECK_THROWS_AS(CadModel::load(dir / "garbage.igs"), CadError);
  write_text(dir / "garbage.brep", "DBRep_DrawableShape\nnonsense\n");
  CHECK_THROWS_WITH_AS(CadModel::load(dir / "garbage.brep"), doctest::Contains("BREP"), CadError);
  write_text(dir / "part.obj", "v 0 0 0\n");
  CHECK_THROWS_WITH_AS(CadModel::load(dir / "part.obj"), doctest::Contains("unknown file type"), CadError);
}

TEST_CASE("a face number out of range is refused") {
  TempDir dir;
  surfdb::test::write_brep(surfdb::test::natural_face(surfdb::test::make_bspline(false)), dir / "p.brep");
  const CadModel model = CadModel::load(dir / "p.brep");
  CHECK_THROWS_WITH_AS(model.face(2), doctest::Contains("face 2 does not exist (faces are 1..1)"), CadError);
  CHECK_THROWS_AS(model.face(0), CadError);
}

TEST_CASE("a CAD file whose shape has no faces is refused") {
  TempDir dir;
  surfdb::test::write_brep(BRepBuilderAPI_MakeEdge(gp_Pnt(0, 0, 0), gp_Pnt(1, 0, 0)).Edge(), dir / "edge.brep");
  CHECK_THROWS_WITH_AS(CadModel::load(dir / "edge.brep"), doctest::Contains("has no faces"), CadError);
}
