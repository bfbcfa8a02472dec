// Integrity checks on a whole surface database held in memory (mapped or read): the checksum table
// against the header, each data record against its entry in the table, and a record's values
// (finite, flags well formed).
#pragma once

#include <cstdint>
#include <span>

#include "surfdb/formats/header.hpp"

namespace surfdb {

/// Throws FormatError when the checksum table does not match the hash the header holds.
void check_checksum_table(std::span<const std::uint8_t> file, const Header& h);

/// True when data record `number` (1..data_records) matches its stored checksum.
bool record_intact(std::span<const std::uint8_t> file, const Header& h, std::uint64_t number);

/// True when every value of a data record is finite and every flags value is well formed
/// (point_flags::well_formed); `record` is the record's h.layout.record_bytes bytes, wherever they
/// are (mapped, read, or in the converter's buffer before they are written). Does not look at the
/// checksum: record_intact does.
bool record_values_usable(std::span<const std::uint8_t> record, const Header& h);

/// Offset of the first non-zero byte among the bytes the format leaves unused (the header records
/// past byte 1024, the checksum records past N * 8 bytes), or 0 when all are zero. No hash covers
/// them and readers ignore them; `verify` refuses a file where they are not zero.
std::uint64_t first_nonzero_unused_byte(std::span<const std::uint8_t> file, const Header& h);

/// Number of the first damaged data record, or 0 when every record is intact.
/// Calls check_checksum_table first.
std::uint64_t first_damaged_record(std::span<const std::uint8_t> file, const Header& h);

}  // namespace surfdb
