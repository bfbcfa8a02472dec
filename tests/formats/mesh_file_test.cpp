#include "surfdb/formats/mesh_file.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "../support/file_bytes.hpp"
#include "../support/temp_dir.hpp"
#include "surfdb/formats/checksum.hpp"
#include "surfdb/formats/error.hpp"

using namespace surfdb;
using surfdb::test::TempDir;

namespace {

// A square pyramid with outward triangles, in metres: 5 vertices and 6 triangles (counts that
// differ, so that swapped fields show), with distinguishable coordinates.
MeshData pyramid() {
  MeshData m;
  m.length_unit = LengthUnit::metre;
  m.vertices = {{0.5, -1.25, 0.0}, {3.0, 0.0, 0.0}, {3.0, 7.0, 0.0}, {0.0, 7.0, 0.0}, {1.5, 3.5, 11.0}};
  m.triangles = {{0, 2, 1}, {0, 3, 2}, {0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 4}};
  m.source_kind = "step";
  m.source_name = "part.step";
  return m;
}

template <class T>
T at(const std::vector<std::uint8_t>& b, std::size_t offset) {
  T value;
  std::memcpy(&value, b.data() + offset, sizeof(T));
  return value;
}

template <class T>
void set(std::vector<std::uint8_t>& b, std::size_t offset, T value) {
  std::memcpy(b.data() + offset, &value, sizeof(T));
}

// The hashes recomputed from docs/format.md's offsets, so that a test can change a value and
// reach the check behind the checksums.
void rehash(std::vector<std::uint8_t>& b) {
  const auto nv = at<std::uint64_t>(b, 32), nt = at<std::uint64_t>(b, 40);
  set<std::uint64_t>(b, 72, checksum(std::span(b.data() + 512, 24 * nv)));
  set<std::uint64_t>(b, 80, checksum(std::span(b.data() + 512 + 24 * nv, 12 * nt)));
  set<std::uint64_t>(b, 504, 0);
  set<std::uint64_t>(b, 504, checksum(std::span(b.data(), 512)));
}

// The message of read_mesh_file on these bytes, written to a file in `dir`.
std::string refusal(const TempDir& dir, const std::vector<std::uint8_t>& bytes) {
  const auto path = dir / "damaged.mesh";
  test::write_bytes(path, bytes);
  try {
    read_mesh_file(path);
  } catch (const FormatError& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE("a mesh file reads back exactly what was written, at the offsets the format gives") {
  TempDir dir;
  const MeshData m = pyramid();
  write_mesh_file(dir / "t.mesh", m);
  const auto b = test::read_bytes(dir / "t.mesh");
  REQUIRE(b.size() == 512 + 5 * 24 + 6 * 12);
  CHECK(std::memcmp(b.data(), "SURFMESH", 8) == 0);
  CHECK(at<std::uint32_t>(b, 8) == 1);
  CHECK(b[12] == 0x04);  // byte-order mark 0x01020304, little-endian
  CHECK(at<std::uint32_t>(b, 16) == 512);
  CHECK(at<std::uint32_t>(b, 20) == 2);  // metre
  CHECK(at<double>(b, 24) == 1.0);
  CHECK(at<std::uint64_t>(b, 32) == 5);  // vertices
  CHECK(at<std::uint64_t>(b, 40) == 6);  // triangles
  CHECK(at<std::uint64_t>(b, 48) == 512);
  CHECK(at<std::uint64_t>(b, 56) == 632);
  CHECK(at<std::uint64_t>(b, 64) == b.size());
  CHECK(at<std::uint64_t>(b, 72) == checksum(std::span(b.data() + 512, 120)));
  CHECK(at<std::uint64_t>(b, 80) == checksum(std::span(b.data() + 632, 72)));
  CHECK(std::string(reinterpret_cast<const char*>(b.data() + 88)) == "step");
  CHECK(std::string(reinterpret_cast<const char*>(b.data() + 120)) == "part.step");
  CHECK(at<double>(b, 512) == 0.5);       // vertex 0: x
  CHECK(at<double>(b, 512 + 8) == -1.25);  // vertex 0: y
  CHECK(at<double>(b, 512 + 24 * 4 + 16) == 11.0);  // vertex 4: z
  CHECK(at<double>(b, 512 + 24 * 2 + 8) == 7.0);    // vertex 2: y
  CHECK(at<std::uint32_t>(b, 632) == 0);  // triangle 0: a, b, c
  CHECK(at<std::uint32_t>(b, 636) == 2);
  CHECK(at<std::uint32_t>(b, 640) == 1);
  CHECK(at<std::uint32_t>(b, 632 + 12 * 5 + 4) == 0);  // triangle 5: b
  for (std::size_t k = 376; k < 504; ++k) CHECK(b[k] == 0);

  const MeshData r = read_mesh_file(dir / "t.mesh");
  CHECK(r.length_unit == LengthUnit::metre);
  CHECK(r.vertices == m.vertices);
  CHECK(r.triangles == m.triangles);
  CHECK(r.source_kind == "step");
  CHECK(r.source_name == "part.step");
  CHECK(is_mesh_file(dir / "t.mesh"));
}

TEST_CASE("equal meshes give byte-identical files, and a rewrite of what was read is identical") {
  TempDir dir;
  write_mesh_file(dir / "a.mesh", pyramid());
  write_mesh_file(dir / "b.mesh", pyramid());
  write_mesh_file(dir / "c.mesh", read_mesh_file(dir / "a.mesh"));
  const auto a = test::read_bytes(dir / "a.mesh");
  CHECK(a == test::read_bytes(dir / "b.mesh"));
  CHECK(a == test::read_bytes(dir / "c.mesh"));
  write_mesh_file(dir / "a.mesh", pyramid());  // replacing an existing file
  CHECK(a == test::read_bytes(dir / "a.mesh"));
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path()), {}) == 3);  // no temporaries left
}

