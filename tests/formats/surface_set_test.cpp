// The surface set manifest and its edges file: every field survives encoding, the text is
// canonical, and each kind of malformed manifest or edges file is refused naming the field.
#include "surfdb/formats/surface_set.hpp"

#include <doctest/doctest.h>

#include "surfdb/formats/error.hpp"

using namespace surfdb;

namespace {

SetManifest example() {
  SetManifest m;
  m.source_kind = "step";
  m.source_name = "bracket.stp";
  m.part_faces = 12;
  m.length_unit = LengthUnit::metre;
  m.spacing = 0.25;
  SetFace a;
  a.index = 3;
  a.file = "face_0003.sdb";
  a.surface_type = "Cylinder";
  a.orientation = FaceOrientation::reversed;
  a.bounding_box = {{-1.5, 0.1, 2}, {3.25, 0.7, 9.125}};
  a.adjacent = {2, 7, 12};
  a.u_points = 41;  // u and v differ, so swapped fields show
  a.v_points = 17;
  a.header_checksum = 0x0123456789abcdefULL;
  SetFace b = a;
  b.index = 7;
  b.file = "face_0007.sdb";
  b.orientation = FaceOrientation::forward;
  b.adjacent = {3};
  m.faces = {a, b};
  m.skipped = {{5, "the face has an empty parameter range"}};
  m.edges = SetEdgesEntry{kEdgesName, 2, 0xfedcba9876543210ULL};
  // Principal axes turned 90 degrees about z (x' = y, y' = -x), every number different.
  m.mass_frame = SetMassFrame{.volume = 1200, .centre = {1.5, -2.25, 3}, .axes = {{{0, 1, 0}, {-1, 0, 0}, {0, 0, 1}}},
                              .moments = {13600, 43600, 50000}};
  return m;
}

// A convex edge of faces 3 and 7 (three points) and a free edge of face 7 (two points); every
// vector different, so swapped fields show.
std::vector<SetEdge> example_edges() {
  SetEdge a;
  a.index = 4;
  a.kind = EdgeKind::convex;
  a.points = {{0, 0, 1}, {0.5, 0, 1}, {1, 0.25, 1}};
  a.sides = {{3, {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}}, {{0, 1, 0}, {0, 1, 0}, {0.6, 0.8, 0}}},
             {7, {{0, -1, 0}, {0, -1, 0}, {0.8, -0.6, 0}}, {{0, 0, -1}, {0, 0, -1}, {0, 0, -1}}}};
  SetEdge b;
  b.index = 9;
  b.kind = EdgeKind::free;
  b.points = {{2, 2, 2}, {3, 2, 2}};
  b.sides = {{7, {{1, 0, 0}, {1, 0, 0}}, {{0, 1, 0}, {0, 0, 1}}}};
  return {a, b};
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("a manifest decodes to the manifest that was encoded, field by field") {
  const SetManifest m = example();
  const SetManifest d = decode_manifest(encode_manifest(m), "m");
  CHECK(d.format_version == kSurfaceSetVersion);
  CHECK(d.source_kind == "step");
  CHECK(d.source_name == "bracket.stp");
  CHECK(d.part_faces == 12);
  CHECK(d.length_unit == LengthUnit::metre);
  REQUIRE(d.spacing);
  CHECK(*d.spacing == 0.25);
  REQUIRE(d.faces.size() == 2);
  const SetFace& f = d.faces[0];
  CHECK(f.index == 3);
  CHECK(f.file == "face_0003.sdb");
  CHECK(f.surface_type == "Cylinder");
  CHECK(f.orientation == FaceOrientation::reversed);
  CHECK(d.faces[1].orientation == FaceOrientation::forward);
  CHECK(f.bounding_box.min == std::array<double, 3>{-1.5, 0.1, 2});
  CHECK(f.bounding_box.max == std::array<double, 3>{3.25, 0.7, 9.125});
  CHECK(f.adjacent == std::vector<std::uint32_t>{2, 7, 12});
  CHECK(f.u_points == 41);
  CHECK(f.v_points == 17);
  CHECK(f.header_checksum == 0x0123456789abcdefULL);
  REQUIRE(d.skipped.size() == 1);
  CHECK(d.skipped[0].index == 5);
  CHECK(d.find(7) == &d.faces[1]);
  CHECK(d.find(5) == nullptr);
  REQUIRE(d.edges);
  CHECK(d.edges->file == "edges.json");
  CHECK(d.edges->count == 2);
  CHECK(d.edges->checksum == 0xfedcba9876543210ULL);
  REQUIRE(d.mass_frame);
  CHECK(d.mass_frame->volume == 1200);
  CHECK(d.mass_frame->centre == std::array<double, 3>{1.5, -2.25, 3});
  CHECK(d.mass_frame->axes[0] == std::array<double, 3>{0, 1, 0});  // the first axis, not the first row of a matrix
  CHECK(d.mass_frame->axes[1] == std::array<double, 3>{-1, 0, 0});
  CHECK(d.mass_frame->moments == std::array<double, 3>{13600, 43600, 50000});
}

TEST_CASE("a version 2 manifest, written before the part's mass frame was recorded, is read with none") {
  SetManifest m = example();
  m.format_version = 2;
  const std::string text = encode_manifest(m);
  CHECK(text.find("mass_frame") == std::string::npos);
  const SetManifest d = decode_manifest(text, "m");
  CHECK(d.format_version == 2);
  CHECK(d.edges);
  CHECK(!d.mass_frame);
  SetManifest sheet = example();  // version 3, a part without closed solids: null
  sheet.mass_frame.reset();
  CHECK(encode_manifest(sheet).find("\"mass_frame\": null") != std::string::npos);
  CHECK(!decode_manifest(encode_manifest(sheet), "m").mass_frame);
}

TEST_CASE("a version 1 manifest, written before edges were tabulated, is read with no edges") {
  SetManifest m = example();
  m.format_version = 1;
  m.edges.reset();
  const std::string text = encode_manifest(m);
  CHECK(text.find("edges") == std::string::npos);
  const SetManifest d = decode_manifest(text, "m");
  CHECK(d.format_version == 1);
  CHECK(!d.edges);
}

TEST_CASE("edges decode to the edges that were encoded, in canonical text") {
  const std::vector<SetEdge> e = example_edges();
  const std::string text = encode_edges(e);
  const std::vector<SetEdge> d = decode_edges(text, "edges.json", 12);
  REQUIRE(d.size() == 2);
  CHECK(d[0].index == 4);
  CHECK(d[0].kind == EdgeKind::convex);
  CHECK(d[0].points == e[0].points);
  REQUIRE(d[0].sides.size() == 2);
  CHECK(d[0].sides[1].face == 7);
  CHECK(d[0].sides[0].normal == e[0].sides[0].normal);
  CHECK(d[0].sides[0].inward == e[0].sides[0].inward);
  CHECK(d[0].sides[1].normal == e[0].sides[1].normal);
  CHECK(d[1].kind == EdgeKind::free);
  CHECK(d[1].sides.size() == 1);
  CHECK(encode_edges(d) == text);
  CHECK(text.back() == '\n');
}

TEST_CASE("malformed edges are refused naming the problem") {
  const std::string good = encode_edges(example_edges());
  const auto refused = [](const std::string& text, const std::string& words) {
    try {
      (void)decode_edges(text, "set/edges.json", 12);
      FAIL("accepted: " << words);
    } catch (const FormatError& e) {
      const std::string message = e.what();
      CHECK_MESSAGE(message.find(words) != std::string::npos, message);
      CHECK_MESSAGE(message.find("set/edges.json") != std::string::npos, message);
    }
  };
  refused("{", "not valid JSON");
  refused(replaced(good, "surfdb surface set edges", "edges"), "\"format\"");
  refused(replaced(good, "\"edge\":9", "\"edge\":4"), "ascending order");
  refused(replaced(good, "\"convex\"", "\"sharp\""), "\"kind\"");
  refused(replaced(good, "\"face\":7", "\"face\":13"), "face number of the part");
  refused(replaced(good, "[[2.0,2.0,2.0],[3.0,2.0,2.0]]", "[[2.0,2.0,2.0]]"), "at least two points");
  refused(replaced(good, "\"kind\":\"free\"", "\"kind\":\"concave\""), "free edge has one side");
  refused(replaced(good, "[[0.0,1.0,0.0],[0.0,0.0,1.0]]", "[[0.0,1.0,0.0],[0.0,0.0,2.0]]"), "not of unit length");
  refused(replaced(good, "[[1.0,0.0,0.0],[1.0,0.0,0.0]]", "[[1.0,0.0,0.0]]"), "one vector per point");
}

TEST_CASE("the manifest text is canonical: the same manifest gives the same bytes") {
  const std::string text = encode_manifest(example());
  CHECK(encode_manifest(decode_manifest(text, "m")) == text);
  CHECK(text.find("\"header_xxh64\": \"0123456789abcdef\"") != std::string::npos);
  CHECK(text.back() == '\n');
  SetManifest no_spacing = example();
  no_spacing.spacing.reset();
  CHECK(!decode_manifest(encode_manifest(no_spacing), "m").spacing);
}

TEST_CASE("malformed manifests are refused naming the problem") {
  const std::string good = encode_manifest(example());
  const auto refused = [](const std::string& text, const std::string& words) {
    try {
      (void)decode_manifest(text, "set/manifest.json");
      FAIL("accepted: " << words);
    } catch (const FormatError& e) {
      const std::string message = e.what();
      CHECK_MESSAGE(message.find(words) != std::string::npos, message);
      CHECK_MESSAGE(message.find("set/manifest.json") != std::string::npos, message);
    }
  };
  refused("{", "not valid JSON");
  refused("[]", "not a JSON object");
  refused(replaced(good, "\"format_version\": 3", "\"format_version\": 4"), "version 4 is not supported");
  refused(replaced(good, "\"volume\": 1200.0", "\"volume\": 0.0"), "\"volume\" must be a positive number");
  refused(replaced(good, "\"moments\": [\n      13600.0,\n      43600.0", "\"moments\": [\n      43600.0,\n      13600.0"),
          "\"moments\" must be three positive numbers, ascending");
  refused(replaced(good, "-1.0,\n        0.0,\n        0.0", "1.0,\n        0.0,\n        0.0"), "right-handed");
  refused(replaced(good, "-1.0,\n        0.0,\n        0.0", "-1.0,\n        0.1,\n        0.0"), "orthonormal");
  refused(replaced(good, "\"mass_frame\": {", "\"mass_frame\": 7, \"x\": {"), "\"mass_frame\" must be an object or null");
  refused(replaced(good, "\"file\": \"edges.json\"", "\"file\": \"edges.txt\""), "\"edges.json\"");
  refused(replaced(good, "\"xxh64\": \"fedcba9876543210\"", "\"xxh64\": 7"), "xxh64");
  refused(replaced(good, "\"surfdb surface set\"", "\"something else\""), "\"format\"");
  refused(replaced(good, "\"face\": 7", "\"face\": 13"), "face 13 is not a face of the part");
  refused(replaced(good, "\"face\": 7", "\"face\": 3"), "ascending order");
  refused(replaced(good, "\"face_0007.sdb\"", "\"../face_0007.sdb\""), "plain file name");
  refused(replaced(good, "\"file\": \"face_0003.sdb\",", ""), "missing field \"file\"");
  refused(replaced(good, "\"orientation\": \"forward\"", "\"orientation\": \"sideways\""), "\"orientation\"");
  refused(replaced(good, "\"0123456789abcdef\"", "\"0123\""), "header_xxh64");
  refused(replaced(good, "\"length_unit\": \"m\"", "\"length_unit\": \"inch\""), "length_unit");
}
