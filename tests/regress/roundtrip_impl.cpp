// The fuzz targets' property checks (fuzz/roundtrip.cpp), compiled into the regress tests so that
// every saved fuzz input is replayed through exactly the check that found it.
#include "mmdkit/version.hpp"
#if MMDKIT_HAS_PHYSICS
// The physics target's check too (fuzz/physics_check.hpp), registered by roundtrip.cpp.
#define MMDKIT_FUZZ_HAVE_PHYSICS 1
#include "../../fuzz/physics_check.cpp"
#endif
#include "../../fuzz/roundtrip.cpp"
