#include "surfdb/formats/mesh_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <span>

#include "byte_fields.hpp"
#include "surfdb/formats/checksum.hpp"
#include "surfdb/formats/error.hpp"
#include "surfdb/formats/temporary_file.hpp"

static_assert(std::endian::native == std::endian::little,
              "mesh files are little-endian; this reader copies values as they lie in memory");

namespace surfdb {
namespace {

// Byte offsets of the header fields (docs/format.md, "Mesh files (.mesh)").
namespace off {
constexpr std::size_t magic = 0, version = 8, bom = 12, header_bytes = 16, length_unit = 20,
                      meters_per_unit = 24, vertex_count = 32, triangle_count = 40,
                      vertex_offset = 48, triangle_offset = 56, file_bytes = 64, vertex_hash = 72,
                      triangle_hash = 80, source_kind = 88, source_name = 120, header_hash = 504;
}  // namespace off

constexpr std::size_t kShortString = 32, kLongString = 256;  // char[] field sizes, NUL included
constexpr std::array<std::uint8_t, 8> kMagic = {'S', 'U', 'R', 'F', 'M', 'E', 'S', 'H'};
constexpr std::uint32_t kByteOrderMark = 0x01020304;
constexpr std::uint64_t kVertexBytes = 3 * sizeof(double);           // x, y, z
constexpr std::uint64_t kTriangleBytes = 3 * sizeof(std::uint32_t);  // a, b, c
// The blocks are copied to and from MeshData's vectors whole.
static_assert(sizeof(std::array<double, 3>) == kVertexBytes && sizeof(std::array<std::uint32_t, 3>) == kTriangleBytes);

using bytes::get;
using bytes::put;
using bytes::put_string;

std::string get_string(const std::uint8_t* b, std::size_t at, std::size_t field, const char* what) {
  return bytes::get_string(b, at, field, what, "bad mesh header: ");
}

std::uint64_t header_hash(const std::uint8_t* b) {
  std::array<std::uint8_t, kMeshHeaderBytes> copy;
  std::memcpy(copy.data(), b, kMeshHeaderBytes);
  put<std::uint64_t>(copy.data(), off::header_hash, 0);
  return checksum(copy);
}

[[noreturn]] void bad(const std::string& what) { throw FormatError("bad mesh header: " + what); }

void expect_equal(std::uint64_t stored, std::uint64_t expected, const char* field) {
  if (stored != expected)
    bad(std::string(field) + " is " + std::to_string(stored) + " but the counts imply " + std::to_string(expected));
}

// Steps 1 to 5: a mesh file at all, in this byte order and version, its header intact and its unit known.
LengthUnit check_identity(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < kMeshHeaderBytes)
    throw FormatError("not a mesh file: " + std::to_string(bytes.size()) + " bytes is shorter than its header (" +
                      std::to_string(kMeshHeaderBytes) + ")");
  const std::uint8_t* b = bytes.data();
  if (std::memcmp(b + off::magic, kMagic.data(), kMagic.size()) != 0)
    throw FormatError("not a mesh file (wrong magic bytes)");
  const auto bom = get<std::uint32_t>(b, off::bom);
  if (bom == __builtin_bswap32(kByteOrderMark))
    throw FormatError("written with the other byte order (big-endian); this reader needs little-endian");
  if (bom != kByteOrderMark) bad("byte-order mark damaged");
  const auto version = get<std::uint32_t>(b, off::version);
  const bool hash_ok = get<std::uint64_t>(b, off::header_hash) == header_hash(b);
  if (version != kMeshFormatVersion)
    throw FormatError("mesh format version " + std::to_string(version) +
                      (hash_ok ? " is not supported by this reader (it reads version 1)"
                               : " is unknown to this reader (version 1), or the header is damaged"));
  if (!hash_ok) bad("checksum mismatch (the header is damaged)");
  if (get<std::uint32_t>(b, off::header_bytes) != kMeshHeaderBytes) bad("header length is not 512");
  const auto unit = get<std::uint32_t>(b, off::length_unit);
  if (unit != static_cast<std::uint32_t>(LengthUnit::millimetre) && unit != static_cast<std::uint32_t>(LengthUnit::metre))
    bad("unknown length unit " + std::to_string(unit));
  if (get<double>(b, off::meters_per_unit) != meters_per(static_cast<LengthUnit>(unit)))
    bad("meters_per_unit does not match the length unit");
  return static_cast<LengthUnit>(unit);
}

// Steps 6 to 8: the counts, the block offsets recomputed from them, the file's real length.
void check_sizes(std::span<const std::uint8_t> bytes, std::uint64_t vertices, std::uint64_t triangles) {
  const std::uint8_t* b = bytes.data();
  if (vertices < 3 || vertices > kMaxMeshElements)
    bad("vertex count " + std::to_string(vertices) + " is outside 3.." + std::to_string(kMaxMeshElements));
  if (triangles < 1 || triangles > kMaxMeshElements)
    bad("triangle count " + std::to_string(triangles) + " is outside 1.." + std::to_string(kMaxMeshElements));
  const std::uint64_t triangle_offset = kMeshHeaderBytes + kVertexBytes * vertices;
  const std::uint64_t file_bytes = triangle_offset + kTriangleBytes * triangles;  // < 2^41: no overflow
  expect_equal(get<std::uint64_t>(b, off::vertex_offset), kMeshHeaderBytes, "vertex block offset");
  expect_equal(get<std::uint64_t>(b, off::triangle_offset), triangle_offset, "triangle block offset");
  expect_equal(get<std::uint64_t>(b, off::file_bytes), file_bytes, "file length");
  if (bytes.size() != file_bytes)
    throw FormatError("file is " + std::to_string(bytes.size()) + " bytes but its header describes " +
                      std::to_string(file_bytes) + (bytes.size() < file_bytes ? " (truncated)" : " (trailing data)"));
}

// Steps 11 and 12: every coordinate finite, every index a vertex, no corner repeated.
void check_values(const MeshData& m) {
  for (std::size_t v = 0; v < m.vertices.size(); ++v)
    for (int k = 0; k < 3; ++k)
      if (!std::isfinite(m.vertices[v][k]))
        throw FormatError("vertex " + std::to_string(v) + " has a coordinate that is not finite (" + "xyz"[k] + ")");
  const std::uint64_t n = m.vertices.size();
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    const auto& tri = m.triangles[t];
    for (const std::uint32_t i : tri)
      if (i >= n)
        throw FormatError("triangle " + std::to_string(t) + " refers to vertex " + std::to_string(i) +
                          ", out of range (the file has " + std::to_string(n) + " vertices)");
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2])
      throw FormatError("triangle " + std::to_string(t) + " repeats a vertex (" + std::to_string(tri[0]) + ", " +
                        std::to_string(tri[1]) + ", " + std::to_string(tri[2]) + ")");
  }
}

