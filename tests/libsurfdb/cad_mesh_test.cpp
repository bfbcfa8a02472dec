// Meshes of CAD parts and STL files: closed, consistent, outward, and measured against closed forms.
#include "surfdb/libsurfdb/cad_mesh.hpp"

#include <BRepAdaptor_Surface.hxx>
#include <BRepBuilderAPI_MakeFace.hxx>
#include <BRepGProp.hxx>
#include <BRepMesh_IncrementalMesh.hxx>
#include <BRepPrimAPI_MakeBox.hxx>
#include <BRepPrimAPI_MakeSphere.hxx>
#include <BRepTools.hxx>
#include <BRep_Builder.hxx>
#include <GProp_GProps.hxx>
#include <STEPControl_Reader.hxx>
#include <StlAPI_Writer.hxx>
#include <TopExp_Explorer.hxx>
#include <TopoDS.hxx>
#include <TopoDS_Shell.hxx>
#include <doctest/doctest.h>
#include <gp_Pln.hxx>

#include <cmath>

#include "../support/temp_dir.hpp"

using namespace surfdb;
using surfdb::test::TempDir;

namespace {

const std::filesystem::path kCadDir = SURFDB_CAD_DIR;

using Point = std::array<double, 3>;

CadModel saved(const TopoDS_Shape& shape, const std::filesystem::path& path) {
  REQUIRE(BRepTools::Write(shape, path.c_str()));
  return CadModel::load(path);
}

MeshResult mesh(const CadModel& model, double deflection, std::uint32_t face = 0) {
  CadMeshOptions o;
  o.linear_deflection = deflection;
  o.angular_deflection = 0.3;
  o.face = face;
  return mesh_cad_model(model, o);
}

Point normal_of(const MeshData& m, const std::array<std::uint32_t, 3>& t) {
  const Point &a = m.vertices[t[0]], &b = m.vertices[t[1]], &c = m.vertices[t[2]];
  const Point u{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  return {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
}

// Triangles whose normal points towards `centre` rather than away from it (convex solids only).
int inward_triangles(const MeshData& m, const Point& centre) {
  int inward = 0;
  for (const auto& t : m.triangles) {
    const Point n = normal_of(m, t);
    Point g{};
    for (const std::uint32_t i : t)
      for (int k = 0; k < 3; ++k) g[k] += m.vertices[i][k] / 3 - centre[k] / 3;
    inward += n[0] * g[0] + n[1] * g[1] + n[2] * g[2] <= 0;
  }
  return inward;
}

// A box's five faces (the top one left out) sewn into an open shell.
TopoDS_Shape open_box() {
  const TopoDS_Shape box = BRepPrimAPI_MakeBox(10, 20, 30).Shape();
  BRep_Builder b;
  TopoDS_Shell shell;
  b.MakeShell(shell);
  int kept = 0;
  for (TopExp_Explorer e(box, TopAbs_FACE); e.More(); e.Next()) {
    const TopoDS_Face& f = TopoDS::Face(e.Current());
    const gp_Pln plane = BRepAdaptor_Surface(f).Plane();
    if (std::abs(plane.Location().Z() - 30) < 1e-9 && std::abs(std::abs(plane.Axis().Direction().Z()) - 1) < 1e-9) continue;
    b.Add(shell, f);
    ++kept;
  }
  REQUIRE(kept == 5);
  return shell;
}

}  // namespace

TEST_CASE("a box meshes closed and consistent, every triangle outward, reversed faces turned over") {
  TempDir dir;
  const CadModel model = saved(BRepPrimAPI_MakeBox(gp_Pnt(1, 2, 3), 10, 20, 30).Shape(), dir / "box.brep");
  int reversed = 0;
  for (std::uint32_t f = 1; f <= model.face_count(); ++f)
    reversed += model.face_info(f).orientation == FaceOrientation::reversed;
  REQUIRE(reversed > 0);  // the box has reversed faces, so turning them over is under test
  const MeshResult r = mesh(model, 0.1);
  const MeshReport& q = r.report;
  CHECK(q.closed());
  CHECK(q.consistent());
  CHECK_FALSE(q.flipped);  // outward from the faces' own orientation, not from the volume's sign
  CHECK(q.vertices == 8);  // the faces' corners merged
  CHECK(q.triangles == 12);
  CHECK(q.volume == doctest::Approx(6000).epsilon(1e-12));
  CHECK(q.area == doctest::Approx(2 * (200 + 300 + 600)).epsilon(1e-12));
  CHECK(inward_triangles(r.mesh, {6, 12, 18}) == 0);
  CHECK(r.faces_without_triangles.empty());
  CHECK(r.mesh.source_kind == "brep");
  CHECK(r.mesh.source_name == "box.brep");
  CHECK(r.mesh.length_unit == LengthUnit::millimetre);
}

TEST_CASE("a sphere meshes closed across its seam and poles, within the deflection of its volume and area") {
  TempDir dir;
  const double R = 10, D = 0.05;
  const CadModel model = saved(BRepPrimAPI_MakeSphere(gp_Pnt(5, -3, 2), R).Shape(), dir / "sphere.brep");
  const MeshResult r = mesh(model, D);
  const MeshReport& q = r.report;
  CHECK(q.closed());
  CHECK(q.consistent());
  CHECK_FALSE(q.flipped);
  CHECK(q.triangles > 500);
  CHECK(inward_triangles(r.mesh, {5, -3, 2}) == 0);
  // Nodes on the sphere, triangles within D of it: the polyhedron lies between the spheres of
  // radius R - D and R.
  const double pi = std::acos(-1.0);
  CHECK(q.volume < 4 * pi * R * R * R / 3);
  CHECK(q.volume > 4 * pi * std::pow(R - D, 3) / 3);
  CHECK(q.area < 4 * pi * R * R);
  CHECK(q.area > 4 * pi * (R - D) * (R - D));
  // A finer deflection comes closer.
  const MeshResult fine = mesh(model, D / 4);
  CHECK(fine.report.closed());
  CHECK(4 * pi * R * R * R / 3 - fine.report.volume < (4 * pi * R * R * R / 3 - q.volume) / 2);
}

TEST_CASE("the same part and options give the same mesh") {
  TempDir dir;
  const CadModel model = saved(BRepPrimAPI_MakeSphere(4).Shape(), dir / "s.brep");
  const MeshResult a = mesh(model, 0.02), b = mesh(model, 0.02);
  CHECK(a.mesh.vertices == b.mesh.vertices);
  CHECK(a.mesh.triangles == b.mesh.triangles);
  CHECK(mesh(model, 0.5).mesh.triangles.size() < a.mesh.triangles.size());  // not the earlier triangulation reused
}

TEST_CASE("a face reversed in its part gives triangles facing the other way") {
  TempDir dir;
  const TopoDS_Face up = BRepBuilderAPI_MakeFace(gp_Pln(gp_Pnt(0, 0, 0), gp_Dir(0, 0, 1)), -1, 1, -2, 2).Face();
  for (const bool reverse : {false, true}) {
    const TopoDS_Shape face = reverse ? up.Reversed() : TopoDS_Shape(up);
    const CadModel model = saved(face, dir / (reverse ? "down.brep" : "up.brep"));
    REQUIRE((model.face_info(1).orientation == FaceOrientation::reversed) == reverse);
    const MeshResult r = mesh(model, 0.1, 1);
    CHECK(r.report.open_edges > 0);  // a face alone is open
    CHECK(r.report.consistent());
    CHECK(r.report.area == doctest::Approx(8).epsilon(1e-12));
    for (const auto& t : r.mesh.triangles) CHECK((normal_of(r.mesh, t)[2] > 0) == !reverse);
  }
}

TEST_CASE("an open shell reports the edges of its hole") {
  TempDir dir;
  const CadModel model = saved(open_box(), dir / "open.brep");
  REQUIRE(model.face_count() == 5);
  const MeshResult r = mesh(model, 0.1);
  CHECK_FALSE(r.report.closed());
  CHECK(r.report.open_edges == 4);  // the top's four sides, one segment each
  CHECK(r.report.consistent());
  CHECK_FALSE(r.report.flipped);  // no volume to judge by: an open mesh is never turned over
  CHECK(r.report.area == doctest::Approx(2 * (300 + 600) + 200).epsilon(1e-12));
}

TEST_CASE("one face of a part, and the errors of bad options") {
  TempDir dir;
  const CadModel model = saved(BRepPrimAPI_MakeBox(10, 20, 30).Shape(), dir / "box.brep");
  const MeshResult one = mesh(model, 0.1, 2);
  CHECK(one.report.triangles == 2);
  CHECK(one.report.open_edges == 4);
  CHECK_THROWS_WITH_AS(mesh(model, 0.1, 7), doctest::Contains("face 7 does not exist (faces are 1..6)"), CadError);
  CHECK_THROWS_WITH_AS(mesh(model, 0), doctest::Contains("box.brep: the linear deflection must be a positive length"),
                       CadError);
  CHECK_THROWS_WITH_AS(mesh(model, -1), doctest::Contains("positive length"), CadError);
  CadMeshOptions o;
  o.linear_deflection = 0.1;
  o.angular_deflection = 0;
  CHECK_THROWS_WITH_AS(mesh_cad_model(model, o), doctest::Contains("angular deflection must be a positive angle"),
                       CadError);
}

TEST_CASE("an STL file written by OpenCASCADE reads back with its repeated vertices merged") {
  TempDir dir;
  const TopoDS_Shape box = BRepPrimAPI_MakeBox(gp_Pnt(-5, 0, 1), 10, 20, 30).Shape();
  BRepMesh_IncrementalMesh(box, 0.1);
  StlAPI_Writer writer;
  for (const bool ascii : {true, false}) {
    writer.ASCIIMode() = ascii;
    const auto path = dir / (ascii ? "box_ascii.stl" : "box_binary.stl");
    REQUIRE(writer.Write(box, path.c_str()));
    const MeshResult r = read_stl_mesh(path);
    CHECK(r.report.vertices == 8);
    CHECK(r.report.triangles == 12);
    CHECK(r.report.closed());
    CHECK(r.report.consistent());
    CHECK_FALSE(r.report.flipped);
    CHECK(r.report.volume == doctest::Approx(6000).epsilon(1e-6));
    CHECK(inward_triangles(r.mesh, {0, 10, 16}) == 0);
    CHECK(r.mesh.source_kind == "stl");
    CHECK(r.mesh.source_name == path.filename().string());
  }
  const TopoDS_Shape ball = BRepPrimAPI_MakeSphere(3).Shape();
  BRepMesh_IncrementalMesh(ball, 0.01);
  REQUIRE(writer.Write(ball, (dir / "ball.stl").c_str()));
  const MeshResult r = read_stl_mesh(dir / "ball.stl");
  CHECK(r.report.closed());
  CHECK(r.report.consistent());
  CHECK_THROWS_WITH_AS(read_stl_mesh(dir / "none.stl"), doctest::Contains("none.stl: no such file"), CadError);
}

TEST_CASE("a triangle soup: duplicates merged, degenerate triangles dropped, an inside-out solid turned over") {
  MeshData m;  // a tetrahedron facing inward, every triangle with its own three vertices
  const Point p[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const int faces[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};  // inward
  for (const auto& f : faces) {
    const auto base = static_cast<std::uint32_t>(m.vertices.size());
    const double dz = base == 0 ? 1e-12 : 0;  // the first triangle's corners off the others' by less than the tolerance
    for (const int i : f) m.vertices.push_back({p[i][0], p[i][1], p[i][2] + dz});
    m.triangles.push_back({base, base + 1, base + 2});
  }
  m.vertices.push_back({0.5, 0.5, 1e-12});  // a sliver: corners 1, (0.5, 0.5), 2 are collinear
  m.triangles.push_back({1, 12, 2});
  m.triangles.push_back({0, 3, 1});  // two corners that merge (vertices 0 and 3 are both p[0])
  CHECK_FALSE(mesh_report(m).closed());
  const MeshReport q = make_mesh(m, 1e-9);
  CHECK(q.vertices == 4);  // the sliver's middle vertex is used by no triangle left
  CHECK(q.triangles == 4);
  CHECK(q.degenerate_removed == 2);
  CHECK(q.closed());
  CHECK(q.consistent());
  CHECK(q.flipped);
  CHECK(q.volume == doctest::Approx(1.0 / 6));
  CHECK(m.vertices[1] == Point{1, 0, 1e-12});  // the first of the merged vertices, in input order
  CHECK(inward_triangles(m, {0.25, 0.25, 0.25}) == 0);

  MeshData bad = m;  // one triangle turned: three of its edges run the same way as a neighbour's
  std::swap(bad.triangles[0][1], bad.triangles[0][2]);
  CHECK(mesh_report(bad).misoriented_edges == 3);
  CHECK_FALSE(mesh_report(bad).consistent());
  bad = m;  // a fin on an edge: three triangles on it
  bad.vertices.push_back({-1, -1, 0});
  bad.triangles.push_back({m.triangles[0][0], m.triangles[0][1], 4});
  CHECK(mesh_report(bad).non_manifold_edges == 1);
  CHECK(mesh_report(bad).open_edges == 2);
}

TEST_CASE("real parts: closed, outward, and the volume OpenCASCADE computes from the exact B-rep") {
  if (!std::filesystem::exists(kCadDir / "README.md")) {
    MESSAGE("skipped: no CAD directory at " << kCadDir);
    return;
  }
  // Parts that are one closed solid each: planes and cylinders, and B-spline faces.
  for (const char* file : {"bug3883_xr2-ct-214_plate.stp", "xr1-tu-plt.stp", "xr1-tc-blt.stp"}) {
    CAPTURE(file);
    STEPControl_Reader reader;
    REQUIRE(reader.ReadFile((kCadDir / file).c_str()) == IFSelect_RetDone);
    reader.TransferRoots();
    GProp_GProps props;
    BRepGProp::VolumeProperties(reader.OneShape(), props);
    const double exact = props.Mass();
    const double D = 0.05;
    const MeshResult r = mesh(CadModel::load(kCadDir / file), D);
    CHECK(r.report.closed());
    CHECK(r.report.consistent());
    CHECK_FALSE(r.report.flipped);
    // Every triangle within D of its face: the volumes differ by at most the area times D.
    CHECK(std::abs(r.report.volume - exact) <= r.report.area * D);
    CHECK(r.report.volume > 0);
  }
}
