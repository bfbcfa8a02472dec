/* Compiled as C: the header is plain C, and a C caller's queries work end to end. */
#include <surfdb/surfdb.h>

int c_api_query(const char* path, double u, double v, surfdb_point* out) {
  surfdb_database* db = 0;
  surfdb_binding* binding = 0;
  int status = surfdb_open(path, &db);
  if (status != SURFDB_OK) return status;
  status = surfdb_binding_create(db, 5, 5, &binding);
  if (status == SURFDB_OK) status = surfdb_query(binding, u, v, out);
  surfdb_binding_destroy(binding);
  surfdb_close(db);
  return status;
}