[[noreturn]] void fail(const std::filesystem::path& path, const char* action) {
  throw FormatError("cannot " + std::string(action) + " " + path.string() + ": " + std::strerror(errno));
}

void write_all(int fd, const std::vector<std::uint8_t>& bytes, const std::filesystem::path& path) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(path, "write");
    }
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

std::vector<std::uint8_t> encode_mesh(const MeshData& mesh) {
  const std::uint64_t nv = mesh.vertices.size(), nt = mesh.triangles.size();
  if (nv < 3 || nv > kMaxMeshElements || nt < 1 || nt > kMaxMeshElements)
    throw FormatError("a mesh file holds 3.." + std::to_string(kMaxMeshElements) + " vertices and 1.." +
                      std::to_string(kMaxMeshElements) + " triangles, not " + std::to_string(nv) + " and " +
                      std::to_string(nt));
  check_values(mesh);  // never write what the reader refuses
  const std::uint64_t triangle_offset = kMeshHeaderBytes + kVertexBytes * nv;
  std::vector<std::uint8_t> bytes(triangle_offset + kTriangleBytes * nt, 0);
  std::uint8_t* b = bytes.data();
  std::memcpy(b + kMeshHeaderBytes, mesh.vertices.data(), kVertexBytes * nv);
  std::memcpy(b + triangle_offset, mesh.triangles.data(), kTriangleBytes * nt);
  std::memcpy(b + off::magic, kMagic.data(), kMagic.size());
  put<std::uint32_t>(b, off::version, kMeshFormatVersion);
  put<std::uint32_t>(b, off::bom, kByteOrderMark);
  put<std::uint32_t>(b, off::header_bytes, kMeshHeaderBytes);
  put<std::uint32_t>(b, off::length_unit, static_cast<std::uint32_t>(mesh.length_unit));
  put<double>(b, off::meters_per_unit, meters_per(mesh.length_unit));
  put<std::uint64_t>(b, off::vertex_count, nv);
  put<std::uint64_t>(b, off::triangle_count, nt);
  put<std::uint64_t>(b, off::vertex_offset, kMeshHeaderBytes);
  put<std::uint64_t>(b, off::triangle_offset, triangle_offset);
  put<std::uint64_t>(b, off::file_bytes, bytes.size());
  put<std::uint64_t>(b, off::vertex_hash, checksum(std::span(b + kMeshHeaderBytes, kVertexBytes * nv)));
  put<std::uint64_t>(b, off::triangle_hash, checksum(std::span(b + triangle_offset, kTriangleBytes * nt)));
  put_string(b, off::source_kind, kShortString, mesh.source_kind);
  put_string(b, off::source_name, kLongString, mesh.source_name);
  put<std::uint64_t>(b, off::header_hash, header_hash(b));
  return bytes;
}

