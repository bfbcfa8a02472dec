// Round trip through the format: records written by RecordFileWriter read back bit-identical
// from the mapping; the header as written.
#include "surfdb/table/database.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <random>

#include "../support/temp_dir.hpp"
#include "surfdb/formats/record_file_writer.hpp"

using namespace surfdb;

TEST_CASE("records written then mapped read back bit-identical") {
  test::TempDir dir;
  Header h;
  h.layout = RecordLayout::make(30, 20, 7, 6, kColumnsV1.size(), 8);
  h.columns.assign(kColumnsV1.begin(), kColumnsV1.end());
  h.u0 = -1;
  h.u1 = 2;
  h.du = 3.0 / 29;
  h.v1 = 1;
  h.dv = 1.0 / 19;
  h.source = {"analytic", "random", "Test", 0, FaceOrientation::forward, false};
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> value(-1e3, 1e3);
  std::vector<std::vector<std::uint8_t>> records;
  {
    RecordFileWriter writer(dir / "r.sdb", h.layout);
    for (std::uint64_t k = 0; k < h.layout.data_records; ++k) {
      std::vector<double> values(h.layout.record_bytes / 8);
      for (double& x : values) x = value(rng);
      records.emplace_back(h.layout.record_bytes);
      std::memcpy(records.back().data(), values.data(), h.layout.record_bytes);
      writer.write_record(records.back());
    }
    writer.commit(h);
  }
  const auto db = Database::open(dir / "r.sdb");
  CHECK(db->first_damaged_record() == 0);
  for (std::uint64_t k = 1; k <= h.layout.data_records; ++k)
    CHECK(std::memcmp(db->record(k), records[k - 1].data(), h.layout.record_bytes) == 0);
  CHECK(db->header().u0 == -1);
  CHECK(db->header().dv == 1.0 / 19);
  CHECK(db->header().source.name == "random");
  CHECK(db->layout().data_records == 5 * 4);
}
