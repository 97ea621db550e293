/* The one seam through which tests and measurements reach into the programs.
 *
 * The shipped programs (sssp, kcore, tc) link lab_none.c: ds_lab_getenv
 * answers NULL, so they read no variable of their own from the environment
 * and nothing can be injected. Their lab builds (sssp_lab, kcore_lab,
 * tc_lab: the same code, built for the tests and bench/) link lab_env.c,
 * where it is getenv. The variables read through it:
 *   DS_TEST_CORRUPT=1         every result spoiled before its validation (exit 3)
 *   DS_TEST_HOST_MEM=BYTES    the host memory available (exit 5)
 *   DS_TEST_DEVICE_MEM=BYTES  the device memory free (a graph that does not fit)
 *   DS_GPU_*                  the GPU SSSP engines' knobs (app/sssp/gpu_options.h)
 *   DS_CPU_*                  the CPU delta-stepping's limits (app/sssp/run.c)
 *   DS_KCORE_GPU_VARIANT      the k-core kernel's variants (ds_kcore_gpu_options_variant)
 */
#ifndef DS_LAB_H
#define DS_LAB_H

#include "ds/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The value of lab variable `name`, or NULL (always NULL in the shipped programs). */
const char *ds_lab_getenv(const char *name);

/* At a program's start: the memory caps of DS_TEST_HOST_MEM and
 * DS_TEST_DEVICE_MEM applied (ds_host_mem_set_cap, ds_device_set_mem_cap).
 * DS_ERR_ARG names a variable that is not a whole number. */
ds_status ds_lab_start(ds_error *err);

/* Lab variable `name` as an integer in *out (0 when absent); DS_ERR_ARG, naming the variable, its
 * value and `what` it must be, when it is not one (or is negative and may not be). */
ds_status ds_lab_number(const char *name, int may_be_negative, const char *what, long long *out,
                        ds_error *err);

/* Whether results are to be spoiled before validation (DS_TEST_CORRUPT). */
int ds_lab_corrupt(void);

#ifdef __cplusplus
}
#endif
#endif /* DS_LAB_H */
