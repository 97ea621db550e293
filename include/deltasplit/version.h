/* deltasplit: the version of the installed C library.
 *
 * The macros give the version of the headers a program was compiled with;
 * dsp_version() the version of the library it links. They differ only where a
 * program was built against one install and runs with another; within one
 * minor version (0.1.x) the API and the layout of its structs stay the same.
 */
#ifndef DELTASPLIT_VERSION_H
#define DELTASPLIT_VERSION_H

#define DELTASPLIT_VERSION_MAJOR 0
#define DELTASPLIT_VERSION_MINOR 1
#define DELTASPLIT_VERSION_PATCH 0
/* One number that orders versions: 10000 major + 100 minor + patch. */
#define DELTASPLIT_VERSION \
  (DELTASPLIT_VERSION_MAJOR * 10000 + DELTASPLIT_VERSION_MINOR * 100 + DELTASPLIT_VERSION_PATCH)

#ifdef __cplusplus
extern "C" {
#endif

/* DELTASPLIT_VERSION of the library linked. */
int dsp_version(void);

/* Whether the library was built with CUDA (1) or with the CPU engines only
 * (0, where every GPU call returns DSP_ERR_NO_CUDA). */
int dsp_built_with_cuda(void);

#ifdef __cplusplus
}
#endif
#endif /* DELTASPLIT_VERSION_H */
