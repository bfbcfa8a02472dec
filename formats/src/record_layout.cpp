#include "surfdb/formats/record_layout.hpp"

#include <string>

#include "surfdb/formats/error.hpp"

namespace surfdb {
namespace {

std::uint64_t checked_mul(std::uint64_t a, std::uint64_t b, const char* what) {
  std::uint64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) throw FormatError(std::string(what) + " overflows 64 bits");
  return r;
}

std::uint64_t checked_add(std::uint64_t a, std::uint64_t b, const char* what) {
  std::uint64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) throw FormatError(std::string(what) + " overflows 64 bits");
  return r;
}

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return a / b + (a % b != 0); }

}  // namespace

RecordLayout RecordLayout::make(std::uint64_t u_points, std::uint64_t v_points,
                                std::uint32_t u_record_points, std::uint32_t v_record_points,
                                std::uint32_t column_count, std::uint32_t scalar_bytes) {
  if (u_points < 2 || v_points < 2)
    throw FormatError("grid of " + std::to_string(u_points) + " x " + std::to_string(v_points) +
                      " points: at least 2 x 2 are needed");
  if (u_record_points < 1 || v_record_points < 1)
    throw FormatError("a record must hold at least 1 x 1 points");
  if (u_record_points > u_points || v_record_points > v_points)
    throw FormatError("record of " + std::to_string(u_record_points) + " x " +
                      std::to_string(v_record_points) + " points is larger than the grid of " +
                      std::to_string(u_points) + " x " + std::to_string(v_points));
  if (column_count < 1) throw FormatError("no columns");
  if (scalar_bytes != 4 && scalar_bytes != 8)
    throw FormatError("scalar size " + std::to_string(scalar_bytes) + " is neither 4 nor 8 bytes");

  RecordLayout l;
  l.u_points = u_points;
  l.v_points = v_points;
  l.u_record_points = u_record_points;
  l.v_record_points = v_record_points;
  l.u_records = ceil_div(u_points, u_record_points);
  l.v_records = ceil_div(v_points, v_record_points);
  l.data_records = checked_mul(l.u_records, l.v_records, "record count");
  l.column_count = column_count;
  l.scalar_bytes = scalar_bytes;
  l.record_bytes = checked_mul(
      checked_mul(l.points_per_record(), column_count, "record length"), scalar_bytes, "record length");
  l.header_records = ceil_div(kHeaderBytes, l.record_bytes);
  l.checksum_records =
      ceil_div(checked_mul(l.data_records, 8, "checksum table length"), l.record_bytes);
  const std::uint64_t records = checked_add(
      checked_add(l.header_records, l.data_records, "file length"), l.checksum_records, "file length");
  l.file_bytes = checked_mul(records, l.record_bytes, "file length");
  return l;
}

}  // namespace surfdb
