/* The marble ball (R 10 mm, 11 g) dropped into the fixed cup (inner R 50 mm) with Hertz contact,
 * in the caller's own time loop (velocity Verlet, 1 us steps), contact detection by surfdb's C API
 * on the lookup tables. Prints the impact as "name value" lines; ball_in_cup.cpp, .f90 and .py do
 * the same arithmetic and print the same numbers.
 * Build: cc ball_in_cup.c $(pkg-config --cflags --libs surfdb-runtime) -lm -o ball_in_cup
 * Usage: ball_in_cup BALL.sdb CUP.sdb   (samples/slider_crank_cup_ball/tables after prepare.sh) */
#include <math.h>
#include <stdio.h>
#include <surfdb/surfdb.h>

static const double dt = 1e-6;         /* s */
static const double stiffness = 5.0181e9; /* N/m^1.5, paper 000 Table 3 */
static const double mass = 0.011;      /* kg */
static const double gravity = 9.81;    /* m/s^2, along -z */

static int check(surfdb_status s) {
  if (s != SURFDB_OK) fprintf(stderr, "ball_in_cup: %s\n", surfdb_last_error());
  return s != SURFDB_OK;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: ball_in_cup BALL.sdb CUP.sdb\n");
    return 2;
  }
  surfdb_database *ball = NULL, *cup = NULL;
  surfdb_contact* contact = NULL;
  const surfdb_mount mount = {{0, 0, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}}; /* tables in body axes */
  if (check(surfdb_open(argv[1], &ball)) || check(surfdb_open(argv[2], &cup)) ||
      check(surfdb_contact_create(ball, &mount, cup, &mount, &contact)))
    return 1;

  /* The cup's body frame sits at its sphere's centre; the ball starts 5 mm above the bottom. */
  surfdb_body_state b = {{0, 0, -0.035}, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}, {0, 0, 0}};
  const surfdb_body_state c = {{0, 0, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}, {0, 0, 0}};
  double force[3] = {0, 0, 0};
  double first_contact = -1, last_contact = 0, impact_speed = 0, max_indentation = 0;
  long step;
  for (step = 1; step <= 100000; ++step) {
    const double t = step * dt;
    int k;
    for (k = 0; k < 3; ++k) b.velocity[k] += 0.5 * dt * (force[k] / mass - (k == 2 ? gravity : 0));
    for (k = 0; k < 3; ++k) b.r[k] += dt * b.velocity[k];
    surfdb_contact_result r;
    if (check(surfdb_contact_evaluate(contact, &b, &c, &r))) return 1;
    const int touching = r.status == 1;
    if (r.status > 1) fprintf(stderr, "ball_in_cup: detection status %d at t = %g s\n", r.status, t);
    const double f = touching ? stiffness * pow(r.indentation, 1.5) : 0; /* N, along the cup's normal */
    for (k = 0; k < 3; ++k) force[k] = f * r.normal[k];
    for (k = 0; k < 3; ++k) b.velocity[k] += 0.5 * dt * (force[k] / mass - (k == 2 ? gravity : 0));
    const double speed = sqrt(b.velocity[0] * b.velocity[0] + b.velocity[1] * b.velocity[1] +
                              b.velocity[2] * b.velocity[2]);
    if (touching) {
      if (first_contact < 0) first_contact = t, impact_speed = speed;
      last_contact = t;
      if (r.indentation > max_indentation) max_indentation = r.indentation;
    } else if (first_contact >= 0) { /* the ball has left the cup's surface: the rebound */
      printf("first_contact_time %.12e\n", first_contact);
      printf("impact_speed %.12e\n", impact_speed);
      printf("max_indentation %.12e\n", max_indentation);
      printf("contact_duration %.12e\n", last_contact - first_contact);
      printf("rebound_speed %.12e\n", speed);
      break;
    }
  }
  surfdb_contact_destroy(contact);
  surfdb_close(ball);
  surfdb_close(cup);
  return step <= 100000 ? 0 : 1;
}
