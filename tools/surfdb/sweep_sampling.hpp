// The values a sweep gives one parameter (docs/sweeps.md): evenly spaced over a range, or sampled
// in it, uniformly or by Latin hypercube. Sampling uses its own generator (SplitMix64) and its
// own conversion to [0, 1), so a seed gives the same values with every compiler and library.
#pragma once

#include <cstdint>
#include <vector>

namespace surfdb::cli {

/// `count` values from a to b, both included (a alone when count is 1).
std::vector<double> linear_range(double a, double b, std::size_t count);

/// `count` values uniformly distributed in [a, b), a < b.
std::vector<double> uniform_samples(double a, double b, std::size_t count, std::uint64_t seed);

/// `count` values in [a, b), a < b, one in each of the `count` equal strata of the range, in an order
/// shuffled by `seed` (a one-dimensional Latin hypercube; zipped with other parameters sampled
/// with other seeds, a Latin hypercube design).
std::vector<double> latin_hypercube(double a, double b, std::size_t count, std::uint64_t seed);

/// SplitMix64 (Steele, Lea and Flood 2014): a small generator whose sequence is fixed by its seed.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  /// A double in [0, 1) from the top 53 bits.
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  /// A whole number in [0, n), without the bias of a plain modulo.
  std::uint64_t below(std::uint64_t n);

 private:
  std::uint64_t state_;
};

}  // namespace surfdb::cli
