// The ball-in-cup drop of ball_in_cup.cpp, stepped by surfdb's own multibody loop instead of the
// caller's: the model (one free ball, the cup on the ground) and the contact are built in code,
// Simulation::run() integrates (Adams-Bashforth 4 at 1 us), and an observer reports the first
// impact in the same "name value" lines.
// Usage: ball_in_cup_run BALL.sdb CUP.sdb   (samples/slider_crank_cup_ball/tables after prepare.sh)
#include <cstdio>
#include <exception>
#include <surfdb/multibody/simulation.hpp>

namespace {

// Watches the accepted steps for the first impact and its rebound.
class FirstImpact : public surfdb::RunObserver {
 public:
  void accepted(const surfdb::Simulation& sim, double t, const double* y) override {
    const surfdb::ContactResult& c = sim.contacts()[0].single()->state().last;
    const double speed = surfdb::body_view(y, 0).v().norm();
    if (c.in_contact()) {
      if (first_contact < 0) first_contact = t, impact_speed = speed;
      last_contact = t;
      max_indentation = std::max(max_indentation, c.indentation);
    } else if (first_contact >= 0 && rebound_speed < 0) {
      rebound_speed = speed;
    }
  }
  double first_contact = -1, last_contact = 0, impact_speed = 0, max_indentation = 0, rebound_speed = -1;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: ball_in_cup_run BALL.sdb CUP.sdb\n");
    return 2;
  }
  try {
    surfdb::MultibodyModel model;  // gravity -9.81 m/s^2 along z
    const double mass = 0.011;     // kg, glass ball of R 10 mm
    model.bodies.push_back({"ball", mass, Eigen::Matrix3d::Identity() * 0.4 * mass * 0.01 * 0.01});
    // The tables lie in their bodies' axes; the cup's table is the ground's, centred at its origin.
    surfdb::ContactSpec contact{.name = "ball-cup", .surface_i = "ball", .surface_j = "cup", .body_i = 0,
                                .body_j = surfdb::kGround};
    contact.geometry = surfdb::FreeformSurfaces{surfdb::TableSet::open(argv[1]), surfdb::TableSet::open(argv[2])};
    contact.law = surfdb::Hertz{5.0181e9};  // N/m^1.5, Machado, Flores and Ambrósio 2014, Table 3
    std::vector<surfdb::ContactPair> pairs;
    pairs.emplace_back(std::move(contact));
    surfdb::Simulation sim(std::move(model), std::move(pairs));

    std::vector<double> y(surfdb::kBodyStateSize);  // 5 mm above the bottom, at rest
    surfdb::set_body_state(y.data(), 0, {0, 0, -0.035}, Eigen::Quaterniond::Identity(), Eigen::Vector3d::Zero(),
                           Eigen::Vector3d::Zero());
    const surfdb::RunSettings settings{.end_time = 0.04, .integrator = surfdb::IntegratorKind::ab4, .step = 1e-6};
    FirstImpact impact;
    sim.run(y, settings, impact);
    if (impact.rebound_speed < 0) {
      std::fprintf(stderr, "ball_in_cup_run: no rebound within %g s\n", settings.end_time);
      return 1;
    }
    std::printf("first_contact_time %.12e\n", impact.first_contact);
    std::printf("impact_speed %.12e\n", impact.impact_speed);
    std::printf("max_indentation %.12e\n", impact.max_indentation);
    std::printf("contact_duration %.12e\n", impact.last_contact - impact.first_contact);
    std::printf("rebound_speed %.12e\n", impact.rebound_speed);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ball_in_cup_run: %s\n", e.what());
    return 1;
  }
}
