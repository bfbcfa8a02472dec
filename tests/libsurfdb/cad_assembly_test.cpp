// Assemblies written here with OpenCASCADE's XCAF (a nested sub-assembly, a part used twice, the
// same assembly in inch) read back: part names, instance placements, and mass properties against
// closed forms for a box, a cylinder and a hollow cylinder; the CAx-IF as1 assembly written by
// different CAD systems gives the same parts and masses.
#include <BRepBuilderAPI_MakeFace.hxx>
#include <BRepBuilderAPI_MakePolygon.hxx>
#include <BRepPrimAPI_MakeBox.hxx>
#include <BRepPrimAPI_MakeCylinder.hxx>
#include <BRepPrimAPI_MakeRevol.hxx>
#include <Interface_Static.hxx>
#include <Message.hxx>
#include <Message_Messenger.hxx>
#include <STEPCAFControl_Writer.hxx>
#include <TDataStd_Name.hxx>
#include <TDocStd_Document.hxx>
#include <XCAFApp_Application.hxx>
#include <XCAFDoc_DocumentTool.hxx>
#include <XCAFDoc_ShapeTool.hxx>
#include <gp_Ax1.hxx>
#include <gp_Quaternion.hxx>
#include <gp_Trsf.hxx>

#include <Eigen/Geometry>
#include <cmath>
#include <doctest/doctest.h>
#include <map>

#include "../support/temp_dir.hpp"
#include "surfdb/libsurfdb/cad_assembly.hpp"

using namespace surfdb;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDensity = 7850;  // kg/m^3

// mm: the box 20 x 30 x 40 from (5, 6, 7); the pin r 4, h 25 along z from the origin; the tube
// r 6..10, h 12 along z from the origin.
constexpr double kBox[3] = {20, 30, 40}, kBoxCorner[3] = {5, 6, 7};
constexpr double kPinR = 4, kPinH = 25, kTubeR1 = 6, kTubeR2 = 10, kTubeH = 12;

TopoDS_Shape hollow_cylinder() {
  BRepBuilderAPI_MakePolygon section(gp_Pnt(kTubeR1, 0, 0), gp_Pnt(kTubeR2, 0, 0), gp_Pnt(kTubeR2, 0, kTubeH),
                                     gp_Pnt(kTubeR1, 0, kTubeH), true);
  const TopoDS_Face face = BRepBuilderAPI_MakeFace(section.Wire(), true).Face();
  return BRepPrimAPI_MakeRevol(face, gp_Ax1(gp_Pnt(0, 0, 0), gp_Dir(0, 0, 1)), 2 * kPi).Shape();
}

gp_Trsf placement(double angle, const gp_Dir& axis, const gp_Vec& move) {
  gp_Trsf t;
  t.SetRotation(gp_Ax1(gp_Pnt(0, 0, 0), axis), angle);
  gp_Trsf m;
  m.SetTranslation(move);
  return m * t;  // rotate, then move
}

struct Placements {
  gp_Trsf sub = placement(0.3, gp_Dir(0, 0, 1), gp_Vec(100, 0, 0));
  gp_Trsf pin_a = placement(kPi / 2, gp_Dir(1, 0, 0), gp_Vec(0, 10, 0));
  gp_Trsf pin_b = placement(0, gp_Dir(0, 0, 1), gp_Vec(0, -10, 5));
  gp_Trsf tube = placement(-0.7, gp_Dir(0, 1, 0), gp_Vec(0, 0, 50));
};

