// One step of a model's integrator from C++: the time of surfdb::step(model, data) per call, best
// of three runs of STEPS steps (each from the model's initial state, after reset). The C++ side of
// bench_python_step.py, which calls the same steps through surfdb.step.
// Usage: bench_step SCENARIO STEPS [PATH=VALUE ...]   (prints "ns_per_step N")
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "surfdb/multibody/data.hpp"
#include "surfdb/scenario/scenario.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: bench_step SCENARIO STEPS [PATH=VALUE ...]\n");
    return 2;
  }
  const long steps = std::atol(argv[2]);
  const std::vector<std::string> overrides(argv + 3, argv + argc);
  const std::shared_ptr<const surfdb::Model> model = surfdb::load_model(argv[1], overrides);
  surfdb::Data data(model);
  double best = 1e300;
  for (int run = 0; run < 3; ++run) {
    surfdb::reset(*model, data);
    const auto t0 = std::chrono::steady_clock::now();
    for (long k = 0; k < steps; ++k) surfdb::step(*model, data);
    const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
    best = std::min(best, dt.count());
  }
  std::printf("ns_per_step %.1f\n", 1e9 * best / static_cast<double>(steps));
  return 0;
}
