#include "surfdb/formats/record_file_writer.hpp"

#include <doctest/doctest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <thread>

#include "../support/file_bytes.hpp"
#include "../support/temp_dir.hpp"
#include "surfdb/formats/error.hpp"
#include "surfdb/formats/integrity.hpp"
#include "surfdb/formats/temporary_file.hpp"

using namespace surfdb;
using surfdb::test::TempDir;

namespace {

Header small_header() {
  Header h;
  h.layout = RecordLayout::make(4, 6, 2, 3, kColumnsV1.size(), 8);
  h.columns.assign(kColumnsV1.begin(), kColumnsV1.end());
  h.u1 = h.v1 = 1;
  h.du = 1.0 / 3;
  h.dv = 1.0 / 5;
  return h;
}

void write_all_records(RecordFileWriter& w, const RecordLayout& l, std::uint8_t fill) {
  std::vector<std::uint8_t> record(l.record_bytes, fill);
  for (std::uint64_t k = 0; k < l.data_records; ++k) w.write_record(record);
}

// Writes and commits a whole file of records filled with `fill`; returns its bytes.
std::vector<std::uint8_t> committed_file(const std::filesystem::path& path, const Header& h, std::uint8_t fill) {
  RecordFileWriter w(path, h.layout);
  write_all_records(w, h.layout, fill);
  w.commit(h);
  return test::read_bytes(path);
}

std::size_t entries(const std::filesystem::path& dir) {
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir), {}));
}

// Waits until the writer's background flushes have read back `records` records (at most 20 s).
bool read_back_reaches(const RecordFileWriter& w, std::uint64_t records) {
  for (int k = 0; k < 2000 && w.records_read_back() < records; ++k)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return w.records_read_back() == records;
}

// The writer's hidden file: the one entry of `dir` besides `destination`.
std::filesystem::path temporary_beside(const std::filesystem::path& dir, const char* destination) {
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().filename() != destination) return e.path();
  return {};
}

// One byte changed: what a file system returning other bytes would look like.
void damage(const std::filesystem::path& file, std::uint64_t offset) {
  std::fstream f(file, std::ios::binary | std::ios::in | std::ios::out);
  f.seekp(static_cast<std::streamoff>(offset));
  f.put(7);
}

}  // namespace

TEST_CASE("a committed file is complete and checksummed and the only file left") {
  TempDir dir;
  const Header h = small_header();
  {
    RecordFileWriter w(dir / "a.sdb", h.layout);
    write_all_records(w, h.layout, 0);
    w.commit(h);
  }
  CHECK(entries(dir.path()) == 1);
  const auto bytes = test::read_bytes(dir / "a.sdb");
  CHECK(bytes.size() == h.layout.file_bytes);
  const Header d = decode_header(bytes, bytes.size());
  CHECK(first_damaged_record(bytes, d) == 0);

  auto damaged = bytes;
  damaged[h.layout.record_offset(3) + 17] ^= 1;
  CHECK(first_damaged_record(damaged, d) == 3);
}

TEST_CASE("records written at their numbers, in any order and from several threads, give the same file") {
  TempDir dir;
  const Header h = small_header();
  const RecordLayout& l = h.layout;
  const auto record = [&](std::uint64_t number) {
    std::vector<std::uint8_t> bytes(l.record_bytes);
    for (std::size_t k = 0; k < bytes.size(); ++k) bytes[k] = static_cast<std::uint8_t>(number * 31 + k);
    return bytes;
  };
  {
    RecordFileWriter w(dir / "in_order.sdb", l);
    for (std::uint64_t k = 1; k <= l.data_records; ++k) w.write_record(record(k));
    w.commit(h);
  }
  {
    RecordFileWriter w(dir / "any_order.sdb", l);
    std::vector<std::thread> threads;
    for (std::uint64_t k = l.data_records; k >= 1; --k) {  // last first, each from a thread of its own
      threads.emplace_back([&w, &record, k] { w.write_record_at(k, record(k)); });
      w.flush_in_background();
    }
    for (std::thread& t : threads) t.join();
    w.commit(h);
  }
  CHECK(test::read_bytes(dir / "any_order.sdb") == test::read_bytes(dir / "in_order.sdb"));

  RecordFileWriter w(dir / "b.sdb", l);
  CHECK_THROWS_AS(w.write_record_at(0, record(1)), FormatError);
  CHECK_THROWS_AS(w.write_record_at(l.data_records + 1, record(1)), FormatError);
  for (std::uint64_t k = 1; k < l.data_records; ++k) w.write_record_at(k, record(k));
  w.write_record_at(1, record(1));  // written twice, the last record never
  CHECK_THROWS_WITH_AS(w.commit(h), doctest::Contains("commit after"), FormatError);
}

