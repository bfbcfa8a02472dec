#include "surfdb/formats/temporary_file.hpp"

#include <limits.h>
#include <signal.h>
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
constexpr int kSlots = 16;
struct Slot {
  std::atomic<int> state{0};
  char path[PATH_MAX];
};
Slot g_slots[kSlots];
static_assert(std::atomic<int>::is_always_lock_free);

int register_temporary(const std::string& path) noexcept {
  if (path.size() >= PATH_MAX) return -1;
  for (int s = 0; s < kSlots; ++s) {
    int expected = 0;
    if (g_slots[s].state.compare_exchange_strong(expected, 1)) {
      std::memcpy(g_slots[s].path, path.c_str(), path.size() + 1);
      g_slots[s].state.store(2, std::memory_order_release);
      return s;
    }
  }
  return -1;  // more than kSlots at once: not registered (the next writer removes it if left)
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
  std::filesystem::path dir = destination.parent_path();
  if (dir.empty()) dir = ".";
  std::string prefix = ".";  // built in steps: GCC 12 warns falsely on "." + string
  prefix += destination.filename().string();
  prefix += ".";
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
    if (::lstat(it->path().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if (::unlink(it->path().c_str()) == 0) ++removed;
  }
  return removed;
}

TemporaryFile create_temporary_beside(const std::filesystem::path& destination) {
  TemporaryFile t;
  t.target = resolve_output(destination);
  remove_stale_temporaries(t.target);
  std::filesystem::path dir = t.target.parent_path();
  if (dir.empty()) dir = ".";
  std::string hidden = ".";  // built in steps: GCC 12 warns falsely on "." + string
  hidden += t.target.filename().string();
  hidden += ".";
  hidden += std::to_string(::getpid());
  hidden += ".XXXXXX";
  std::string pattern = (dir / hidden).string();
  t.fd = ::mkstemp(pattern.data());
  if (t.fd < 0)
    throw FormatError("cannot create a temporary file for " + destination.string() + ": " + std::strerror(errno));
  t.path = pattern;
  t.slot = register_temporary(pattern);
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
    if (s.state.load(std::memory_order_acquire) == 2) ::unlink(s.path);
}

}  // namespace surfdb