// Top { Base (the box), Sub { Pin, Pin }, Tube }, written as STEP in `unit` ("MM" or "INCH").
void write_assembly(const std::filesystem::path& path, const char* unit) {
  Message::DefaultMessenger()->ChangePrinters().Clear();  // the writer's statistics on standard output
  Handle(TDocStd_Document) doc;
  XCAFApp_Application::GetApplication()->NewDocument("MDTV-XCAF", doc);
  const Handle(XCAFDoc_ShapeTool) tool = XCAFDoc_DocumentTool::ShapeTool(doc->Main());
  const auto part = [&](const TopoDS_Shape& shape, const char* name) {
    const TDF_Label label = tool->AddShape(shape, false);
    TDataStd_Name::Set(label, name);
    return label;
  };
  const TDF_Label base = part(BRepPrimAPI_MakeBox(gp_Pnt(kBoxCorner[0], kBoxCorner[1], kBoxCorner[2]), kBox[0], kBox[1], kBox[2]).Shape(), "Base Plate");
  const TDF_Label pin = part(BRepPrimAPI_MakeCylinder(kPinR, kPinH).Shape(), "Pin");
  const TDF_Label tube = part(hollow_cylinder(), "Tube");
  const TDF_Label top = tool->NewShape(), sub = tool->NewShape();
  TDataStd_Name::Set(top, "Top");
  TDataStd_Name::Set(sub, "Sub");
  const Placements p;
  tool->AddComponent(sub, pin, TopLoc_Location(p.pin_a));
  tool->AddComponent(sub, pin, TopLoc_Location(p.pin_b));
  tool->AddComponent(top, base, TopLoc_Location());
  tool->AddComponent(top, sub, TopLoc_Location(p.sub));
  tool->AddComponent(top, tube, TopLoc_Location(p.tube));
  tool->UpdateAssemblies();
  Interface_Static::SetCVal("write.step.unit", unit);
  STEPCAFControl_Writer writer;
  REQUIRE(writer.Transfer(doc, STEPControl_AsIs));
  REQUIRE(writer.Write(path.c_str()) == IFSelect_RetDone);
  Interface_Static::SetCVal("write.step.unit", "MM");
  doc->Close();
}

const AssemblyInstance& instance(const CadAssembly& a, const std::string& name) {
  for (const AssemblyInstance& i : a.instances())
    if (i.name == name) return i;
  FAIL("no instance " << name);
  return a.instances().front();
}

void check_relative(double value, double expected, double tolerance = 1e-9) {
  CHECK(std::abs(value - expected) <= tolerance * std::abs(expected));
}

void check_placement(const Placement& p, const gp_Trsf& t, double tolerance) {
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) CHECK(std::abs(p.rotation(r, c) - t.Value(r + 1, c + 1)) < 1e-12);
    CHECK(std::abs(p.translation[r] - t.Value(r + 1, 4)) < tolerance);
  }
}

void check_moments(const MassProperties& m, double a, double b, double c) {  // expected, any order
  std::vector<double> expected{a, b, c};
  std::sort(expected.begin(), expected.end());
  for (int k = 0; k < 3; ++k) check_relative(m.principal_moments[k], expected[static_cast<std::size_t>(k)]);
}

}  // namespace

TEST_CASE("an XCAF assembly: parts named and shared, instances placed through the nested sub-assembly") {
  test::TempDir dir;
  write_assembly(dir / "top.step", "MM");
  const CadAssembly a = CadAssembly::load(dir / "top.step");
  REQUIRE(a.parts().size() == 3);
  std::map<std::string, const AssemblyPart*> parts;
  for (const AssemblyPart& p : a.parts()) parts[p.name] = &p;
  REQUIRE(parts.count("base_plate") == 1);
  REQUIRE(parts.count("pin") == 1);
  REQUIRE(parts.count("tube") == 1);
  CHECK(parts["base_plate"]->product_name == "Base Plate");
  CHECK(parts["base_plate"]->faces == 6);
  CHECK(parts["base_plate"]->solids == 1);
  check_relative(parts["base_plate"]->volume, kBox[0] * kBox[1] * kBox[2]);
  REQUIRE(a.instances().size() == 4);
  const Placements p;
  check_placement(instance(a, "base_plate_1").placement, gp_Trsf(), 1e-12);
  check_placement(instance(a, "pin_1").placement, p.sub * p.pin_a, 1e-9);
  check_placement(instance(a, "pin_2").placement, p.sub * p.pin_b, 1e-9);
  check_placement(instance(a, "tube_1").placement, p.tube, 1e-9);
  CHECK(instance(a, "pin_1").part == instance(a, "pin_2").part);
  CHECK(instance(a, "pin_2").path == "top/sub");
  CHECK_THROWS_WITH_AS(a.part_index("bolt"), doctest::Contains("no part named 'bolt'"), CadError);
}

