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