MeshData decode_mesh(const std::vector<std::uint8_t>& bytes) {
  MeshData m;
  m.length_unit = check_identity(bytes);
  const std::uint8_t* b = bytes.data();
  const auto nv = get<std::uint64_t>(b, off::vertex_count), nt = get<std::uint64_t>(b, off::triangle_count);
  check_sizes(bytes, nv, nt);
  m.source_kind = get_string(b, off::source_kind, kShortString, "source_kind");
  m.source_name = get_string(b, off::source_name, kLongString, "source_name");
  const std::uint64_t triangle_offset = kMeshHeaderBytes + kVertexBytes * nv;
  if (checksum(std::span(b + kMeshHeaderBytes, kVertexBytes * nv)) != get<std::uint64_t>(b, off::vertex_hash))
    throw FormatError("vertex block damaged (its checksum does not match the header)");
  if (checksum(std::span(b + triangle_offset, kTriangleBytes * nt)) != get<std::uint64_t>(b, off::triangle_hash))
    throw FormatError("triangle block damaged (its checksum does not match the header)");
  m.vertices.resize(nv);
  m.triangles.resize(nt);
  std::memcpy(m.vertices.data(), b + kMeshHeaderBytes, kVertexBytes * nv);
  std::memcpy(m.triangles.data(), b + triangle_offset, kTriangleBytes * nt);
  check_values(m);
  return m;
}

void write_mesh_file(const std::filesystem::path& path, const MeshData& mesh) {
  std::vector<std::uint8_t> bytes;
  try {
    bytes = encode_mesh(mesh);
  } catch (const FormatError& e) {
    throw FormatError("cannot write " + path.string() + ": " + e.what());
  }
  TemporaryFile t = create_temporary_beside(path);
  try {
    write_all(t.fd, bytes, path);
    if (::fsync(t.fd) != 0) fail(path, "flush");
    const int fd = t.fd;
    t.fd = -1;
    if (::close(fd) != 0) fail(path, "close");
    // Onto the destination's target: a symbolic link stays and its file gets the new content.
    if (::rename(t.path.c_str(), t.target.c_str()) != 0) fail(path, "rename into");
  } catch (...) {
    if (t.fd >= 0) ::close(t.fd);
    ::unlink(t.path.c_str());
    release_temporary(t);
    throw;
  }
  release_temporary(t);
  const std::filesystem::path dir = t.target.parent_path();  // make the rename itself durable
  const int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

MeshData read_mesh_file(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) throw FormatError(name + ": no such file");
  if (!std::filesystem::is_regular_file(status)) throw FormatError(name + ": not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FormatError(name + ": cannot open for reading");
  const std::uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) throw FormatError(name + ": " + ec.message());
  std::vector<std::uint8_t> bytes(size);
  if (!in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size)) ||
      in.peek() != std::ifstream::traits_type::eof())
    throw FormatError(name + ": cannot read (the file changed while it was read)");
  try {
    return decode_mesh(bytes);
  } catch (const FormatError& e) {
    throw FormatError(name + ": " + e.what());
  }
}

bool is_mesh_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;  // a FIFO or a device would block or never end
  std::ifstream in(path, std::ios::binary);
  std::array<char, kMagic.size()> head{};
  if (!in.read(head.data(), static_cast<std::streamsize>(head.size()))) return false;
  return std::memcmp(head.data(), kMagic.data(), kMagic.size()) == 0;
}

}  // namespace surfdb
