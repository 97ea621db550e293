/* deltasplit: the C library of the graph codes (find_package(deltasplit),
 * target deltasplit::deltasplit). One include for all of it: graphs
 * (graph.h), a GPU context (gpu.h), shortest paths (sssp.h), k-core
 * (kcore.h), triangle counting (tc.h), statuses (status.h) and the version
 * (version.h). Every name has the prefix dsp_ (DSP_ for macros and enums).
 * docs/api.md is the guide.
 */
#ifndef DELTASPLIT_DELTASPLIT_H
#define DELTASPLIT_DELTASPLIT_H

#include "deltasplit/version.h"
#include "deltasplit/status.h"
#include "deltasplit/graph.h"
#include "deltasplit/gpu.h"
#include "deltasplit/sssp.h"
#include "deltasplit/kcore.h"
#include "deltasplit/tc.h"

#endif /* DELTASPLIT_DELTASPLIT_H */
