// Loading CAD and NURBS-text files, and the errors bad input gets.
#include "surfdb/libsurfdb/cad_model.hpp"

#include <BRepAdaptor_Surface.hxx>
#include <BRepPrimAPI_MakeBox.hxx>
#include <IGESControl_Controller.hxx>
#include <IGESControl_Writer.hxx>
#include <STEPControl_Writer.hxx>
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

namespace {

// A 10 x 20 x 30 box written by OpenCASCADE's own STEP and IGES writers.
std::string box_file_text(const TempDir& dir, const char* name) {
  const TopoDS_Shape box = BRepPrimAPI_MakeBox(10, 20, 30).Shape();
  const std::filesystem::path path = dir / name;
  if (std::string(name).ends_with(".step")) {
    STEPControl_Writer step;
    REQUIRE(step.Transfer(box, STEPControl_AsIs) == IFSelect_RetDone);
    REQUIRE(step.Write(path.c_str()) == IFSelect_RetDone);
  } else {
    IGESControl_Controller::Init();
    IGESControl_Writer iges("MM", 1);  // B-rep mode: faces, shells, a solid
    REQUIRE(iges.AddShape(box));
    iges.ComputeModel();
    REQUIRE(iges.Write(path.c_str()));
  }
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string replace_first(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, from);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("a STEP file with a damaged face loads the rest and says what was lost") {
  TempDir dir;
  const std::string text = box_file_text(dir, "box.step");
  CHECK(CadModel::load(dir / "box.step").warnings().empty());
  write_text(dir / "damaged.step", replace_first(text, "ADVANCED_FACE('',", "ADVANCED_FACE((('',"));
  const CadModel model = CadModel::load(dir / "damaged.step");
  CHECK(model.face_count() == 5);
  REQUIRE(model.warnings().size() == 1);
  CHECK(model.warnings()[0].find("damaged.step is damaged or partly unsupported") != std::string::npos);
  CHECK(model.warnings()[0].find("may lack faces") != std::string::npos);
}

TEST_CASE("IGES units: a name that contradicts the flag is a warning, no unit at all an error") {
  TempDir dir;
  const std::string text = box_file_text(dir, "box.igs");
  CHECK(CadModel::load(dir / "box.igs").warnings().empty());
  // the global section holds "...,<flag>,2HMM,...": flag 2 is mm
  REQUIRE(text.find(",2,2HMM,") != std::string::npos);
  write_text(dir / "inch_named_mm.igs", replace_first(text, ",2,2HMM,", ",1,2HMM,"));
  const CadModel inch = CadModel::load(dir / "inch_named_mm.igs");
  REQUIRE(inch.warnings().size() == 1);
  CHECK(inch.warnings()[0].find("unit flag 1 and the unit name 'MM' disagree") != std::string::npos);
  CHECK(inch.face_info(1).area > 25.4 * 25.4 * 199);  // the flag's inch: a face of at least 10 x 20 in
  write_text(dir / "no_unit.igs", replace_first(text, ",2,2HMM,", ",0,2HXX,"));
  CHECK_THROWS_WITH_AS(CadModel::load(dir / "no_unit.igs"), doctest::Contains("give no length unit"), CadError);
}
