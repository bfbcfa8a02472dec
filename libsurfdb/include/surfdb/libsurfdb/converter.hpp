// The offline conversion: sample a surface on a regular u-v grid, compute each node's frame and
// curvatures, cut the table into records and write a surface database (docs/format.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>

#include "surfdb/formats/header.hpp"
#include "surfdb/libsurfdb/surface_source.hpp"

namespace surfdb {

struct GridSize {
  std::uint64_t u = 999, v = 999;  // nodes along u and v, end points included
};

struct RecordSize {
  std::uint32_t u = 27, v = 27;  // nodes per record along u and v
};

/// `record` shrunk where it is larger than `grid` (a record never holds more nodes than the grid).
RecordSize record_within(RecordSize record, GridSize grid);

struct ConvertOptions {
  GridSize grid;
  RecordSize record;
  ScalarType scalar = ScalarType::f64;
  bool flip_normals = false;  // store the opposite normals (on top of the face orientation)
  unsigned threads = 0;       // 0: one per hardware thread
};

/// The layout of the table `options` describe (its file_bytes is the file's size), known before
/// anything is sampled. Throws FormatError for sizes the format cannot hold.
RecordLayout table_layout(const ConvertOptions& options);

struct ConvertReport {
  Header header;
  // Wall time until every record is sampled, checksummed and written (into the page cache): the
  // workers sample, checksum and write their records at once, each its own, while the rows so far
  // are flushed to disk and read back in the background.
  double sampling_seconds = 0;
  // Wall time after that: checksum table, header, flush to disk (fsync), rename.
  double writing_seconds = 0;
  // Part of writing_seconds, beside the flush: what the background had not read back and checked
  // (header, checksum table, the last rows).
  double read_back_seconds = 0;
  double total_seconds = 0;
  // Where the workers' CPU time went, summed over them (thread CPU time, system time included):
  // evaluation, frames, curvatures and classification; the records' checksums and writes.
  double evaluation_cpu_seconds = 0;
  double record_writing_cpu_seconds = 0;
};

/// Called after each row of records with (records done, records in all).
using ConvertProgress = std::function<void(std::uint64_t done, std::uint64_t total)>;

/// Samples `source` and writes `destination` crash-safely (a temporary file renamed into place),
/// verified: every record's values checked before it is written, the file read back against its
/// checksums before the rename. Throws FormatError for bad sizes, I/O failure or a file that reads
/// back other than written, DegenerateGeometry where no frame exists or a value would not fit the
/// scalar type; on any error nothing is left at `destination` that was not there before.
ConvertReport convert_surface(const SurfaceSource& source, const ConvertOptions& options,
                              const std::filesystem::path& destination,
                              const ConvertProgress& progress = {});

}  // namespace surfdb