TEST_CASE("a writer abandoned before commit leaves the old file untouched and no temporary") {
  TempDir dir;
  const Header h = small_header();
  const auto before = committed_file(dir / "a.sdb", h, 1);
  {
    RecordFileWriter w(dir / "a.sdb", h.layout);
    write_all_records(w, h.layout, 2);
    w.flush_in_background();  // its thread is stopped before the temporary file goes
    // destroyed without commit, as when an exception unwinds the converter
  }
  CHECK(entries(dir.path()) == 1);
  CHECK(test::read_bytes(dir / "a.sdb") == before);
}

// catches: a commit that renames without reading the file back, or that reads back only the
// records and misses a file of the wrong length.
TEST_CASE("a record damaged in the file before the commit, or a file grown, fails it, and the old file stays") {
  TempDir dir;
  const Header h = small_header();
  const auto before = committed_file(dir / "a.sdb", h, 1);
  for (const bool grow : {false, true}) {
    CAPTURE(grow);
    {
      RecordFileWriter w(dir / "a.sdb", h.layout);
      write_all_records(w, h.layout, 2);
      const std::filesystem::path temporary = temporary_beside(dir.path(), "a.sdb");
      REQUIRE(!temporary.empty());
      if (grow) {
        std::filesystem::resize_file(temporary, h.layout.file_bytes + 1);
      } else {
        damage(temporary, h.layout.record_offset(3) + 5);
      }
      CHECK_THROWS_WITH_AS(w.commit(h),
                           doctest::Contains(grow ? "the file's length read back" : "data record 3 read back from the file differs"),
                           FormatError);
    }
    CHECK(entries(dir.path()) == 1);
    CHECK(test::read_bytes(dir / "a.sdb") == before);
  }
}

// catches: a background read-back that does not compare the checksums (it would pass record 3 and
// commit would not read it again), one that reads nothing (the wait fails), a commit that reads
// the records already read back again (the second file's record 2, damaged after its read-back).
TEST_CASE("the background flushes read the records back: a damaged one stops them, commit names it") {
  TempDir dir;
  const Header h = small_header();
  const auto before = committed_file(dir / "a.sdb", h, 1);
  {
    RecordFileWriter w(dir / "a.sdb", h.layout);
    write_all_records(w, h.layout, 2);
    damage(temporary_beside(dir.path(), "a.sdb"), h.layout.record_offset(3) + 5);
    w.flush_in_background(h.layout.data_records);
    CHECK(read_back_reaches(w, 2));
    CHECK_THROWS_WITH_AS(w.commit(h), doctest::Contains("data record 3 read back from the file differs"), FormatError);
  }
  CHECK(test::read_bytes(dir / "a.sdb") == before);
  {
    // Each record is read back once: what the background flushes checked, commit does not read again.
    RecordFileWriter w(dir / "a.sdb", h.layout);
    write_all_records(w, h.layout, 2);
    w.flush_in_background(3);
    REQUIRE(read_back_reaches(w, 3));
    damage(temporary_beside(dir.path(), "a.sdb"), h.layout.record_offset(2) + 5);
    CHECK_NOTHROW(w.commit(h));
  }
}

// catches: a writer that takes the caller's word, so that a record written again after its
// read-back, or one never written, would go unchecked.
TEST_CASE("records said to be written must be, and are not written again") {
  TempDir dir;
  const Header h = small_header();
  RecordFileWriter w(dir / "a.sdb", h.layout);
  const std::vector<std::uint8_t> record(h.layout.record_bytes, 3);
  w.write_record_at(1, record);
  w.write_record_at(2, record);
  CHECK_THROWS_WITH_AS(w.flush_in_background(3), doctest::Contains("record 3 said to be written, but it is not"),
                       FormatError);
  w.flush_in_background(2);
  CHECK_THROWS_WITH_AS(w.write_record_at(2, record), doctest::Contains("record 2 written again"), FormatError);
  w.write_record_at(3, record);
}

