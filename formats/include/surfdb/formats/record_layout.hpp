// How a regular u-v grid is cut into fixed-length records (tiles) and where each record lives in
// the file. Pure arithmetic, shared by the writer, the reader and every other-language reader
// written from docs/format.md.
#pragma once

#include <cstdint>

namespace surfdb {

/// Size of the header area before the first data record is padded to a multiple of this.
inline constexpr std::uint32_t kHeaderBytes = 1024;

/// Grid node (i along u, j along v), both zero-based.
struct NodeIndex {
  std::uint64_t i = 0;
  std::uint64_t j = 0;
};

/// Tile coordinates of a record: ti along u, tj along v, zero-based.
struct RecordIndex {
  std::uint64_t ti = 0;
  std::uint64_t tj = 0;
  friend bool operator==(const RecordIndex&, const RecordIndex&) = default;
};

/// Record geometry of one file. Built only through make(), which rejects sizes that overflow.
struct RecordLayout {
  std::uint64_t u_points = 0;          // grid nodes along u (u-Npts)
  std::uint64_t v_points = 0;          // grid nodes along v (v-Npts)
  std::uint32_t u_record_points = 0;   // nodes per record along u (u-pts)
  std::uint32_t v_record_points = 0;   // nodes per record along v (v-pts)
  std::uint64_t u_records = 0;         // ceil(u_points / u_record_points)
  std::uint64_t v_records = 0;
  std::uint64_t data_records = 0;      // u_records * v_records
  std::uint32_t column_count = 0;
  std::uint32_t scalar_bytes = 0;      // 8 (float64) or 4 (float32)
  std::uint64_t record_bytes = 0;      // u_record_points * v_record_points * column_count * scalar_bytes
  std::uint64_t header_records = 0;    // records taken by the header: ceil(kHeaderBytes / record_bytes)
  std::uint64_t checksum_records = 0;  // records taken by the checksum table: ceil(8 * data_records / record_bytes)
  std::uint64_t file_bytes = 0;

  /// Throws FormatError when a size is zero, inconsistent or overflows 64 bits.
  static RecordLayout make(std::uint64_t u_points, std::uint64_t v_points,
                           std::uint32_t u_record_points, std::uint32_t v_record_points,
                           std::uint32_t column_count, std::uint32_t scalar_bytes);

  std::uint64_t points_per_record() const {
    return std::uint64_t{u_record_points} * v_record_points;
  }
  /// Record number (1..data_records) of a tile.
  std::uint64_t record_number(RecordIndex r) const { return 1 + r.ti * v_records + r.tj; }
  /// Tile of a record number (1..data_records).
  RecordIndex record_index(std::uint64_t number) const {
    return {(number - 1) / v_records, (number - 1) % v_records};
  }
  /// Byte offset of data record `number` (1..data_records) in the file.
  std::uint64_t record_offset(std::uint64_t number) const {
    return (header_records + number - 1) * record_bytes;
  }
  std::uint64_t checksum_table_offset() const { return (header_records + data_records) * record_bytes; }
  RecordIndex record_of_node(NodeIndex n) const {
    return {n.i / u_record_points, n.j / v_record_points};
  }
  /// Position of the node at (li, lj) inside its record (li < u_record_points, lj < v_record_points),
  /// in points.
  std::uint64_t slot(std::uint64_t li, std::uint64_t lj) const { return li * v_record_points + lj; }
  /// Position of a node inside its record, in points.
  std::uint64_t slot_of_node(NodeIndex n) const { return slot(n.i % u_record_points, n.j % v_record_points); }
};

}  // namespace surfdb
