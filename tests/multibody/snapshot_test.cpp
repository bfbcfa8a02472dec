// Snapshots (data.hpp): save(model, data) keeps how a run got where it is, restore(model, data,
// snapshot) runs it there again. Scenes of free bodies under gravity, built in code, with states
// written by hand between steps (a kick to one body's velocity), as a script steering a run does.
#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "surfdb/multibody/data.hpp"
#include "surfdb/multibody/multibody_state.hpp"

using namespace surfdb;

namespace {

// `bodies` free spheres of 1 kg, 1 m apart along x, at rest, under gravity, with `integrator`.
std::shared_ptr<const Model> free_bodies(int bodies, IntegratorKind integrator) {
  auto model = std::make_shared<Model>();
  model->initial_state.resize(static_cast<std::size_t>(bodies) * kBodyStateSize);
  for (int b = 0; b < bodies; ++b) {
    model->multibody.bodies.push_back({"body" + std::to_string(b), 1.0, 4e-4 * Eigen::Matrix3d::Identity()});
    set_body_state(model->initial_state.data(), b, {1.0 * b, 0, 0}, Eigen::Quaterniond::Identity(), {0, 0, 0}, {0, 0, 0});
  }
  model->run.end_time = 10;
  model->run.integrator = integrator;
  model->run.step = 1e-4;  // s, for rk4
  return model;
}

// Body 0's velocity written into the run: +0.01 m/s along x and a spin about z.
void kick(Data& data) {
  double* y = data.state().data();
  y[7] += 0.01;  // v_x (multibody_state.hpp: r 0-2, Euler parameters 3-6, v 7-9, w' 10-12)
  y[12] += 0.5;
}

bool same(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

}  // namespace

TEST_CASE("a snapshot restored into another Data of the model runs on as the run went on from it, bit for bit") {
  for (const IntegratorKind integrator : {IntegratorKind::bdf, IntegratorKind::dormand_prince, IntegratorKind::rk4}) {
    CAPTURE(static_cast<int>(integrator));
    const std::shared_ptr<const Model> model = free_bodies(3, integrator);
    Data run(model);
    for (int k = 0; k < 40; ++k) {
      if (k % 10 == 3) kick(run);
      REQUIRE(step(*model, run));
    }
    REQUIRE(advance(*model, run, run.time() + 0.01));
    kick(run);  // written after the last step: the snapshot keeps it
    const Snapshot snapshot = save(*model, run);
    CHECK(snapshot.time == run.time());
    CHECK(snapshot.writes.size() == 5);
    for (int k = 0; k < 30; ++k) REQUIRE(step(*model, run));
    const double t_on = run.time();
    const std::vector<double> on = run.state();

    Data again(model);
    REQUIRE(step(*model, again));  // a run elsewhere: restore starts it afresh
    restore(*model, again, snapshot);
    CHECK(again.time() == snapshot.time);
    for (int k = 0; k < 30; ++k) REQUIRE(step(*model, again));
    CHECK(again.time() == t_on);
    CHECK(same(again.state(), on));

    // Without the kick written after the last step, the run on differs: the check above sees it.
    Snapshot without = snapshot;
    without.writes.pop_back();
    restore(*model, again, without);
    for (int k = 0; k < 30; ++k) REQUIRE(step(*model, again));
    CHECK_FALSE(same(again.state(), on));
  }
}

TEST_CASE("a snapshot of another model is refused") {
  const std::shared_ptr<const Model> a = free_bodies(1, IntegratorKind::bdf), b = free_bodies(1, IntegratorKind::bdf);
  Data data_a(a), data_b(b);
  const Snapshot snapshot = save(*a, data_a);
  CHECK_THROWS_AS(restore(*b, data_b, snapshot), std::invalid_argument);
  CHECK_THROWS_AS(save(*a, data_b), std::invalid_argument);
}

TEST_CASE("a run keeps at most 256 MiB of written states for its snapshots; restoring a state starts it again") {
  // 2,000 bodies: 26,000 numbers, 208,000 bytes a written state; the 1,291st crosses 256 MiB.
  const std::shared_ptr<const Model> model = free_bodies(2000, IntegratorKind::rk4);
  Data data(model);
  const std::size_t bytes = data.state().size() * sizeof(double);
  const std::size_t kept = (std::size_t{256} << 20) / bytes;
  REQUIRE(kept == 1290);
  for (std::size_t k = 0; k < kept; ++k) {
    kick(data);
    REQUIRE(step(*model, data));
  }
  CHECK(save(*model, data).writes.size() == kept);
  kick(data);
  REQUIRE(step(*model, data));
  CHECK_THROWS_WITH_AS(save(*model, data), doctest::Contains("256 MiB of states were written"), std::invalid_argument);
  for (int k = 0; k < 3; ++k) REQUIRE(step(*model, data));  // the run goes on
  CHECK_THROWS_AS(save(*model, data), std::invalid_argument);

  const std::vector<double> state = data.state();
  restore(*model, data, data.time(), state);
  const Snapshot fresh = save(*model, data);
  CHECK(fresh.writes.empty());
  CHECK_FALSE(fresh.from_initial);
  CHECK(same(fresh.origin_state, state));
}