TEST_CASE("mass properties against closed forms: a box off the origin, a cylinder, a hollow cylinder") {
  test::TempDir dir;
  write_assembly(dir / "top.step", "MM");
  const CadAssembly a = CadAssembly::load(dir / "top.step");
  const double mm = 1e-3;
  SUBCASE("box") {
    const MassProperties m = a.mass_properties(a.part_index("base_plate"), kDensity);
    const double x = kBox[0] * mm, y = kBox[1] * mm, z = kBox[2] * mm, mass = kDensity * x * y * z;
    check_relative(m.volume, x * y * z);
    check_relative(m.mass, mass);
    for (int k = 0; k < 3; ++k) check_relative(m.centre[k], (kBoxCorner[k] + kBox[k] / 2) * mm);
    check_moments(m, mass * (y * y + z * z) / 12, mass * (x * x + z * z) / 12, mass * (x * x + y * y) / 12);
    CHECK(std::abs(m.inertia(0, 1)) < 1e-12 * m.principal_moments[2]);
    // The smallest moment is about the longest side (part z), the largest about the shortest (x).
    CHECK(std::abs(m.principal_axes(2, 0)) == doctest::Approx(1).epsilon(1e-12));
    CHECK(std::abs(m.principal_axes(0, 2)) == doctest::Approx(1).epsilon(1e-12));
    CHECK(m.principal_axes.determinant() == doctest::Approx(1).epsilon(1e-12));
  }
  SUBCASE("cylinder") {
    const MassProperties m = a.mass_properties(a.part_index("pin"), kDensity);
    const double r = kPinR * mm, h = kPinH * mm, mass = kDensity * kPi * r * r * h;
    check_relative(m.mass, mass);
    check_relative(m.centre[2], h / 2);
    CHECK(std::abs(m.centre[0]) < 1e-15);
    check_moments(m, mass * r * r / 2, mass * (3 * r * r + h * h) / 12, mass * (3 * r * r + h * h) / 12);
    // The smallest moment is about the axis (part z); the repeated two take the part's x, then z x x.
    Eigen::Matrix3d expected;
    expected << 0, 1, 0, 0, 0, 1, 1, 0, 0;
    CHECK(m.principal_axes.isApprox(expected, 1e-12));
  }
  SUBCASE("hollow cylinder") {
    const MassProperties m = a.mass_properties(a.part_index("tube"), kDensity);
    const double r1 = kTubeR1 * mm, r2 = kTubeR2 * mm, h = kTubeH * mm;
    const double mass = kDensity * kPi * (r2 * r2 - r1 * r1) * h;
    check_relative(m.mass, mass);
    check_relative(m.centre[2], h / 2);
    check_moments(m, mass * (r1 * r1 + r2 * r2) / 2, mass * (3 * (r1 * r1 + r2 * r2) + h * h) / 12,
                  mass * (3 * (r1 * r1 + r2 * r2) + h * h) / 12);
  }
  SUBCASE("densities that are not positive and finite are refused naming the value") {
    for (const double rho : {0.0, -1.0, std::nan("")})
      CHECK_THROWS_WITH_AS(a.mass_properties(0, rho), doctest::Contains("must be positive and finite"), CadError);
  }
}

TEST_CASE("the same assembly written in inch reads back in millimetres with the same placements and masses") {
  test::TempDir dir;
  write_assembly(dir / "mm.step", "MM");
  write_assembly(dir / "inch.step", "INCH");
  const CadAssembly mm = CadAssembly::load(dir / "mm.step"), inch = CadAssembly::load(dir / "inch.step");
  REQUIRE(inch.parts().size() == mm.parts().size());
  REQUIRE(inch.instances().size() == mm.instances().size());
  for (std::size_t k = 0; k < mm.instances().size(); ++k) {
    CHECK(inch.instances()[k].name == mm.instances()[k].name);
    CHECK((inch.instances()[k].placement.translation - mm.instances()[k].placement.translation).norm() < 1e-9);
  }
  for (std::uint32_t k = 0; k < mm.parts().size(); ++k) {
    const MassProperties a = mm.mass_properties(k, kDensity), b = inch.mass_properties(k, kDensity);
    check_relative(b.mass, a.mass, 1e-9);
    CHECK((b.centre - a.centre).norm() < 1e-12);
    for (int i = 0; i < 3; ++i) check_relative(b.principal_moments[i], a.principal_moments[i], 1e-9);
  }
}

