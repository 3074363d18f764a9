#pragma once

#include "protocol/Policy.h"

namespace sandbox::test {

// The one policy under which a test launcher that runs plain host processes may run
// anything: it restricts no dimension (Policy::restrictedDimensions() is empty), so the
// engine's confinement check asks nothing of a launcher that enforces nothing. Tests of
// activation mechanics set it; tests of confinement use the real auto launcher.
Policy unconfinedPolicy();

} // namespace sandbox::test
