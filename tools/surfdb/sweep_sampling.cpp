#include "sweep_sampling.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace surfdb::cli {

std::uint64_t SplitMix64::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t SplitMix64::below(std::uint64_t n) {
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;  // draws at or above it are biased
  for (;;)
    if (const std::uint64_t x = next(); x < limit) return x % n;
}

std::vector<double> linear_range(double a, double b, std::size_t count) {
  std::vector<double> out;
  for (std::size_t k = 0; k < count; ++k) {
    // The ends exactly as given; between them a + (b - a) k / (count - 1).
    if (k == 0) out.push_back(a);
    else if (k + 1 == count) out.push_back(b);
    else out.push_back(a + (b - a) * static_cast<double>(k) / static_cast<double>(count - 1));
  }
  return out;
}

std::vector<double> uniform_samples(double a, double b, std::size_t count, std::uint64_t seed) {
  SplitMix64 rng(seed);
  std::vector<double> out;
  for (std::size_t k = 0; k < count; ++k) out.push_back(a + (b - a) * rng.unit());
  return out;
}

std::vector<double> latin_hypercube(double a, double b, std::size_t count, std::uint64_t seed) {
  SplitMix64 rng(seed);
  std::vector<std::size_t> stratum(count);
  std::iota(stratum.begin(), stratum.end(), std::size_t{0});
  for (std::size_t k = count; k > 1; --k) std::swap(stratum[k - 1], stratum[rng.below(k)]);  // Fisher-Yates
  std::vector<double> out;
  const double n = static_cast<double>(count);
  for (std::size_t k = 0; k < count; ++k) {
    const double x = a + (b - a) * ((static_cast<double>(stratum[k]) + rng.unit()) / n);
    out.push_back(std::min(x, std::nextafter(b, a)));  // rounding never reaches b (a < b)
  }
  return out;
}

}  // namespace surfdb::cli
