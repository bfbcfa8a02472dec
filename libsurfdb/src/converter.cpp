#include "surfdb/libsurfdb/converter.hpp"

#include <chrono>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <ctime>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "surfdb/formats/integrity.hpp"
#include "surfdb/formats/record_file_writer.hpp"
#include "sampling_pool.hpp"
#include "surfdb/libsurfdb/node_geometry.hpp"

namespace surfdb {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// CPU time of the calling thread (user and system: a write's copy into the page cache counts).
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

struct Counters {
  std::uint64_t invalid = 0, degenerate = 0;
};

class RecordFiller {
 public:
  // The grid comes from `header` (Header::u_at, v_at: the last node exactly on the upper bound).
  RecordFiller(const SurfaceSource& source, const Header& header, double normal_sign)
      : source_(source), bounds_(source.bounds()), header_(header), layout_(header.layout),
        scalar_(header.scalar), normal_sign_(normal_sign) {}

  void fill(RecordIndex r, std::uint8_t* out, Counters& counters) {
    // An evaluator may keep state between calls (OpenCASCADE's B-spline span cache), and where
    // the cache of one span is still taken as valid at a node of the next, the node's last bits
    // depend on what was evaluated before it: on which records this worker sampled earlier, so on
    // the scheduling. One evaluation at a fixed point first puts every worker's evaluator in the
    // same state at the start of every record, so a record's bytes depend on its nodes only.
    (void)source_.d2(bounds_.u0, bounds_.v0);
    std::array<double, kColumnsV1.size()> values;
    // The record's nodes are evaluated at once (SurfaceSource::d2_block) and the record's part of
    // each grid line is classified at once (SurfaceSource::inside_line).
    const std::uint64_t i0 = r.ti * layout_.u_record_points, j0 = r.tj * layout_.v_record_points;
    u_.resize(std::min<std::uint64_t>(layout_.u_record_points, layout_.u_points - i0));
    v_.resize(std::min<std::uint64_t>(layout_.v_record_points, layout_.v_points - j0));
    for (std::size_t k = 0; k < u_.size(); ++k) u_[k] = header_.u_at(i0 + k);
    for (std::size_t k = 0; k < v_.size(); ++k) v_[k] = header_.v_at(j0 + k);
    block_.resize(u_.size() * v_.size());
    source_.d2_block(u_, v_, block_);
    valid_.resize(v_.size());
    for (std::uint32_t li = 0; li < layout_.u_record_points; ++li) {
      if (li < u_.size()) source_.inside_line(u_[li], v_, valid_);
      for (std::uint32_t lj = 0; lj < layout_.v_record_points; ++lj) {
        if (li < u_.size() && lj < v_.size()) {
          sample(u_[li], v_[lj], block_[li * v_.size() + lj], valid_[lj] != 0, values, counters);
        } else {
          values.fill(0.0);  // padding: flags 0 marks it invalid
        }
        store(values, out + layout_.slot(li, lj) * values.size() * layout_.scalar_bytes);
      }
    }
  }

 private:
  void sample(double u, double v, const SurfaceD2& d, bool valid, std::array<double, kColumnsV1.size()>& out,
              Counters& counters) const {
    const NodeGeometry g = node_geometry(source_, bounds_, d, u, v, normal_sign_);
    counters.invalid += !valid;
    counters.degenerate += g.degenerate;
    const std::uint32_t flags =
        (valid ? point_flags::valid : 0u) | (g.degenerate ? point_flags::degenerate : 0u);
    out = {u,        v,        g.p.x(),   g.p.y(),   g.p.z(), g.n.x(), g.n.y(),
           g.n.z(),  g.t.x(),  g.t.y(),   g.t.z(),   g.b.x(), g.b.y(), g.b.z(),
           g.su_norm, g.sv_norm, g.k1,    g.k2,      static_cast<double>(flags)};
    for (double x : out) {
      if (!std::isfinite(x)) {
        std::ostringstream msg;
        msg.precision(17);
        msg << "the surface evaluates to a non-finite value at (u, v) = (" << u << ", " << v << ")";
        throw DegenerateGeometry(msg.str());
      }
    }
  }