TEST_CASE("a part's model in its body frame: centred at the centre of mass, along the principal axes") {
  test::TempDir dir;
  write_assembly(dir / "top.step", "MM");
  const CadAssembly a = CadAssembly::load(dir / "top.step");
  const std::uint32_t base = a.part_index("base_plate");
  const MassProperties m = a.mass_properties(base, kDensity);
  const CadModel body = a.part_model(base, Placement{m.principal_axes, m.centre * 1e3});
  REQUIRE(body.face_count() == 6);
  Eigen::Vector3d low = Eigen::Vector3d::Constant(1e300), high = -low;
  for (std::uint32_t f = 1; f <= body.face_count(); ++f) {
    const Box3 b = body.bounding_box(f);
    for (int k = 0; k < 3; ++k) low[k] = std::min(low[k], b.min[k]), high[k] = std::max(high[k], b.max[k]);
  }
  const Eigen::Vector3d half(kBox[2] / 2, kBox[1] / 2, kBox[0] / 2);  // the longest side along body x
  CHECK((high - half).norm() < 1e-6);
  CHECK((low + half).norm() < 1e-6);
}

// The as1 parts sorted by mass (plate, l-bracket, rod, bolt, nut): instances and mass properties.
struct As1Part {
  std::size_t instances = 0;
  MassProperties mass;
};
std::vector<As1Part> as1_parts(const std::filesystem::path& file) {
  const CadAssembly a = CadAssembly::load(file);
  std::vector<As1Part> parts;
  for (std::uint32_t k = 0; k < a.parts().size(); ++k) {
    As1Part p{0, a.mass_properties(k, kDensity)};
    for (const AssemblyInstance& i : a.instances()) p.instances += i.part == k ? 1 : 0;
    parts.push_back(p);
  }
  std::sort(parts.begin(), parts.end(), [](const As1Part& x, const As1Part& y) { return x.mass.mass > y.mass.mass; });
  return parts;
}

void check_same(const As1Part& x, const As1Part& y) {
  check_relative(x.mass.mass, y.mass.mass);
  for (int k = 0; k < 3; ++k) check_relative(x.mass.principal_moments[k], y.mass.principal_moments[k]);
}

TEST_CASE("the CAx-IF as1 assembly written by different CAD systems: the same parts, instances and masses") {
  const std::filesystem::path cad(SURFDB_CAD_DIR);
  std::map<std::string, std::vector<As1Part>> by;
  for (const char* file : {"trj2_as1-ac-214.stp", "trj3_as1-tc-214.stp", "trj3_as1-ec-214.stp", "trj2_as1-ug-214.stp",
                           "trj7_as1-id-214.stp"}) {
    if (!std::filesystem::exists(cad / file)) continue;
    by[file] = as1_parts(cad / file);
  }
  if (by.size() < 5) return;  // the shared CAD folder is not on this machine
  for (const auto& [file, parts] : by) {
    INFO(file);
    REQUIRE(parts.size() == 5);
    const std::size_t instances[] = {1, 2, 1, 6, 8};  // plate, l-bracket, rod, bolt, nut
    for (std::size_t k = 0; k < 5; ++k) CHECK(parts[k].instances == instances[k]);
    for (std::size_t k : {0, 1, 2, 4})  // plate, l-bracket, rod, nut: every writer's within 2e-5
      check_relative(parts[k].mass.mass, by["trj2_as1-ug-214.stp"][k].mass.mass, 2e-5);
  }
  for (std::size_t k = 0; k < 5; ++k) check_same(by["trj3_as1-tc-214.stp"][k], by["trj3_as1-ec-214.stp"][k]);
  for (std::size_t k : {0, 1, 2, 4})  // the ac file's bolt is longer (40 mm, not 37)
    check_same(by["trj2_as1-ac-214.stp"][k], by["trj2_as1-ug-214.stp"][k]);
}