// catches: a writer whose constructor throws after creating its temporary file and leaves it
// behind (no destructor runs), as the first fallocate did.
TEST_CASE("a file too large for its file system or limits is refused at once, and no temporary stays") {
  TempDir dir;
  const Header h = small_header();
  const pid_t child = ::fork();
  if (child == 0) {  // the limit and the signal it raises, in a process of their own
    std::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{h.layout.file_bytes / 2, h.layout.file_bytes / 2};
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(3);
    try {
      RecordFileWriter w(dir / "a.sdb", h.layout);
    } catch (const FormatError& e) {
      ::_exit(std::string(e.what()).find("File too large") != std::string::npos ? 0 : 2);
    }
    ::_exit(1);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(entries(dir.path()) == 0);
}

TEST_CASE("an unwritable destination is refused before anything is written") {
  TempDir dir;
  const Header h = small_header();
  CHECK_THROWS_WITH_AS(RecordFileWriter(dir / "missing" / "a.sdb", h.layout),
                       doctest::Contains("cannot create a temporary file"), FormatError);
  CHECK_THROWS_WITH_AS(RecordFileWriter(dir.path(), h.layout), doctest::Contains("is a directory"),
                       FormatError);
  RecordFileWriter w(dir / "a.sdb", h.layout);
  CHECK_THROWS_AS(w.commit(h), FormatError);  // not all records written
}

TEST_CASE("a symbolic link is written through: the link stays and its target gets the file") {
  TempDir dir;
  const Header h = small_header();
  std::filesystem::create_directory(dir / "real");
  std::filesystem::create_symlink("real/a.sdb", dir / "link.sdb");  // dangling until the commit
  {
    RecordFileWriter w(dir / "link.sdb", h.layout);
    write_all_records(w, h.layout, 3);
    w.commit(h);
  }
  CHECK(std::filesystem::is_symlink(dir / "link.sdb"));
  CHECK(std::filesystem::file_size(dir / "real" / "a.sdb") == h.layout.file_bytes);
  CHECK(entries(dir / "real") == 1);  // the temporary was beside the target, and is gone
  CHECK(resolve_output(dir / "link.sdb") == dir / "real" / "a.sdb");
}

TEST_CASE("an existing destination that is not a regular file is refused") {
  TempDir dir;
  const Header h = small_header();
  REQUIRE(::mkfifo((dir / "fifo").c_str(), 0600) == 0);
  CHECK_THROWS_WITH_AS(RecordFileWriter(dir / "fifo", h.layout),
                       doctest::Contains("is a FIFO, not a regular file"), FormatError);
  std::filesystem::create_symlink("fifo", dir / "to_fifo");
  CHECK_THROWS_WITH_AS(RecordFileWriter(dir / "to_fifo", h.layout),
                       doctest::Contains("is a FIFO, not a regular file"), FormatError);
  std::filesystem::create_symlink("loop", dir / "loop");
  CHECK_THROWS_WITH_AS(RecordFileWriter(dir / "loop", h.layout),
                       doctest::Contains("too many levels of symbolic links"), FormatError);
  CHECK(std::filesystem::is_fifo(dir / "fifo"));
  CHECK(entries(dir.path()) == 3);
}

TEST_CASE("temporaries carry the writer's PID, and stale ones of dead processes are removed") {
  TempDir dir;
  const Header h = small_header();
  RecordFileWriter w(dir / "a.sdb", h.layout);
  const std::string mine = ".a.sdb." + std::to_string(::getpid()) + ".";
  bool found = false;
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    found = found || e.path().filename().string().rfind(mine, 0) == 0;
  CHECK(found);

  // A dead process: a child that has exited and been reaped.
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  REQUIRE(child > 0);
  ::waitpid(child, nullptr, 0);
  const std::string dead = ".a.sdb." + std::to_string(child) + ".Ab12Cd";
  for (const std::string& name : {dead, std::string(".a.sdb.1.Ab12Cd"), std::string(".a.sdb.Ab12Cd"),
                                  ".b.sdb." + std::to_string(child) + ".Ab12Cd"})
    test::write_bytes(dir / name, std::vector<std::uint8_t>{1});
  CHECK(remove_stale_temporaries(dir / "a.sdb") == 1);  // not PID 1 (alive), no PID, another file
  CHECK(!std::filesystem::exists(dir / dead));
  CHECK(entries(dir.path()) == 4);  // and the live writer's own temporary stays
}

TEST_CASE("remove_live_temporaries unlinks the live temporaries, and only those") {
  TempDir dir;
  const Header h = small_header();
  {
    RecordFileWriter done(dir / "done.sdb", h.layout);
    write_all_records(done, h.layout, 4);
    done.commit(h);
  }
  RecordFileWriter a(dir / "a.sdb", h.layout), b(dir / "b.sdb", h.layout);
  CHECK(entries(dir.path()) == 3);
  remove_live_temporaries();  // what the signal handler does
  CHECK(entries(dir.path()) == 1);
  CHECK(std::filesystem::exists(dir / "done.sdb"));
}
