// Surface sets from a part with known topology: a 10 x 20 x 30 box (six faces, each sharing an
// edge with four others), plus a face without boundary that cannot be sampled.
#include "surfdb/libsurfdb/surface_set_writer.hpp"

#include <BRepPrimAPI_MakeBox.hxx>
#include <BRepTools.hxx>
#include <BRep_Builder.hxx>
#include <Geom_Plane.hxx>
#include <TopoDS.hxx>
#include <TopoDS_Compound.hxx>
#include <doctest/doctest.h>

#include <fstream>

#include "../support/temp_dir.hpp"
#include "surfdb/formats/error.hpp"
#include "surfdb/libsurfdb/grid_spacing.hpp"
#include "surfdb/libsurfdb/node_geometry.hpp"

using namespace surfdb;
using surfdb::test::TempDir;

namespace {

constexpr double kDx = 10, kDy = 20, kDz = 30;

// The box's faces in TopExp order, then (with `unbounded_face`) a plane face with no boundary,
// whose parameter range is infinite.
std::filesystem::path write_part(const TempDir& dir, bool unbounded_face) {
  BRep_Builder builder;
  TopoDS_Compound part;
  builder.MakeCompound(part);
  builder.Add(part, BRepPrimAPI_MakeBox(kDx, kDy, kDz).Shape());
  if (unbounded_face) {
    TopoDS_Face plane;
    builder.MakeFace(plane, Handle(Geom_Plane)(new Geom_Plane(gp_Pnt(0, 0, 100), gp::DZ())), 1e-7);
    builder.Add(part, plane);
  }
  const std::filesystem::path path = dir / (unbounded_face ? "box_and_plane.brep" : "box.brep");
  REQUIRE(BRepTools::Write(part, path.c_str()));
  return path;
}

SurfaceSetOptions small_grids() {
  SurfaceSetOptions o;
  o.table.grid = {5, 4};
  o.table.record = {3, 3};
  o.table.threads = 1;
  return o;
}

// The face of the box lying in the plane coordinate `axis` = `at`, from its bounding box.
bool flat_in(const Box3& b, int axis, double at) {
  return std::abs(b.min[axis] - at) < 1e-6 && std::abs(b.max[axis] - at) < 1e-6;
}

}  // namespace

TEST_CASE("each face of a box shares an edge with four faces: all but itself and the opposite one") {
  TempDir dir;
  const CadModel model = CadModel::load(write_part(dir, false));
  REQUIRE(model.face_count() == 6);
  for (std::uint32_t f = 1; f <= 6; ++f) {
    const FaceInfo info = model.face_info(f);
    CHECK(info.adjacent.size() == 4);
    CHECK(std::find(info.adjacent.begin(), info.adjacent.end(), f) == info.adjacent.end());
    CHECK(std::is_sorted(info.adjacent.begin(), info.adjacent.end()));
    // the face not adjacent (besides itself) is the parallel one: flat along the same axis
    for (std::uint32_t g = 1; g <= 6; ++g) {
      if (g == f || std::find(info.adjacent.begin(), info.adjacent.end(), g) != info.adjacent.end()) continue;
      const Box3 a = model.bounding_box(f), b = model.bounding_box(g);
      const bool parallel = (flat_in(a, 0, 0) || flat_in(a, 0, kDx)) ? (flat_in(b, 0, 0) || flat_in(b, 0, kDx))
                            : (flat_in(a, 1, 0) || flat_in(a, 1, kDy)) ? (flat_in(b, 1, 0) || flat_in(b, 1, kDy))
                                                                          : (flat_in(b, 2, 0) || flat_in(b, 2, kDz));
      CHECK_MESSAGE(parallel, "faces " << f << " and " << g);
    }
  }
}

TEST_CASE("a face's bounding box is the face's extent in the part") {
  TempDir dir;
  const CadModel model = CadModel::load(write_part(dir, false));
  int top = 0;
  for (std::uint32_t f = 1; f <= 6; ++f) {
    const Box3 b = model.bounding_box(f);
    if (!flat_in(b, 2, kDz)) continue;
    ++top;
    CHECK(b.min[0] == doctest::Approx(0).epsilon(1e-9));
    CHECK(b.max[0] == doctest::Approx(kDx).epsilon(1e-9));
    CHECK(b.max[1] == doctest::Approx(kDy).epsilon(1e-9));
  }
  CHECK(top == 1);
}

TEST_CASE("--spacing gives each face ceil(length / spacing) + 1 nodes along each side, within bounds") {
  TempDir dir;
  const CadModel model = CadModel::load(write_part(dir, false));
  for (std::uint32_t f = 1; f <= 6; ++f) {
    const Box3 b = model.bounding_box(f);
    const GridSize g = grid_for_spacing(*model.face(f), 2.5, 999);
    const IsoLengths l = iso_lengths(*model.face(f));
    // a box face is a rectangle: its iso-lines are its sides, two of the box's dimensions
    std::vector<double> sides;
    for (int axis = 0; axis < 3; ++axis)
      if (b.max[axis] - b.min[axis] > 1) sides.push_back(b.max[axis] - b.min[axis]);
    REQUIRE(sides.size() == 2);
    CHECK(l.along_u * l.along_v == doctest::Approx(sides[0] * sides[1]));
    CHECK(g.u == static_cast<std::uint64_t>(std::round(l.along_u / 2.5)) + 1);
    CHECK(g.v == static_cast<std::uint64_t>(std::round(l.along_v / 2.5)) + 1);
    const GridSize bounded = grid_for_spacing(*model.face(f), 2.5, 6);
    CHECK(bounded.u == std::min<std::uint64_t>(g.u, 6));
    CHECK(grid_for_spacing(*model.face(f), 1000, 999).u == 2);
  }
}

