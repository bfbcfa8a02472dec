#include "vtk_xml.hpp"

#include <bit>
#include <cstring>

namespace surfdb::cli::vtk {
namespace {

static_assert(std::endian::native == std::endian::little,
              "arrays are written as they lie in memory, and the files say LittleEndian");

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Encodes a stream of bytes given in parts: whole groups of three as they come, a part's last
// one or two bytes carried over to the next, the padding at the end.
class Base64 {
 public:
  explicit Base64(std::string& out) : out_(out) {}

  void put(std::span<const std::byte> bytes) {
    std::size_t k = 0;
    while (carried_ > 0 && carried_ < 3 && k < bytes.size()) carry_[carried_++] = bytes[k++];
    if (carried_ == 3) {
      group(carry_, grow(4));
      carried_ = 0;
    }
    const std::size_t groups = (bytes.size() - k) / 3;
    char* to = grow(4 * groups);
    for (std::size_t g = 0; g < groups; ++g, k += 3, to += 4) group(bytes.data() + k, to);
    while (k < bytes.size()) carry_[carried_++] = bytes[k++];
  }

  void finish() {
    if (carried_ == 0) return;
    for (int k = carried_; k < 3; ++k) carry_[k] = std::byte{0};
    char* to = grow(4);
    group(carry_, to);
    for (int k = carried_ + 1; k < 4; ++k) to[k] = '=';
    carried_ = 0;
  }

 private:
  static void group(const std::byte* in, char* to) {
    const auto v = std::to_integer<std::uint32_t>(in[0]) << 16 | std::to_integer<std::uint32_t>(in[1]) << 8 |
                   std::to_integer<std::uint32_t>(in[2]);
    for (int k = 0; k < 4; ++k) to[k] = kAlphabet[(v >> (18 - 6 * k)) & 63];
  }
  // Extends the text by n characters; where they go.
  char* grow(std::size_t n) {
    const std::size_t at = out_.size();
    out_.resize(at + n);
    return out_.data() + at;
  }

  std::string& out_;
  std::byte carry_[3]{};
  int carried_ = 0;
};

}  // namespace

void append_binary(std::string& out, std::span<const std::byte> bytes) {
  const std::uint64_t count = bytes.size();
  std::byte header[sizeof count];
  std::memcpy(header, &count, sizeof count);
  Base64 encoder(out);
  encoder.put(header);
  encoder.put(bytes);
  encoder.finish();
}

void append_poly_data_start(std::string& out, std::size_t points, std::size_t verts, std::size_t polys) {
  out.append(
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
      "  <PolyData>\n"
      "    <Piece NumberOfPoints=\"");
  out.append(std::to_string(points)).append("\" NumberOfVerts=\"").append(std::to_string(verts));
  out.append("\" NumberOfLines=\"0\" NumberOfStrips=\"0\" NumberOfPolys=\"");
  out.append(std::to_string(polys)).append("\">\n");
}

void append_poly_data_end(std::string& out) { out.append("    </Piece>\n  </PolyData>\n</VTKFile>\n"); }

}  // namespace surfdb::cli::vtk
