// A small table with one damaged record, for tests of what readers do with damage.
#pragma once

#include <filesystem>

#include "file_bytes.hpp"
#include "surfdb/formats/header.hpp"
#include "surfdb/libsurfdb/analytic_surfaces.hpp"
#include "surfdb/libsurfdb/converter.hpp"

namespace surfdb::test {

/// Writes the default analytic surface at 50 x 50 points in 10 x 10 records to `path`, then flips
/// one bit of data record (2, 3) (number 14), so that its checksum no longer matches. Returns the
/// table's header.
inline Header write_damaged_table(const std::filesystem::path& path) {
  ConvertOptions o;
  o.grid = {50, 50};
  o.record = {10, 10};
  convert_surface(*make_analytic_surface(AnalyticSpec{}), o, path);
  auto bytes = read_bytes(path);
  const Header h = decode_header(bytes, bytes.size());
  bytes[h.layout.record_offset(h.layout.record_number({2, 3})) + 100] ^= 0x08;
  write_bytes(path, bytes);
  return h;
}

}  // namespace surfdb::test
