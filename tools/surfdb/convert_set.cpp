#include "convert_set.hpp"

#include <algorithm>
#include <fstream>
#include <numeric>
#include <regex>

#include "commands.hpp"
#include "mpi_session.hpp"
#include "log.hpp"
#include "number_format.hpp"
#include "output_checks.hpp"
#include "progress_bar.hpp"

namespace surfdb::cli {
namespace {

std::uint64_t table_bytes(const PlannedFace& p, ConvertOptions o) {
  o.grid = p.grid;
  o.record = p.record;
  return table_layout(o).file_bytes;
}

void check_set_size(const std::vector<PlannedFace>& plan, const SurfaceSetOptions& options,
                    const std::filesystem::path& destination, std::uint64_t max_bytes, const std::string& max_size_text) {
  std::uint64_t total = 0;
  for (const PlannedFace& p : plan) {
    const std::uint64_t bytes = table_bytes(p, options.table);
    if (bytes > max_bytes)
      throw std::runtime_error("cannot write " + destination.string() + ": the table of face " + std::to_string(p.index) +
                               " would take " + size_text(bytes) + ", more than --max-size " + max_size_text + " (" +
                               format_size(max_bytes) + ")");
    total = bytes > UINT64_MAX - total ? UINT64_MAX : total + bytes;
  }
  check_free_space(std::filesystem::absolute(destination).parent_path(), total,
                   "cannot write " + destination.string() + ": " + count_of(plan.size(), "table"), true);
}

// Where a rank that left a face out (--skip-bad-faces) writes why, for rank 0 to put in the manifest.
std::filesystem::path skip_note(const std::filesystem::path& dir, std::uint32_t face) {
  return dir / (".skipped_" + set_table_name(face) + ".txt");
}

// Rank 0 lists what the ranks wrote into the temporary directory, in plan order, and finishes the set.
SurfaceSetReport finish_from_tables(const CadModel& model, const std::vector<PlannedFace>& plan,
                                    const SurfaceSetOptions& options, TemporaryDirectory& dir,
                                    const std::filesystem::path& destination) {
  SurfaceSetReport r;
  r.manifest = set_manifest(model, options);
  for (const PlannedFace& p : plan) {
    if (std::ifstream note(skip_note(dir.path, p.index)); note) {
      std::string reason;
      std::getline(note, reason);
      r.manifest.skipped.push_back({p.index, reason});
      std::filesystem::remove(skip_note(dir.path, p.index));
      spdlog::warn("face {} left out of the set: {}", p.index, reason);
      continue;
    }
    r.manifest.faces.push_back(set_face_of_table(model, p.index, dir.path));
    r.bytes += std::filesystem::file_size(dir.path / r.manifest.faces.back().file);
  }
  finish_surface_set(model, r.manifest, dir, destination, options.replace_existing);
  return r;
}

void log_written(const SurfaceSetReport& r, const CadModel& model, const std::filesystem::path& destination) {
  spdlog::info("wrote the surface set {}: {} of {} ({}){}", destination.string(), count_of(r.manifest.faces.size(), "face"),
               model.file_name(), format_size(r.bytes),
               r.manifest.skipped.empty() ? std::string() : ", " + std::to_string(r.manifest.skipped.size()) + " left out");
}

}  // namespace

std::vector<FaceRange> parse_face_list(const std::string& text) {
  static const std::regex item(R"((\d{1,9})(?:-(\d{1,9}))?)");
  std::vector<FaceRange> ranges;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string part = text.substr(start, comma - start);
    std::smatch m;
    if (!std::regex_match(part, m, item))
      throw UsageError("--faces '" + text + "': '" + part + "' is not a face number or a range such as 3-6");
    const auto first = static_cast<std::uint32_t>(std::stoul(m[1]));
    const auto last = m[2].matched ? static_cast<std::uint32_t>(std::stoul(m[2])) : first;
    if (first < 1 || last < first)
      throw UsageError("--faces '" + text + "': '" + part + "': faces are numbered from 1, ranges run upwards");
    ranges.push_back({first, last});
    start = comma + 1;
  }
  return ranges;
}