TEST_CASE("a set holds every face's table and a manifest its reader accepts") {
  TempDir dir;
  const CadModel model = CadModel::load(write_part(dir, false));
  SurfaceSetOptions o = small_grids();
  o.spacing = 5;
  const SurfaceSetReport r = write_surface_set(model, plan_surface_set(model, o), o, dir / "box.sdbs");
  CHECK(r.manifest.faces.size() == 6);
  const SetManifest m = read_surface_set(dir / "box.sdbs").manifest;
  REQUIRE(m.faces.size() == 6);
  CHECK(m.source_name == "box.brep");
  CHECK(m.part_faces == 6);
  for (const SetFace& f : m.faces) {
    const FaceInfo info = model.face_info(f.index);
    CHECK(f.adjacent == info.adjacent);
    CHECK(f.orientation == info.orientation);
    CHECK(f.surface_type == "Plane");
    const GridSize g = grid_for_spacing(*model.face(f.index), 5, 999);
    CHECK(f.u_points == g.u);
    CHECK(f.v_points == g.v);
  }
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path())) ++entries;
  CHECK(entries == 2);  // box.brep and box.sdbs: no temporary left beside them
}

TEST_CASE("a face that cannot be sampled fails the set naming it, or is left out with --skip-bad-faces") {
  TempDir dir;
  const CadModel model = CadModel::load(write_part(dir, true));
  REQUIRE(model.face_count() == 7);
  SurfaceSetOptions o = small_grids();
  CHECK_THROWS_WITH_AS(write_surface_set(model, plan_surface_set(model, o), o, dir / "a.sdbs"),
                       doctest::Contains("face 7"), DegenerateGeometry);
  CHECK(!std::filesystem::exists(dir / "a.sdbs"));
  o.skip_bad_faces = true;
  const SurfaceSetReport r = write_surface_set(model, plan_surface_set(model, o), o, dir / "a.sdbs");
  CHECK(r.manifest.faces.size() == 6);
  REQUIRE(read_surface_set(dir / "a.sdbs").manifest.skipped.size() == 1);
  CHECK(read_surface_set(dir / "a.sdbs").manifest.skipped[0].index == 7);
  o.faces = {7};  // nothing left to write: refused, nothing written
  CHECK_THROWS_WITH_AS(write_surface_set(model, plan_surface_set(model, o), o, dir / "b.sdbs"),
                       doctest::Contains("no face"), FormatError);
  CHECK(!std::filesystem::exists(dir / "b.sdbs"));
}

TEST_CASE("a set is refused when a table is missing, replaced, from another face, or joined by a stray file") {
  TempDir dir;
  const CadModel model = CadModel::load(write_part(dir, false));
  SurfaceSetOptions o = small_grids();
  const auto fresh = [&](const std::string& name) {
    o.replace_existing = true;
    write_surface_set(model, plan_surface_set(model, o), o, dir / name);
    return dir / name;
  };
  const auto refused = [](const std::filesystem::path& set, const std::string& words) {
    try {
      (void)read_surface_set(set);
      FAIL("accepted: " << words);
    } catch (const FormatError& e) {
      CHECK_MESSAGE(std::string(e.what()).find(words) != std::string::npos, e.what());
    }
  };
  std::filesystem::remove(fresh("s.sdbs") / "face_0002.sdb");
  refused(dir / "s.sdbs", "face 2 (face_0002.sdb): the table is missing");
  // the same face converted at another grid: a valid table, but not the one the manifest lists
  o.table.grid = {6, 4};
  const auto other = fresh("other.sdbs");
  o.table.grid = {5, 4};
  std::filesystem::copy_file(other / "face_0003.sdb", fresh("s.sdbs") / "face_0003.sdb",
                             std::filesystem::copy_options::overwrite_existing);
  refused(dir / "s.sdbs", "face 3 (face_0003.sdb): its header does not match");
  std::ofstream(fresh("s.sdbs") / "face_0009.sdb") << "stray";
  refused(dir / "s.sdbs", "face_0009.sdb is not listed");
  std::filesystem::remove(fresh("s.sdbs") / "manifest.json");
  refused(dir / "s.sdbs", "no manifest.json");
}

TEST_CASE("an existing directory is replaced only when asked and only when it holds a set") {
  TempDir dir;
  const CadModel model = CadModel::load(write_part(dir, false));
  SurfaceSetOptions o = small_grids();
  o.faces = {1, 2};
  write_surface_set(model, plan_surface_set(model, o), o, dir / "s.sdbs");
  o.faces = {3};
  CHECK_THROWS_WITH_AS(write_surface_set(model, plan_surface_set(model, o), o, dir / "s.sdbs"),
                       doctest::Contains("not empty"), FormatError);
  CHECK(read_surface_set(dir / "s.sdbs").manifest.faces.size() == 2);
  o.replace_existing = true;
  write_surface_set(model, plan_surface_set(model, o), o, dir / "s.sdbs");
  const SetManifest m = read_surface_set(dir / "s.sdbs").manifest;  // the old faces' tables are gone with it
  REQUIRE(m.faces.size() == 1);
  CHECK(m.faces[0].index == 3);
  std::filesystem::create_directory(dir / "home");
  std::ofstream(dir / "home" / "notes.txt") << "mine";
  CHECK_THROWS_WITH_AS(write_surface_set(model, plan_surface_set(model, o), o, dir / "home"),
                       doctest::Contains("notes.txt, which is not part of a surface set"), FormatError);
  CHECK(std::filesystem::exists(dir / "home" / "notes.txt"));
}
