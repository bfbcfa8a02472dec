// What `surfdb simulate` and each case of `surfdb sweep` observe while a scenario runs: the time
// series (one CSV row per output instant) and a list of observers called in turn.
#pragma once

#include <filesystem>
#include <vector>

#include "atomic_file.hpp"
#include "progress_bar.hpp"
#include "surfdb/multibody/simulation.hpp"

namespace surfdb::cli {

// Passes every call on to each of several observers, in the order they were added.
class Observers : public RunObserver {
 public:
  void add(RunObserver& observer) { list_.push_back(&observer); }
  void output(const Simulation& sim, double t, const double* y, double violation) override {
    for (RunObserver* o : list_) o->output(sim, t, y, violation);
  }
  void accepted(const Simulation& sim, double t, const double* y) override {
    for (RunObserver* o : list_) o->accepted(sim, t, y);
  }

 private:
  std::vector<RunObserver*> list_;
};

// One CSV row per output instant: bodies (position, velocity, acceleration), contacts, energies,
// constraint violation. Written atomically: commit() puts the file in place.
class TimeSeries : public RunObserver {
 public:
  TimeSeries(const std::filesystem::path& file, const Simulation& sim, double end_time, bool progress);

  /// The first line: the columns' names.
  static std::string header(const Simulation& sim);
  /// The file's size for a run to end_time with rows every `interval` (s), the rows of impacts
  /// left out: an estimate to refuse absurd runs before they fill the disk.
  static std::uint64_t estimated_bytes(const Simulation& sim, double end_time, double interval);

  void output(const Simulation& sim, double t, const double* y, double violation) override;
  void accepted(const Simulation&, double t, const double*) override {
    bar_.update(static_cast<std::uint64_t>(1000 * t / end_time_), 1000);
  }

  void commit() { out_.commit(); }
  void finish_progress() { bar_.finish(); }

 private:
  static constexpr double kBytesPerValue = 12;  // a shortest round-trip number and its comma, on average

  AtomicFile out_;
  ProgressBar bar_;
  double end_time_;  // s
};

}  // namespace surfdb::cli
