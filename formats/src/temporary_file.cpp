#include "surfdb/formats/temporary_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

#include "surfdb/formats/error.hpp"

namespace surfdb {
namespace {

// The registry of live temporaries: fixed storage, so the signal handler reads it without
// allocating. A slot is free (0), being filled (1) or live (2); only live slots are unlinked.
// Enough for a sweep's threads on a large node, each holding a case's outputs open at once (the
// array lies in zero pages that only used slots make resident).
constexpr int kSlots = 256;
struct Slot {
  std::atomic<int> state{0};
  bool directory = false;
  char path[PATH_MAX];
};
Slot g_slots[kSlots];
static_assert(std::atomic<int>::is_always_lock_free);

int register_temporary(const std::string& path, bool directory) noexcept {
  if (path.size() >= PATH_MAX) return -1;
  for (int s = 0; s < kSlots; ++s) {
    int expected = 0;
    if (g_slots[s].state.compare_exchange_strong(expected, 1)) {
      std::memcpy(g_slots[s].path, path.c_str(), path.size() + 1);
      g_slots[s].directory = directory;
      g_slots[s].state.store(2, std::memory_order_release);
      return s;
    }
  }
  return -1;  // more than kSlots at once: not registered (the next writer removes it if left)
}

// Empties a directory of files and removes it, with system calls only (async-signal-safe).
void remove_flat_directory(const char* path) noexcept {
  const int fd = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    alignas(8) char buffer[4096];
    for (;;) {
      const ssize_t n = ::getdents64(fd, buffer, sizeof(buffer));
      if (n <= 0) break;
      for (ssize_t k = 0; k < n;) {
        const auto* entry = reinterpret_cast<const struct dirent64*>(buffer + k);
        k += entry->d_reclen;
        const char* name = entry->d_name;
        if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
        ::unlinkat(fd, name, 0);
      }
    }
    ::close(fd);
  }
  ::rmdir(path);
}

// ".NAME.PID." for a destination: the start of its temporaries' names.
std::string temporary_prefix(const std::filesystem::path& destination) {
  std::string prefix = ".";  // built in steps: GCC 12 warns falsely on "." + string
  prefix += destination.filename().string();
  prefix += ".";
  return prefix;
}

void release_directory_slot(TemporaryDirectory& t) noexcept {
  if (t.slot >= 0 && t.slot < kSlots) g_slots[t.slot].state.store(0, std::memory_order_release);
  t.slot = -1;
}

std::filesystem::path directory_of(const std::filesystem::path& destination) {
  return destination.parent_path().empty() ? std::filesystem::path(".") : destination.parent_path();
}

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// "PID.XXXXXX" with PID all digits and XXXXXX what mkstemp puts there; returns the PID or 0.
pid_t temporary_owner(std::string_view rest) {
  const std::size_t dot = rest.find('.');
  if (dot == 0 || dot == std::string_view::npos || dot > 9 || rest.size() != dot + 7) return 0;
  pid_t pid = 0;
  for (std::size_t k = 0; k < dot; ++k) {
    if (rest[k] < '0' || rest[k] > '9') return 0;
    pid = pid * 10 + (rest[k] - '0');
  }
  for (std::size_t k = dot + 1; k < rest.size(); ++k) {
    const char c = rest[k];
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return 0;
  }
  return pid;
}

}  // namespace

std::filesystem::path resolve_output(const std::filesystem::path& destination) {
  std::filesystem::path p = destination;
  for (int hops = 0;; ++hops) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0) {
      if (errno == ENOENT || errno == ENOTDIR) return p;  // a new file (a missing folder fails later)
      throw FormatError("cannot write " + destination.string() + ": " + std::strerror(errno));
    }
    if (S_ISREG(st.st_mode)) return p;
    if (!S_ISLNK(st.st_mode)) {
      if (S_ISDIR(st.st_mode) && p == destination)
        throw FormatError("cannot write " + destination.string() + ": it is a directory");
      throw FormatError("cannot write " + destination.string() + ": " +
                        (p == destination ? "it" : p.string()) + " is " + kind_of(st.st_mode) +
                        ", not a regular file");
    }
    if (hops == 40)
      throw FormatError("cannot write " + destination.string() + ": too many levels of symbolic links");
    std::error_code ec;
    const std::filesystem::path next = std::filesystem::read_symlink(p, ec);
    if (ec) throw FormatError("cannot write " + destination.string() + ": " + ec.message());
    p = next.is_absolute() ? next : p.parent_path() / next;
  }
}