  void store(const std::array<double, kColumnsV1.size()>& values, std::uint8_t* out) const {
    if (scalar_ == ScalarType::f64) {
      std::memcpy(out, values.data(), sizeof(values));
    } else {
      std::array<float, kColumnsV1.size()> narrow;
      for (std::size_t c = 0; c < values.size(); ++c) narrow[c] = static_cast<float>(values[c]);
      std::memcpy(out, narrow.data(), sizeof(narrow));
    }
  }

  const SurfaceSource& source_;
  ParamBounds bounds_;
  const Header& header_;
  const RecordLayout& layout_;
  ScalarType scalar_;
  double normal_sign_;
  // The record being filled: its nodes' parameters and derivatives, the validity of one grid line.
  std::vector<double> u_, v_;
  std::vector<SurfaceD2> block_;
  std::vector<std::uint8_t> valid_;
};

// The record's values as `surfdb verify` checks them (the writer's read-back then checks that the
// file holds these bytes). The filler refuses non-finite doubles and writes flags 0..3, which
// float32 holds exactly; narrowed to float32, a value beyond its range becomes infinite.
void check_values(std::span<const std::uint8_t> record, const Header& h, std::uint64_t number) {
  if (record_values_usable(record, h)) return;
  const std::string which = "data record " + std::to_string(number);
  if (h.scalar == ScalarType::f32)
    throw DegenerateGeometry(which + " would hold a value beyond the range of 32-bit floats (convert without --float32)");
  throw std::logic_error("internal: " + which + " would hold a non-finite value or malformed flags");
}

// Everything the header says but the counts, which sampling finds.
Header make_header(const SurfaceSource& source, const ConvertOptions& options, const RecordLayout& layout) {
  const ParamBounds b = source.bounds();
  Header h;
  h.scalar = options.scalar;
  h.layout = layout;
  h.columns.assign(kColumnsV1.begin(), kColumnsV1.end());
  h.u0 = b.u0;
  h.u1 = b.u1;
  h.du = (b.u1 - b.u0) / static_cast<double>(layout.u_points - 1);
  h.v0 = b.v0;
  h.v1 = b.v1;
  h.dv = (b.v1 - b.v0) / static_cast<double>(layout.v_points - 1);
  h.periodic_u = b.u_period > 0;
  h.periodic_v = b.v_period > 0;
  h.u_period = b.u_period;
  h.v_period = b.v_period;
  h.length_unit = source.unit();
  h.meters_per_unit = h.length_unit == LengthUnit::metre ? 1.0 : 1e-3;
  h.source = source.info();
  h.source.normals_flipped = options.flip_normals;
  return h;
}

// A face whose parameter range is empty in u or v (a zero-area face of a damaged file) has no
// grid: its table would be refused by every reader, so it is refused here, before anything is
// written. So is a face without boundary, whose range OpenCASCADE gives as +-1e100 ("infinite").
constexpr double kUnboundedParameter = 1e50;

void check_bounds(const ParamBounds& b) {
  const double bounds[] = {b.u0, b.u1, b.v0, b.v1};
  const bool bounded = std::all_of(std::begin(bounds), std::end(bounds),
                                   [](double x) { return std::abs(x) < kUnboundedParameter; });  // false for NaN
  if (bounded && b.u1 > b.u0 && b.v1 > b.v0) return;
  std::ostringstream msg;
  msg.precision(17);
  msg << "the face has " << (bounded ? "an empty" : "an unbounded") << " parameter range (u " << b.u0 << " .. "
      << b.u1 << ", v " << b.v0 << " .. " << b.v1 << "): "
      << (bounded ? "a face of zero area cannot be sampled" : "a face without boundary cannot be sampled");
  throw DegenerateGeometry(msg.str());
}

// float32 rounds a stored parameter to 2^-24 of its magnitude; far from zero (knots near 1.4e6,
// say) that exceeds the grid step and distinct grid lines would be stored as one value. Refused
// when the rounding exceeds this fraction of the step.
constexpr double kFloat32StepFraction = 0.01;

void check_float32_parameters(const Header& h) {
  const auto check = [&](char name, double lo, double hi, double step) {
    const double rounding = std::ldexp(std::max(std::abs(lo), std::abs(hi)), -24);
    if (rounding <= kFloat32StepFraction * step) return;
    std::ostringstream msg;
    msg.precision(6);
    msg << "float32 cannot store " << name << " (up to " << std::max(std::abs(lo), std::abs(hi))
        << ") finely enough for the grid step d" << name << " = " << step << " (rounding " << rounding
        << "): convert without --float32";
    throw std::invalid_argument(msg.str());
  };
  check('u', h.u0, h.u1, h.du);
  check('v', h.v0, h.v1, h.dv);
}

}  // namespace

