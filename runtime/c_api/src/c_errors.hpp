// What the C API's sources share: the calling thread's last error and the guard that turns C++
// exceptions into statuses, so that none crosses the C boundary.
#pragma once

#include <exception>
#include <stdexcept>
#include <string>

#include "surfdb/formats/error.hpp"
#include "surfdb/surfdb.h"

namespace surfdb::capi {

/// Records `message` as the calling thread's last error (surfdb_last_error) and returns `status`.
surfdb_status fail(surfdb_status status, const std::string& message);

/// Runs f, turning exceptions into statuses.
template <class F>
surfdb_status guarded(F&& f) {
  try {
    f();
    return SURFDB_OK;
  } catch (const FormatError& e) {
    return fail(SURFDB_ERROR_FILE, e.what());
  } catch (const std::invalid_argument& e) {
    return fail(SURFDB_ERROR_ARGUMENT, e.what());
  } catch (const std::exception& e) {
    return fail(SURFDB_ERROR_INTERNAL, e.what());
  } catch (...) {
    return fail(SURFDB_ERROR_INTERNAL, "unknown error");
  }
}

}  // namespace surfdb::capi
