#include "animation_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <regex>

#include "output_checks.hpp"

namespace surfdb::cli {
namespace {

// What this writer names the files of OUTDIR/animation.
bool is_frame_name(const std::string& name) {
  static const std::regex pattern(R"((frame|contacts)_[0-9]{6,}\.vtp)");
  return name == "ground.vtp" || name == "scene.gltf" || name == "scene.bin" || std::regex_match(name, pattern);
}

// Throws unless writing the collection and replacing the directory destroy nothing but an earlier
// animation: neither may be an input, and the directory may hold frames only. Returns the
// collection's path.
std::filesystem::path checked_outputs(const std::filesystem::path& collection, const std::filesystem::path& directory,
                                      const std::vector<std::filesystem::path>& inputs) {
  refuse_input_as_output(collection, inputs);
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(directory, ec);
  if (!std::filesystem::exists(status)) return collection;
  if (!std::filesystem::is_directory(status))
    throw std::runtime_error("cannot write " + directory.string() + ": a file of that name exists, not a directory");
  for (const std::filesystem::directory_entry& entry : std::filesystem::directory_iterator(directory)) {
    const std::string name = entry.path().filename().string();
    if (!is_frame_name(name) || !entry.is_regular_file())
      throw std::runtime_error("cannot replace " + directory.string() + ": it holds " + name +
                               ", which is not a frame of an animation (move it away, or write elsewhere)");
    refuse_input_as_output(entry.path(), inputs);
  }
  return collection;
}

// Writes `text` to the new file `path` (in the staging directory, which no one else writes); an
// error names the file as directory/name, where it is going.
void write_file(const std::string& path, std::string_view text, const std::filesystem::path& directory,
                const char* name) {
  const auto fail = [&] {
    const int error = errno;
    throw std::runtime_error("cannot write " + (directory / name).string() + ": " + std::strerror(error));
  };
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) fail();
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      errno = error;
      fail();
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) fail();
}

// Flushes every file of the staging directory's file system to disk, so that the directory holds
// whole frames once it is renamed into place: one call instead of one per frame.
void sync_directory(const std::filesystem::path& staging, const std::filesystem::path& shown) {
  const int fd = ::open(staging.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const bool ok = fd >= 0 && ::syncfs(fd) == 0;
  const int error = errno;
  if (fd >= 0) ::close(fd);
  if (!ok) throw std::runtime_error("cannot write " + shown.string() + ": " + std::strerror(error));
}

}  // namespace

AnimationWriter::AnimationWriter(const std::filesystem::path& outdir, const Simulation& sim, const double* y0,
                                 const std::vector<std::filesystem::path>& inputs, double interval, double end_time)
    : collection_path_(outdir / "animation.pvd"),
      directory_(outdir / "animation"),
      collection_(checked_outputs(collection_path_, directory_, inputs)),
      frame_(sim, y0),
      staging_(create_temporary_directory_beside(directory_)),
      interval_(interval),
      end_time_(end_time) {
  std::fputs("<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
             "  <Collection>\n",
             collection_.get());
  path_ = (staging_.path / "").string();
  staging_prefix_ = path_.size();
}

AnimationWriter::~AnimationWriter() {
  if (!committed_) remove_temporary_directory(staging_);
}

void AnimationWriter::output(const Simulation& sim, double t, const double* y, double /*violation*/) {
  constexpr double kSlack = 1e-12;  // s: output instants reached by summing steps
  if (interval_ > 0) {
    if (t + kSlack < next_ && t + kSlack < end_time_) return;
    while (next_ <= t + kSlack) next_ += interval_;
  }
  char time[32];  // the shortest text that reads back to t, as time_series.csv has it
  *std::to_chars(time, time + sizeof(time) - 1, t).ptr = '\0';
  for (const bool surfaces : {true, false}) {
    char name[40];
    std::snprintf(name, sizeof(name), "%s_%06zu.vtp", surfaces ? "frame" : "contacts", frames_);
    path_.resize(staging_prefix_);
    path_.append(name);
    write_file(path_, surfaces ? frame_.surfaces(y) : frame_.contacts(sim), directory_, name);
    std::fprintf(collection_.get(), "    <DataSet timestep=\"%s\" part=\"%d\" name=\"%s\" file=\"animation/%s\"/>\n",
                 time, surfaces ? 0 : 1, surfaces ? "surfaces" : "contacts", name);
  }
  if (!frame_.ground_surfaces().empty()) {
    if (frames_ == 0) {
      path_.resize(staging_prefix_);
      path_.append("ground.vtp");
      write_file(path_, frame_.ground_surfaces(), directory_, "ground.vtp");
    }
    std::fprintf(collection_.get(), "    <DataSet timestep=\"%s\" part=\"2\" name=\"ground\" file=\"animation/ground.vtp\"/>\n",
                 time);
  }
  frame_.gltf().add(t, y);
  ++frames_;
}

void AnimationWriter::commit() {
  std::fputs("  </Collection>\n</VTKFile>\n", collection_.get());
  const GltfAnimation::Files scene = frame_.gltf().files("scene.bin");
  for (const auto& [name, text] : {std::pair{"scene.gltf", &scene.json}, std::pair{"scene.bin", &scene.buffer}}) {
    path_.resize(staging_prefix_);
    path_.append(name);
    write_file(path_, *text, directory_, name);
  }
  sync_directory(staging_.path, directory_);
  // No collection stays in place while the directory is replaced: a run killed between the two
  // renames leaves none, rather than one naming frames of the earlier run.
  std::error_code ec;
  std::filesystem::remove(resolve_output(collection_path_), ec);
  commit_temporary_directory(staging_, /*replace_existing=*/true);
  committed_ = true;
  collection_.commit();
}

}  // namespace surfdb::cli