TEST_CASE("long source strings are cut and stay terminated") {
  MeshData m = pyramid();
  m.source_kind = std::string(40, 'k');
  m.source_name = std::string(300, 'n');
  const MeshData r = decode_mesh(encode_mesh(m));
  CHECK(r.source_kind == std::string(31, 'k'));
  CHECK(r.source_name == std::string(255, 'n'));
}

TEST_CASE("each kind of damage is refused with a message naming the file and the problem") {
  TempDir dir;
  const auto good = encode_mesh(pyramid());
  const auto damaged = [&](auto change) {
    auto b = good;
    change(b);
    return refusal(dir, b);
  };
  CHECK(damaged([](auto&) {}) == "(accepted)");
  const std::string name = (dir / "damaged.mesh").string();
  CHECK(damaged([](auto& b) { b[0] = 'X'; }) == name + ": not a mesh file (wrong magic bytes)");
  CHECK(damaged([](auto& b) { b.resize(100); }).find("not a mesh file: 100 bytes") != std::string::npos);
  CHECK(damaged([](auto& b) { b[33] ^= 1; }).find("header is damaged") != std::string::npos);
  CHECK(damaged([](auto& b) { b[130] ^= 1; }).find("header is damaged") != std::string::npos);
  CHECK(damaged([](auto& b) { b[512 + 3] ^= 0x10; }) == name + ": vertex block damaged (its checksum does not match the header)");
  CHECK(damaged([](auto& b) { b[632 + 4] ^= 0x01; }) == name + ": triangle block damaged (its checksum does not match the header)");
  CHECK(damaged([](auto& b) { b.pop_back(); }).find("(truncated)") != std::string::npos);
  CHECK(damaged([](auto& b) { b.push_back(0); }).find("(trailing data)") != std::string::npos);
  CHECK(damaged([](auto& b) { std::swap(b[12], b[15]), std::swap(b[13], b[14]); }).find("other byte order") !=
        std::string::npos);
  CHECK(damaged([](auto& b) { set<std::uint32_t>(b, 8, 2), rehash(b); }).find("version 2 is not supported") !=
        std::string::npos);
  CHECK(damaged([](auto& b) { set<std::uint32_t>(b, 20, 3), rehash(b); }).find("unknown length unit 3") !=
        std::string::npos);
  CHECK(damaged([](auto& b) { set<double>(b, 24, 0.001), rehash(b); }).find("meters_per_unit") != std::string::npos);
  CHECK(damaged([](auto& b) { set<std::uint64_t>(b, 40, 7), rehash(b); }).find("triangle block offset") ==
        std::string::npos);  // the triangle count alone: the stored file length disagrees
  CHECK(damaged([](auto& b) { set<std::uint64_t>(b, 40, 7), rehash(b); }).find("file length is 704 but the counts imply 716") != std::string::npos);
  CHECK(damaged([](auto& b) { set<std::uint64_t>(b, 32, 6), rehash(b); }).find("triangle block offset is 632 but the counts imply 656") !=
        std::string::npos);
  CHECK(damaged([](auto& b) { std::memset(b.data() + 88, 'k', 32), rehash(b); }).find("'source_kind' is not terminated") !=
        std::string::npos);
  CHECK(damaged([](auto& b) { std::memset(b.data() + 120, 'n', 256), rehash(b); })
            .find("'source_name' is not terminated") != std::string::npos);
}

