// `surfdb convert PART --all-faces | --faces LIST -o NAME.sdbs`: the command's side of writing a
// surface set (size checks, progress, warnings); libsurfdb's surface_set_writer does the work.
#pragma once

#include <filesystem>
#include <string>

#include "surfdb/libsurfdb/surface_set_writer.hpp"

namespace surfdb::cli {

/// Converts the faces `options` names into the set at `destination` (already checked with
/// check_set_destination), refusing before anything is written when one table exceeds `max_bytes`
/// or all of them the free space, or when the set it replaces holds the input.
void convert_set(const CadModel& model, const SurfaceSetOptions& options, const std::filesystem::path& input,
                 const std::filesystem::path& destination, std::uint64_t max_bytes, const std::string& max_size_text);

class MpiSession;

/// convert_set shared among the ranks of an MPI job (several ranks; the part read by each and
/// the set's destination checked): rank 0 makes the temporary directory beside the destination
/// and deals the faces, each rank converts its faces into that directory, rank 0 then writes the
/// manifest and renames the set into place. The result is the set convert_set writes, byte for byte.
void convert_set_on_ranks(const MpiSession& mpi, const CadModel& model, const SurfaceSetOptions& options,
                          const std::filesystem::path& destination, std::uint64_t max_bytes, const std::string& max_size_text);

struct FaceRange {
  std::uint32_t first = 1, last = 1;
};

/// "2,5,7" or "3-6,9" -> the ranges, checked for syntax only (before the part is read); a
/// UsageError names a bad item.
std::vector<FaceRange> parse_face_list(const std::string& text);

/// The ranges' faces, ascending and without repeats; throws naming a face the part lacks.
std::vector<std::uint32_t> faces_in(const std::vector<FaceRange>& ranges, const CadModel& model);

}  // namespace surfdb::cli
