// A hidden temporary file beside a destination (".NAME.PID.XXXXXX" in the same directory: the
// writer's process id and six random characters), so that a finished file can be renamed over the
// destination atomically. Shared by every writer.
//
// Live temporaries are kept in a small fixed registry, so that a signal handler can remove them
// (remove_live_temporaries() is async-signal-safe); a temporary left by a killed process is
// removed by the next writer of the same destination once that process no longer exists.
#pragma once

#include <filesystem>

namespace surfdb {

struct TemporaryFile {
  int fd = -1;  // open for writing, mode 0666 less the umask
  std::filesystem::path path;
  /// The file to rename the temporary onto: the destination with its symbolic links followed.
  std::filesystem::path target;
  int slot = -1;  // in the registry of live temporaries; -1 when not registered
};

/// The destination with its symbolic links followed (a dangling link gives the path it names).
/// Throws FormatError when that path exists and is not a regular file (a directory, a device,
/// a FIFO, a socket), or when the links loop.
std::filesystem::path resolve_output(const std::filesystem::path& destination);

/// Creates the temporary beside resolve_output(destination), after removing stale temporaries
/// of the same destination whose process is gone. Throws FormatError naming the destination
/// when the directory is missing or not writable, or when resolve_output refuses it.
TemporaryFile create_temporary_beside(const std::filesystem::path& destination);

/// Takes the temporary out of the registry; call once it has been renamed or removed.
void release_temporary(TemporaryFile& t) noexcept;

/// A hidden temporary directory beside a destination directory (".NAME.PID.XXXXXX"), filled and
/// then renamed into place, so that a set of files appears whole or not at all.
struct TemporaryDirectory {
  std::filesystem::path path;
  std::filesystem::path target;  // the destination, symbolic links followed
  int slot = -1;
};

/// Creates the temporary directory beside the destination, after removing stale temporaries of
/// the same destination whose process is gone. Registered, like files, for removal on signals.
TemporaryDirectory create_temporary_directory_beside(const std::filesystem::path& destination);

/// Renames the finished directory onto its target. A missing target or an empty directory is
/// replaced; a non-empty directory only when `replace_existing` (exchanged atomically with the
/// new one, then removed with its contents). Throws FormatError when the target is not a
/// directory or is not empty and may not be replaced.
void commit_temporary_directory(TemporaryDirectory& t, bool replace_existing);

/// Removes the temporary directory and its contents (when the writer gives up).
void remove_temporary_directory(TemporaryDirectory& t) noexcept;

/// Unlinks every registered temporary file, then empties and removes every registered temporary
/// directory (its files only: writers put no directories in it). Async-signal-safe: for signal
/// handlers.
void remove_live_temporaries() noexcept;

/// Removes the temporaries of `destination` (already resolved) that a process which no longer
/// exists left behind: files or directories ".NAME.PID.XXXXXX" beside it with kill(PID, 0)
/// failing with ESRCH.
/// Returns how many were removed.
int remove_stale_temporaries(const std::filesystem::path& destination) noexcept;

}  // namespace surfdb
