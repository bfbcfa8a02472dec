#include "surfdb/formats/record_file_writer.hpp"

#include <doctest/doctest.h>

#include "../support/file_bytes.hpp"
#include "../support/temp_dir.hpp"
#include "surfdb/formats/error.hpp"
#include "surfdb/formats/integrity.hpp"

using namespace surfdb;
using surfdb::test::TempDir;

namespace {

Header small_header() {
  Header h;
  h.layout = RecordLayout::make(4, 6, 2, 3, kColumnsV1.size(), 8);
  h.columns.assign(kColumnsV1.begin(), kColumnsV1.end());
  h.u1 = h.v1 = 1;
  h.du = 1.0 / 3;
  h.dv = 1.0 / 5;
  return h;
}

void write_all_records(RecordFileWriter& w, const RecordLayout& l, std::uint8_t fill) {
  std::vector<std::uint8_t> record(l.record_bytes, fill);
  for (std::uint64_t k = 0; k < l.data_records; ++k) w.write_record(record);
}

std::size_t entries(const std::filesystem::path& dir) {
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir), {}));
}

}  // namespace

TEST_CASE("a committed file is complete and checksummed and the only file left") {
  TempDir dir;
  const Header h = small_header();
  {
    RecordFileWriter w(dir / "a.sdb", h.layout);
    write_all_records(w, h.layout, 0);
    w.commit(h);
  }
  CHECK(entries(dir.path()) == 1);
  const auto bytes = test::read_bytes(dir / "a.sdb");
  CHECK(bytes.size() == h.layout.file_bytes);
  const Header d = decode_header(bytes, bytes.size());
  CHECK(first_damaged_record(bytes, d) == 0);

  auto damaged = bytes;
  damaged[h.layout.record_offset(3) + 17] ^= 1;
  CHECK(first_damaged_record(damaged, d) == 3);
}

TEST_CASE("a writer abandoned before commit leaves the old file untouched and no temporary") {
  TempDir dir;
  const Header h = small_header();
  {
    RecordFileWriter w(dir / "a.sdb", h.layout);
    write_all_records(w, h.layout, 1);
    w.commit(h);
  }
  const auto before = test::read_bytes(dir / "a.sdb");
  {
    RecordFileWriter w(dir / "a.sdb", h.layout);
    write_all_records(w, h.layout, 2);
    // destroyed without commit, as when an exception unwinds the converter
  }
  CHECK(entries(dir.path()) == 1);
  CHECK(test::read_bytes(dir / "a.sdb") == before);
}

TEST_CASE("an unwritable destination is refused before anything is written") {
  TempDir dir;
  const Header h = small_header();
  CHECK_THROWS_WITH_AS(RecordFileWriter(dir / "missing" / "a.sdb", h.layout),
                       doctest::Contains("cannot create a temporary file"), FormatError);
  CHECK_THROWS_WITH_AS(RecordFileWriter(dir.path(), h.layout), doctest::Contains("is a directory"),
                       FormatError);
  RecordFileWriter w(dir / "a.sdb", h.layout);
  CHECK_THROWS_AS(w.commit(h), FormatError);  // not all records written
}
