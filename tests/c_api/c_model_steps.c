/* Compiled as C: a model's data stepped from plain C, as a C or Fortran program would. */
#include <stdlib.h>
#include <string.h>
#include <surfdb/model.h>

/* Opens `scenario` with its overrides, takes `steps` steps (or, when steps < 0, steps until the
 * data's time reaches end_time), copies the whole state into `state` (room for `size`) and the
 * summary into `summary`. Returns a surfdb_status. */
int c_model_steps(const char* scenario, const char* const* overrides, int override_count, long steps, double end_time,
                  double* state, int size, surfdb_run_summary* summary) {
  surfdb_model* model = 0;
  surfdb_data* data = 0;
  int status = surfdb_model_open(scenario, overrides, override_count, &model);
  if (status == SURFDB_OK) status = surfdb_data_make(model, &data);
  for (long k = 0; status == SURFDB_OK && (steps < 0 ? surfdb_data_time(data) < end_time : k < steps); ++k)
    status = surfdb_step(model, data);
  if (status == SURFDB_OK) status = surfdb_data_get_state(data, state, size);
  if (status == SURFDB_OK) status = surfdb_data_summary(data, summary);
  surfdb_data_close(data);
  surfdb_model_close(model);
  return status;
}

/* Advances to t1, saves the state, then twice restores it and advances to t2; returns 1 when both
 * runs end in the same state, bit for bit, with the same count of contact points; 0 when they
 * differ, -1 on an error. */
int c_model_restore_twice(const char* scenario, double t1, double t2) {
  surfdb_model* model = 0;
  surfdb_data* data = 0;
  int result = -1;
  if (surfdb_model_open(scenario, 0, 0, &model) != SURFDB_OK || surfdb_data_make(model, &data) != SURFDB_OK) goto done;
  {
    const int n = surfdb_data_state_size(data);
    double* saved = malloc(3 * (size_t)n * sizeof(double));
    double* after[2] = {saved + n, saved + 2 * n};
    int points[2] = {-1, -1};
    double t = 0;
    if (surfdb_advance(model, data, t1) != SURFDB_OK || surfdb_data_get_state(data, saved, n) != SURFDB_OK) goto free_state;
    t = surfdb_data_time(data);
    for (int run = 0; run < 2; ++run)
      if (surfdb_restore(model, data, t, saved, n) != SURFDB_OK || surfdb_advance(model, data, t2) != SURFDB_OK ||
          surfdb_data_get_state(data, after[run], n) != SURFDB_OK ||
          surfdb_data_contact_points(data, 0, 0, &points[run]) != SURFDB_OK)
        goto free_state;
    result = memcmp(after[0], after[1], (size_t)n * sizeof(double)) == 0 && points[0] == points[1];
  free_state:
    free(saved);
  }
done:
  surfdb_data_close(data);
  surfdb_model_close(model);
  return result;
}

/* Whether two runs ended alike: the same state bit for bit, steps, evaluations and energies. */
static int same_run(const double* a, const double* b, int n, const surfdb_run_summary* sa, const surfdb_run_summary* sb) {
  return memcmp(a, b, (size_t)n * sizeof(double)) == 0 && sa->steps == sb->steps &&
         sa->rhs_evaluations == sb->rhs_evaluations && sa->final_energy == sb->final_energy &&
         sa->dissipated_energy == sb->dissipated_energy && sa->initial_energy == sb->initial_energy &&
         sa->run_status == sb->run_status && sa->warning_count == sb->warning_count;
}

/* With the scenario's value `override` ("key=value"): advances to t_write and writes the state (body 0's x velocity += 0.01 m/s), advances to t_save
 * and saves, advances to t_end: run A. Restores the snapshot into the same data and into a new
 * one and advances each to t_end: runs B and C. Returns 1 when A, B and C end alike (same_run),
 * 0 when they differ, -1 on an error. */
int c_model_save_and_restore(const char* scenario, const char* override, double t_write, double t_save, double t_end) {
  surfdb_model* model = 0;
  surfdb_data *data = 0, *other = 0;
  surfdb_snapshot* snapshot = 0;
  int result = -1;
  if (surfdb_model_open(scenario, &override, 1, &model) != SURFDB_OK || surfdb_data_make(model, &data) != SURFDB_OK ||
      surfdb_data_make(model, &other) != SURFDB_OK)
    goto done;
  {
    const int n = surfdb_data_state_size(data);
    double* y = malloc(4 * (size_t)n * sizeof(double));
    double* after[3] = {y + n, y + 2 * n, y + 3 * n};
    surfdb_run_summary summary[3];
    surfdb_data* runs[3] = {data, data, other};
    if (surfdb_advance(model, data, t_write) != SURFDB_OK || surfdb_data_get_state(data, y, n) != SURFDB_OK) goto free_state;
    y[7] += 0.01;
    if (surfdb_data_set_state(data, y, n) != SURFDB_OK || surfdb_advance(model, data, t_save) != SURFDB_OK ||
        surfdb_save(model, data, &snapshot) != SURFDB_OK || surfdb_snapshot_time(snapshot) != surfdb_data_time(data))
      goto free_state;
    for (int run = 0; run < 3; ++run)
      if ((run > 0 && surfdb_restore_snapshot(model, runs[run], snapshot) != SURFDB_OK) ||
          (run > 0 && surfdb_data_time(runs[run]) != surfdb_snapshot_time(snapshot)) ||
          surfdb_advance(model, runs[run], t_end) != SURFDB_OK || surfdb_data_get_state(runs[run], after[run], n) != SURFDB_OK ||
          surfdb_data_summary(runs[run], &summary[run]) != SURFDB_OK)
        goto free_state;
    result = same_run(after[0], after[1], n, &summary[0], &summary[1]) &&
             same_run(after[0], after[2], n, &summary[0], &summary[2]);
  free_state:
    free(y);
  }
done:
  surfdb_snapshot_close(snapshot);
  surfdb_data_close(other);
  surfdb_data_close(data);
  surfdb_model_close(model);
  return result;
}
