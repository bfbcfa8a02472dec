// The marble ball (R 10 mm, 11 g) dropped into the fixed cup (inner R 50 mm) with Hertz contact,
// in the caller's own time loop (velocity Verlet, 1 us steps), contact detection by surfdb's C++
// runtime on the lookup tables. Prints the impact as "name value" lines, the same numbers as
// samples/embedding/c/ball_in_cup.c.
// Usage: ball_in_cup BALL.sdb CUP.sdb   (samples/slider_crank_cup_ball/tables after prepare.sh)
#include <cmath>
#include <cstdio>
#include <exception>
#include <surfdb/contact/contact_newton.hpp>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: ball_in_cup BALL.sdb CUP.sdb\n");
    return 2;
  }
  constexpr double dt = 1e-6;            // s
  constexpr double stiffness = 5.0181e9;  // N/m^1.5, Machado, Flores and Ambrósio 2014, Table 3
  constexpr double mass = 0.011;         // kg
  const Eigen::Vector3d gravity(0, 0, -9.81);
  try {
    // The tables lie in their bodies' axes; the cup's body frame sits at its sphere's centre.
    surfdb::FreeformContact contact(surfdb::Database::open(argv[1]), {}, surfdb::Database::open(argv[2]), {});
    surfdb::BodyState ball, cup;
    ball.pose.r = {0, 0, -0.035};  // 5 mm above the bottom, at rest
    Eigen::Vector3d force = Eigen::Vector3d::Zero();
    double first_contact = -1, last_contact = 0, impact_speed = 0, max_indentation = 0;
    for (long step = 1; step <= 100000; ++step) {
      const double t = step * dt;
      ball.velocity += 0.5 * dt * (force / mass + gravity);
      ball.pose.r += dt * ball.velocity;
      const surfdb::ContactResult r = contact.evaluate(ball, cup);
      if (static_cast<int>(r.status) > 1)
        std::fprintf(stderr, "ball_in_cup: detection %s at t = %g s\n", surfdb::contact_status_name(r.status), t);
      const double f = r.in_contact() ? stiffness * std::pow(r.indentation, 1.5) : 0;  // N, along the cup's normal
      force = f * r.normal;
      ball.velocity += 0.5 * dt * (force / mass + gravity);
      const double speed = ball.velocity.norm();
      if (r.in_contact()) {
        if (first_contact < 0) first_contact = t, impact_speed = speed;
        last_contact = t;
        max_indentation = std::max(max_indentation, r.indentation);
      } else if (first_contact >= 0) {  // the ball has left the cup's surface: the rebound
        std::printf("first_contact_time %.12e\n", first_contact);
        std::printf("impact_speed %.12e\n", impact_speed);
        std::printf("max_indentation %.12e\n", max_indentation);
        std::printf("contact_duration %.12e\n", last_contact - first_contact);
        std::printf("rebound_speed %.12e\n", speed);
        return 0;
      }
    }
    std::fprintf(stderr, "ball_in_cup: no rebound within 0.1 s\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ball_in_cup: %s\n", e.what());
    return 1;
  }
}
