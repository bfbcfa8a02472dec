// What the integrators advance: a first-order system ydot = f(t, y) of fixed size.
#pragma once

#include <vector>

namespace surfdb {

/// Which parts of f depend on which parts of y, for an implicit integrator's finite-difference
/// Jacobian. The state is cut into blocks of consecutive components (a body's 13); components
/// outside every block feed back into nothing (f does not depend on them: the dissipated energy),
/// and their own rows may be taken as independent of y (they are integrals of the state, whose
/// Newton iteration converges with the state's). affects[b] lists the blocks whose rows the
/// columns of block b may change, b itself included: blocks affecting no row in common can be
/// perturbed in one evaluation of f.
struct JacobianBlocks {
  std::vector<int> first, size;             // per block: its first component and its length
  std::vector<std::vector<int>> affects;    // per block: blocks, ascending
};

class OdeSystem {
 public:
  virtual ~OdeSystem() = default;
  virtual int size() const = 0;
  virtual void derivative(double t, const double* y, double* ydot) = 0;
  /// Projects y back onto its invariants after an accepted fixed step (unit Euler parameters).
  virtual void normalise(double* /*y*/) const {}
  /// The structure of the Jacobian at the last derivative(), if the system knows it (false: dense).
  virtual bool jacobian_blocks(JacobianBlocks& /*blocks*/) const { return false; }
};

}  // namespace surfdb