RecordSize record_within(RecordSize record, GridSize grid) {
  return {static_cast<std::uint32_t>(std::min<std::uint64_t>(record.u, grid.u)),
          static_cast<std::uint32_t>(std::min<std::uint64_t>(record.v, grid.v))};
}

RecordLayout table_layout(const ConvertOptions& o) {
  return RecordLayout::make(o.grid.u, o.grid.v, o.record.u, o.record.v, kColumnsV1.size(), scalar_bytes(o.scalar));
}

ConvertReport convert_surface(const SurfaceSource& source, const ConvertOptions& options,
                              const std::filesystem::path& destination,
                              const ConvertProgress& progress) {
  const auto t0 = Clock::now();
  check_bounds(source.bounds());
  const RecordLayout layout = table_layout(options);
  ConvertReport report;
  Header& h = report.header = make_header(source, options, layout);
  if (h.scalar == ScalarType::f32) check_float32_parameters(h);
  const bool reversed = h.source.orientation == FaceOrientation::reversed;
  const double normal_sign = (reversed != options.flip_normals) ? -1.0 : 1.0;

  // One source (OpenCASCADE's evaluators are not thread-safe) and one filler per worker.
  const unsigned threads =
      options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::unique_ptr<SurfaceSource>> sources;
  std::vector<RecordFiller> fillers;
  sources.reserve(threads);
  fillers.reserve(threads);
  for (unsigned w = 0; w < threads; ++w) {
    sources.push_back(source.clone());
    fillers.emplace_back(*sources.back(), h, normal_sign);
  }
  std::vector<Counters> counters(threads);

  // The pipeline: each worker samples a record into its own buffer (cache-resident), checks its
  // values, checksums it and writes it at its place in the file, while the other workers sample
  // theirs; between rows the writer's own threads flush the rows so far to disk and read them
  // back against their checksums, so that the final flush finds most of the file there already
  // and the commit reads back only the rest beside it. The bytes of each record depend on its
  // nodes only, so the file is the same whatever the thread count or the order of the writes.
  const auto t_records = Clock::now();
  RecordFileWriter writer(destination, layout);
  struct Worker {
    std::vector<std::uint8_t> record;
    double evaluation = 0, writing = 0;  // thread CPU seconds
  };
  std::vector<Worker> workers(threads);
  for (Worker& w : workers) w.record.resize(layout.record_bytes);
  {
    SamplingPool pool(threads, layout.v_records, [&](unsigned w, std::uint64_t ti, std::uint64_t tj) {
      Worker& worker = workers[w];
      const double c0 = thread_cpu_seconds();
      fillers[w].fill({ti, tj}, worker.record.data(), counters[w]);
      const std::uint64_t number = ti * layout.v_records + tj + 1;
      check_values(worker.record, h, number);
      const double c1 = thread_cpu_seconds();
      writer.write_record_at(number, worker.record);
      worker.evaluation += c1 - c0;
      worker.writing += thread_cpu_seconds() - c1;
    });
    for (std::uint64_t ti = 0; ti < layout.u_records; ++ti) {
      pool.sample_row(ti);
      writer.flush_in_background((ti + 1) * layout.v_records);
      if (progress) progress((ti + 1) * layout.v_records, layout.data_records);
    }
  }
  report.sampling_seconds = seconds_since(t_records);
  for (const Worker& w : workers) {
    report.evaluation_cpu_seconds += w.evaluation;
    report.record_writing_cpu_seconds += w.writing;
  }

  for (const Counters& c : counters) {
    h.invalid_points += c.invalid;
    h.degenerate_points += c.degenerate;
  }

  const auto t_commit = Clock::now();
  h = writer.commit(h);  // the report's header is the file's, checksum table hash included
  report.writing_seconds = seconds_since(t_commit);
  report.read_back_seconds = writer.read_back_seconds();
  report.total_seconds = seconds_since(t0);
  return report;
}

}  // namespace surfdb