std::vector<std::uint32_t> faces_in(const std::vector<FaceRange>& ranges, const CadModel& model) {
  std::vector<std::uint32_t> faces;
  for (const FaceRange& r : ranges) {
    if (r.last > model.face_count())
      throw std::runtime_error(model.file_name() + ": face " + std::to_string(std::max(r.first, model.face_count() + 1)) +
                               " does not exist (faces are 1.." + std::to_string(model.face_count()) + ")");
    for (std::uint32_t f = r.first; f <= r.last; ++f) faces.push_back(f);
  }
  std::sort(faces.begin(), faces.end());
  faces.erase(std::unique(faces.begin(), faces.end()), faces.end());
  return faces;
}

void convert_set(const CadModel& model, const SurfaceSetOptions& options, const std::filesystem::path& input,
                 const std::filesystem::path& destination, std::uint64_t max_bytes, const std::string& max_size_text) {
  refuse_input_as_output(destination, {input});
  std::error_code ec;  // a set that --force replaces must not hold the input (a hard link, say)
  for (const auto& entry : std::filesystem::directory_iterator(destination, ec)) refuse_input_as_output(entry.path(), {input});
  const std::vector<PlannedFace> plan = plan_surface_set(model, options);
  check_set_size(plan, options, destination, max_bytes, max_size_text);
  std::unique_ptr<ProgressBar> bar;
  SetObserver observer;
  observer.face_started = [&](std::size_t k, std::size_t n, std::uint32_t face) {
    if (bar) bar->finish();
    bar = std::make_unique<ProgressBar>("face " + std::to_string(face) + " (" + std::to_string(k + 1) + " of " +
                                        std::to_string(n) + ", " + format_size(table_bytes(plan[k], options.table)) + ")");
  };
  observer.face_progress = [&](std::uint64_t done, std::uint64_t total) { bar->update(done, total); };
  observer.face_skipped = [&](std::uint32_t face, const std::string& reason) {
    bar.reset();
    spdlog::warn("face {} left out of the set: {}", face, reason);
  };
  const SurfaceSetReport r = write_surface_set(model, plan, options, destination, observer);
  if (bar) bar->finish();
  log_written(r, model, destination);
}

void convert_set_on_ranks(const MpiSession& mpi, const CadModel& model, const SurfaceSetOptions& options,
                          const std::filesystem::path& destination, std::uint64_t max_bytes, const std::string& max_size_text) {
  const std::vector<PlannedFace> plan = plan_surface_set(model, options);
  TemporaryDirectory dir;
  if (mpi.rank() == 0) {
    try {
      check_set_size(plan, options, destination, max_bytes, max_size_text);
      dir = create_temporary_directory_beside(destination);
    } catch (const std::exception& e) {
      mpi.report(e);
      throw;
    }
  }
  const std::filesystem::path shared = mpi.broadcast(dir.path.string());  // every rank writes its tables there
  std::vector<std::size_t> faces(plan.size());
  std::iota(faces.begin(), faces.end(), std::size_t{0});
  ProgressBar bar("converting " + count_of(plan.size(), "face") + " on " + count_of(static_cast<std::uint64_t>(mpi.size()), "rank"));
  std::uint64_t done = 0;
  try {
    deal_work(
        mpi, faces, 1,
        [&](std::size_t k) {
          const FaceOutcome f = convert_set_face(model, plan[k], options, shared);
          if (f.skipped) std::ofstream(skip_note(shared, f.skipped->index)) << f.skipped->reason << "\n";
        },
        [&](std::size_t) { bar.update(++done, plan.size()); });
    if (mpi.rank() != 0) return;
    bar.finish();
    log_written(finish_from_tables(model, plan, options, dir, destination), model, destination);
  } catch (const std::exception& e) {
    if (mpi.rank() == 0) remove_temporary_directory(dir);
    mpi.report(e);
    throw;
  }
}

}  // namespace surfdb::cli