TEST_CASE("an index out of range, a repeated corner and a coordinate not finite are refused behind intact checksums") {
  TempDir dir;
  const auto good = encode_mesh(pyramid());
  auto b = good;
  set<std::uint32_t>(b, 632 + 12 + 4, 5);  // triangle 1, corner b: one past the last vertex
  rehash(b);
  CHECK(refusal(dir, b).find("triangle 1 refers to vertex 5, out of range (the file has 5 vertices)") != std::string::npos);
  b = good;
  set<std::uint32_t>(b, 632 + 24 + 8, 0);  // triangle 2 = (0, 1, 0)
  rehash(b);
  CHECK(refusal(dir, b).find("triangle 2 repeats a vertex") != std::string::npos);
  b = good;
  set<double>(b, 512 + 24 * 2 + 8, std::numeric_limits<double>::quiet_NaN());  // vertex 2: y
  rehash(b);
  CHECK(refusal(dir, b).find("vertex 2 has a coordinate that is not finite (y)") != std::string::npos);
  b = good;
  set<double>(b, 512 + 16, -std::numeric_limits<double>::infinity());  // vertex 0: z
  rehash(b);
  CHECK(refusal(dir, b).find("vertex 0 has a coordinate that is not finite (z)") != std::string::npos);
}

TEST_CASE("the writer refuses a mesh the reader would refuse, and writes nothing") {
  TempDir dir;
  MeshData m = pyramid();
  m.triangles[3][2] = 9;  // (1, 2, 9)
  CHECK_THROWS_WITH_AS(write_mesh_file(dir / "x.mesh", m),
                       doctest::Contains("x.mesh: triangle 3 refers to vertex 9, out of range"), FormatError);
  m = pyramid();
  m.vertices[1][0] = std::nan("");
  CHECK_THROWS_WITH_AS(write_mesh_file(dir / "x.mesh", m), doctest::Contains("vertex 1 has a coordinate"), FormatError);
  m = pyramid();
  m.triangles.clear();
  CHECK_THROWS_WITH_AS(write_mesh_file(dir / "x.mesh", m), doctest::Contains("1..4294967295 triangles, not 5 and 0"), FormatError);
  CHECK(std::filesystem::is_empty(dir.path()));
  CHECK_THROWS_WITH_AS(write_mesh_file(dir / "missing" / "x.mesh", pyramid()), doctest::Contains("missing"),
                       FormatError);
}

TEST_CASE("files that are not meshes are told apart cheaply, and a missing file is named") {
  TempDir dir;
  test::write_bytes(dir / "other.bin", {0x89, 'S', 'D', 'B', '\r', '\n', 0x1a, '\n', 0, 0});
  CHECK_FALSE(is_mesh_file(dir / "other.bin"));
  CHECK_FALSE(is_mesh_file(dir / "nothing.mesh"));
  CHECK_FALSE(is_mesh_file(dir.path()));
  test::write_bytes(dir / "short.mesh", {'S', 'U', 'R', 'F'});
  CHECK_FALSE(is_mesh_file(dir / "short.mesh"));
  CHECK_THROWS_WITH_AS(read_mesh_file(dir / "nothing.mesh"), ((dir / "nothing.mesh").string() + ": no such file").c_str(),
                       FormatError);
  CHECK_THROWS_WITH_AS(read_mesh_file(dir.path()), doctest::Contains("not a regular file"), FormatError);
}
