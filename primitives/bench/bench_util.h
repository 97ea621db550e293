// Helpers shared by msplit's benchmark programs (not the library): argument lists, the status
// check that exits, a hash for generating inputs on the device, CUDA-event timing (warm-up, then
// the median of many trials), a reusable device buffer, and the JSON file's common header.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "msplit/core.h"
#include "../common/check_cuda.h"

namespace bench {

#define MS(call)                                                                                   \
  do {                                                                                             \
    msplit_status s_ = (call);                                                                     \
    if (s_ != MSPLIT_SUCCESS) {                                                                    \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, msplit_last_error_message()); \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

// "a,b,c" -> {"a", "b", "c"} (empty items dropped).
inline std::vector<std::string> split_list(const std::string &s) {
  std::vector<std::string> out;
  size_t p = 0;
  while (p <= s.size()) {
    size_t q = s.find(',', p);
    if (q == std::string::npos) q = s.size();
    if (q > p) out.push_back(s.substr(p, q - p));
    p = q + 1;
  }
  return out;
}

// A 64-bit mix (splitmix64's finaliser), low 32 bits: a counter-based generator for device-side
// inputs, so that every trial and every method sees the same data.
__host__ __device__ __forceinline__ uint32_t hash32(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return uint32_t(x);
}

struct timing {
  double median_ms, min_ms, max_ms;
};

// Times f (which queues work on the default stream) with CUDA events: one warm-up run, then
// `trials` runs, each waited for; returns the median, min and max.
struct timer {
  cudaEvent_t a, b;
  timer() {
    CHECK_CUDA(cudaEventCreate(&a));
    CHECK_CUDA(cudaEventCreate(&b));
  }
  ~timer() {
    cudaEventDestroy(a);
    cudaEventDestroy(b);
  }
  // Times f after an untimed setup() before each run (the warm-up's too; setup may be a no-op):
  // for work that changes its input, such as inserts into a table that must start empty.
  template <typename S, typename F>
  timing run_after(S setup, F f, int trials) {
    std::vector<double> t;
    for (int i = 0; i <= trials; ++i) {
      setup();
      CHECK_CUDA(cudaEventRecord(a));
      f();
      CHECK_CUDA(cudaEventRecord(b));
      CHECK_CUDA(cudaEventSynchronize(b));
      float ms = 0;
      CHECK_CUDA(cudaEventElapsedTime(&ms, a, b));
      if (i) t.push_back(ms);  // the first is the warm-up
    }
    CHECK_CUDA(cudaGetLastError());
    std::sort(t.begin(), t.end());
    return {t[t.size() / 2], t.front(), t.back()};
  }
  template <typename F>
  timing run(F f, int trials) {
    return run_after([] {}, f, trials);
  }
  template <typename F>
  void run(F f, int trials, double &med, double &mn, double &mx) {
    const timing r = run(f, trials);
    med = r.median_ms;
    mn = r.min_ms;
    mx = r.max_ms;
  }
};

// A device buffer that only grows (temporary storage reused across calls).
struct dev_pool {
  void *p = nullptr;
  size_t cap = 0;
  void *get(size_t bytes) {
    if (bytes > cap) {
      if (p) CHECK_CUDA(cudaFree(p));
      CHECK_CUDA(cudaMalloc(&p, bytes));
      cap = bytes;
    }
    return p;
  }
};

// Bytes read + written per second by a device-to-device copy of `bytes` (the bandwidth bound
// every benchmark reports its fraction of).
inline double copy_bandwidth(size_t bytes, int trials) {
  void *src = nullptr, *dst = nullptr;
  CHECK_CUDA(cudaMalloc(&src, bytes));
  CHECK_CUDA(cudaMalloc(&dst, bytes));
  CHECK_CUDA(cudaMemset(src, 1, bytes));
  timer tm;
  const timing t = tm.run([&] { CHECK_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice)); }, trials);
  CHECK_CUDA(cudaFree(src));
  CHECK_CUDA(cudaFree(dst));
  return 2.0 * double(bytes) / (t.median_ms * 1e-3);
}

// The machine: GPU name, runtime and driver versions (prints them as a comment line).
struct machine {
  cudaDeviceProp prop;
  int runtime = 0, driver = 0;
  machine() {
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    CHECK_CUDA(cudaRuntimeGetVersion(&runtime));
    CHECK_CUDA(cudaDriverGetVersion(&driver));
  }
};

// Whether a CUDA device is present; without one, says "SKIP: no CUDA device" (a benchmark built in
// CI runs nowhere, and a caller returns 77, CTest's skip code, as the tests do).
inline bool require_device() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("SKIP: no CUDA device\n");
    return false;
  }
  return true;
}

// The options of a benchmark over sizes and configurations: --n LIST (log2 of the sizes),
// --configs LIST, --trials T, --json FILE, --commit SHA. The caller sets the defaults first;
// parse returns false, with the usage printed, on an unknown option or one without its value.
struct sweep_args {
  std::vector<std::string> ns, configs;
  int trials = 10;
  std::string json, commit;

  bool parse(int argc, char **argv, const char *name) {
    const std::string default_n = ns.empty() ? "" : ns[0];
    const int default_trials = trials;
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      const bool has = i + 1 < argc;
      if (a == "--n" && has) ns = split_list(argv[++i]);
      else if (a == "--configs" && has) configs = split_list(argv[++i]);
      else if (a == "--trials" && has) trials = std::atoi(argv[++i]);
      else if (a == "--json" && has) json = argv[++i];
      else if (a == "--commit" && has) commit = argv[++i];
      else {
        std::fprintf(stderr, "usage: %s [--n %s] [--configs ...] [--trials %d] [--json FILE] [--commit SHA]\n", name,
                     default_n.c_str(), default_trials);
        return false;
      }
    }
    return true;
  }
};

// argv joined by spaces (the command recorded in the JSON).
inline std::string command_line(int argc, char **argv) {
  std::string command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
  return command;
}

// Opens `path` and writes the fields every result file has, leaving the object open for the
// caller's "results" array (close it with "  ]\n}\n"). Returns NULL (with a message) on failure.
inline FILE *json_open(const std::string &path, const char *benchmark, const machine &mc, const std::string &commit,
                       const std::string &command, int trials, const char *bound) {
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "%s: cannot write %s\n", benchmark, path.c_str());
    return nullptr;
  }
  std::fprintf(f, "{\n  \"benchmark\": \"%s\",\n  \"gpu\": \"%s\",\n  \"cuda_runtime\": %d,\n  \"cuda_driver\": %d,\n",
               benchmark, mc.prop.name, mc.runtime, mc.driver);
  std::fprintf(f, "  \"commit\": \"%s\",\n  \"command\": \"%s\",\n  \"trials\": %d,\n  \"statistic\": \"median\",\n",
               commit.c_str(), command.c_str(), trials);
  std::fprintf(f, "  \"bound\": \"%s\",\n", bound);
  return f;
}

}  // namespace bench
