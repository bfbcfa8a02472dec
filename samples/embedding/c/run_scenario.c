/* A scenario file run by surfdb's own multibody loop through the C API (surfdb/simulation.h):
 * counts the output instants, keeps the first body's last position, then prints the run's and
 * every contact's summary as "name value" lines, the same figures as `surfdb simulate` writes
 * to summary.json.
 * Usage: run_scenario SCENARIO.toml [END_TIME]   (e.g. samples/slider_crank_cup_ball/hertz_analytic.toml 0.025) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <surfdb/simulation.h>

struct outputs {
  long count;
  double r[3]; /* the first body's position at the last output, m */
};

static void on_output(void* user, double t, const double* bodies, int body_count) {
  struct outputs* o = (struct outputs*)user;
  (void)t;
  ++o->count;
  if (body_count > 0) memcpy(o->r, bodies, sizeof o->r);
}

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: run_scenario SCENARIO.toml [END_TIME]\n");
    return 2;
  }
  surfdb_simulation* sim = NULL;
  if (surfdb_simulation_open(argv[1], &sim) != SURFDB_OK) {
    fprintf(stderr, "run_scenario: %s\n", surfdb_last_error());
    return 1;
  }
  struct outputs o = {0, {0, 0, 0}};
  surfdb_run_summary run;
  const double end_time = argc == 3 ? atof(argv[2]) : 0;
  if (surfdb_simulation_run(sim, end_time, on_output, &o, &run) != SURFDB_OK) {
    fprintf(stderr, "run_scenario: %s\n", surfdb_last_error());
    surfdb_simulation_close(sim);
    return 1;
  }
  printf("end_time %.17g\nsteps %lld\noutputs %ld\n", run.end_time, run.steps, o.count);
  printf("first_body_z %.17g\nenergy_initial %.17g\nenergy_final %.17g\n", o.r[2], run.initial_energy,
         run.final_energy);
  for (int k = 0; k < surfdb_simulation_contact_count(sim); ++k) {
    surfdb_contact_summary c;
    surfdb_simulation_contact(sim, k, &c);
    printf("contact%d_first_contact_time %.17g\ncontact%d_impacts %lld\ncontact%d_max_indentation %.17g\n", k,
           c.first_contact_time, k, c.impacts, k, c.max_indentation);
  }
  surfdb_simulation_close(sim);
  return 0;
}
