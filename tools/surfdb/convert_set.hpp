// `surfdb convert PART --all-faces | --faces LIST -o NAME.sdbs`: the command's side of writing a
// surface set (size checks, progress, warnings); libsurfdb's surface_set_writer does the work.
#pragma once

#include <filesystem>
#include <string>

#include "surfdb/libsurfdb/surface_set_writer.hpp"

namespace surfdb::cli {

/// Converts the faces `options` names into the set at `destination`, refusing before anything is
/// written when one table exceeds `max_bytes` or all of them the free space.
void convert_set(const CadModel& model, const SurfaceSetOptions& options, const std::filesystem::path& input,
                 const std::filesystem::path& destination, std::uint64_t max_bytes, const std::string& max_size_text);

/// "2,5,7" or "3-6,9" -> ascending face numbers without repeats; a UsageError names a bad item.
std::vector<std::uint32_t> parse_face_list(const std::string& text);

}  // namespace surfdb::cli
