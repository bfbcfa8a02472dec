#include "surfdb/formats/record_layout.hpp"

#include <doctest/doctest.h>

#include <set>

#include "surfdb/formats/error.hpp"

using namespace surfdb;

TEST_CASE("the paper's 999 x 999 grid in 27 x 27 tiles gives 37 x 37 records") {
  const auto l = RecordLayout::make(999, 999, 27, 27, 14, 8);
  CHECK(l.u_records == 37);
  CHECK(l.v_records == 37);
  CHECK(l.data_records == 1369);
  CHECK(l.record_bytes == 81648);  // paper 000 §3.2: 27 * 27 * 14 * 8
  CHECK(l.header_records == 1);
  CHECK(l.checksum_records == 1);
  CHECK(l.file_bytes == (1 + 1369 + 1) * 81648);
  CHECK(l.record_offset(1) == 81648);
}

TEST_CASE("every node has exactly one record and slot") {
  const auto l = RecordLayout::make(10, 7, 4, 3, 19, 4);  // uneven edge tiles
  CHECK(l.u_records == 3);
  CHECK(l.v_records == 3);
  std::set<std::pair<std::uint64_t, std::uint64_t>> seen;
  for (std::uint64_t i = 0; i < 10; ++i) {
    for (std::uint64_t j = 0; j < 7; ++j) {
      const RecordIndex r = l.record_of_node({i, j});
      const std::uint64_t k = l.record_number(r);
      CHECK(k >= 1);
      CHECK(k <= l.data_records);
      CHECK(l.record_index(k) == r);
      CHECK(l.slot_of_node({i, j}) < l.points_per_record());
      CHECK(seen.insert({k, l.slot_of_node({i, j})}).second);
    }
  }
  CHECK(seen.size() == 70);
}

TEST_CASE("a record shorter than the header stretches the header over several records") {
  const auto l = RecordLayout::make(4, 4, 1, 1, 19, 4);  // 76-byte records
  CHECK(l.record_bytes == 76);
  CHECK(l.header_records == 14);  // ceil(1024 / 76)
  CHECK(l.record_offset(1) == 14 * 76);
  CHECK(l.file_bytes % l.record_bytes == 0);
}

TEST_CASE("impossible sizes are refused with a message") {
  CHECK_THROWS_WITH_AS(RecordLayout::make(1, 5, 1, 1, 19, 8), doctest::Contains("at least 2 x 2"), FormatError);
  CHECK_THROWS_WITH_AS(RecordLayout::make(10, 10, 11, 2, 19, 8), doctest::Contains("larger than the grid"), FormatError);
  CHECK_THROWS_AS(RecordLayout::make(10, 10, 0, 2, 19, 8), FormatError);
  CHECK_THROWS_AS(RecordLayout::make(10, 10, 2, 2, 19, 3), FormatError);
  const std::uint64_t huge = std::uint64_t{1} << 40;
  CHECK_THROWS_WITH_AS(RecordLayout::make(huge, huge, 1, 1, 19, 8), doctest::Contains("overflows"), FormatError);
}
