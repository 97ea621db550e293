// The canary built as C++17: the GPU tests include the harness from C++.
#include "harness_canary.c"