int remove_stale_temporaries(const std::filesystem::path& destination) noexcept {
  const std::filesystem::path dir = directory_of(destination);
  const std::string prefix = temporary_prefix(destination);
  const pid_t self = ::getpid();
  int removed = 0;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const pid_t owner = temporary_owner(std::string_view(name).substr(prefix.size()));
    if (owner <= 0 || owner == self) continue;
    if (::kill(owner, 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0) continue;
    if (S_ISREG(st.st_mode) && ::unlink(it->path().c_str()) == 0) ++removed;
    if (S_ISDIR(st.st_mode) && std::filesystem::remove_all(it->path(), ec) > 0) ++removed;
  }
  return removed;
}

TemporaryFile create_temporary_beside(const std::filesystem::path& destination) {
  TemporaryFile t;
  t.target = resolve_output(destination);
  remove_stale_temporaries(t.target);
  const std::filesystem::path dir = directory_of(t.target);
  std::string hidden = temporary_prefix(t.target);
  hidden += std::to_string(::getpid());
  hidden += ".XXXXXX";
  std::string pattern = (dir / hidden).string();
  t.fd = ::mkstemp(pattern.data());
  if (t.fd < 0)
    throw FormatError("cannot create a temporary file for " + destination.string() + ": " + std::strerror(errno));
  t.path = pattern;
  t.slot = register_temporary(pattern, false);
  const mode_t mask = ::umask(0);  // umask can only be read by setting it
  ::umask(mask);
  ::fchmod(t.fd, 0666 & ~mask);
  return t;
}

void release_temporary(TemporaryFile& t) noexcept {
  if (t.slot >= 0 && t.slot < kSlots) g_slots[t.slot].state.store(0, std::memory_order_release);
  t.slot = -1;
}

void remove_live_temporaries() noexcept {
  for (Slot& s : g_slots)
    if (s.state.load(std::memory_order_acquire) == 2 && !s.directory) ::unlink(s.path);
  for (Slot& s : g_slots)
    if (s.state.load(std::memory_order_acquire) == 2 && s.directory) remove_flat_directory(s.path);
}

TemporaryDirectory create_temporary_directory_beside(const std::filesystem::path& destination) {
  TemporaryDirectory t;
  std::error_code ec;
  t.target = destination;
  if (std::filesystem::is_symlink(std::filesystem::symlink_status(destination, ec))) {
    t.target = std::filesystem::weakly_canonical(destination, ec);
    if (ec) throw FormatError("cannot write " + destination.string() + ": " + ec.message());
  }
  const auto status = std::filesystem::status(t.target, ec);
  if (std::filesystem::exists(status) && !std::filesystem::is_directory(status))
    throw FormatError("cannot write the set " + destination.string() + ": a file of that name exists, not a directory");
  remove_stale_temporaries(t.target);
  std::string pattern = (directory_of(t.target) / (temporary_prefix(t.target) + std::to_string(::getpid()) + ".XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw FormatError("cannot create a temporary directory for " + destination.string() + ": " + std::strerror(errno));
  t.path = pattern;
  t.slot = register_temporary(pattern, true);
  const mode_t mask = ::umask(0);  // mkdtemp makes it 0700; a set is shared like a table
  ::umask(mask);
  ::chmod(pattern.c_str(), 0777 & ~mask);
  return t;
}

void commit_temporary_directory(TemporaryDirectory& t, bool replace_existing) {
  const std::string target = t.target.string();
  if (::rename(t.path.c_str(), t.target.c_str()) == 0) {  // no target, or an empty directory
    release_directory_slot(t);
    return;
  }
  if (errno != ENOTEMPTY && errno != EEXIST)
    throw FormatError("cannot move the finished set into place as " + target + ": " + std::strerror(errno));
  if (!replace_existing)
    throw FormatError("cannot write " + target + ": the directory is not empty");
  if (::renameat2(AT_FDCWD, t.path.c_str(), AT_FDCWD, t.target.c_str(), RENAME_EXCHANGE) != 0)
    throw FormatError("cannot replace " + target + ": " + std::strerror(errno));
  std::error_code ec;  // the temporary's name now holds the old set
  std::filesystem::remove_all(t.path, ec);
  release_directory_slot(t);
}

void remove_temporary_directory(TemporaryDirectory& t) noexcept {
  std::error_code ec;
  if (!t.path.empty()) std::filesystem::remove_all(t.path, ec);
  release_directory_slot(t);
}

}  // namespace surfdb
