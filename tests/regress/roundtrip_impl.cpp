// The fuzz targets' property checks (fuzz/roundtrip.cpp), compiled into the regress tests so that
// every saved fuzz input is replayed through exactly the check that found it.
#include "../../fuzz/roundtrip.cpp"
