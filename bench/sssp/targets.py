#!/usr/bin/env python3
"""Early exit to a target: sssp --target T against the full search, from the same source.

    bench/sssp/targets.py --sssp build/app/sssp --graph datasets/NY.mtx.gz [--algo cpu-delta]
                          [--pairs 20] [--trials 5] [--seed 1] [--threads T] [--json OUT]

Each pair is a seeded random source and a random target (vertices in the file's numbering,
drawn uniformly: on a road network a random target lies on average half-way out). For each pair
both runs are made, in alternating order so that a slow spell of a shared machine hits both
alike: the full search (with --output, for the target's distance) and the search to the target
(validated at the target against Dijkstra's full search). Each run's time is the median of its
--trials timed searches (sssp's own protocol: one untimed warm-up). The early exit is exact when
the target's distance equals the full search's in every pair.

Prints one line a pair and the summary: the mean time of each, the ratio of the means (full /
to target), the mean and median of the per-pair ratios, and how many pairs stopped early and
were exact. --json writes the same with the command, the commit and the machine.
"""
import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        sys.exit("FAILED (exit %d): %s\n%s" % (p.returncode, " ".join(cmd), p.stdout))


def median_ms(report):
    return report["runs"][0]["algorithms"][0]["per_source"][0]["median_ms"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sssp", required=True)
    ap.add_argument("--graph", required=True)
    ap.add_argument("--algo", default="cpu-delta")
    ap.add_argument("--pairs", type=int, default=20)
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--cache-dir", default=None)
    ap.add_argument("--json", default=None)
    a = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        common = [a.sssp, "--graph", a.graph, "--algo", a.algo, "--trials", str(a.trials),
                  "--quiet", "--cache-dir", a.cache_dir or tmp]
        if a.threads:
            common += ["--threads", str(a.threads)]
        # 1. the graph's size and numbering
        probe = os.path.join(tmp, "probe.json")
        run(common[:5] + ["--algo", "dijkstra", "--trials", "1", "--quiet", "--cache-dir",
                          a.cache_dir or tmp, "--json", probe])
        g = json.load(open(probe))["runs"][0]["graph"]
        n, base = int(g["vertices"]), int(g["index_base"])
        rng = random.Random(a.seed)
        pairs = []
        for i in range(a.pairs):
            s, t = base + rng.randrange(n), base + rng.randrange(n)
            full_json, full_out = os.path.join(tmp, "full.json"), os.path.join(tmp, "full.dist")
            to_json = os.path.join(tmp, "to.json")
            full = common + ["--source", str(s), "--json", full_json, "--output", full_out]
            to = common + ["--source", str(s), "--target", str(t), "--validate", "--json", to_json]
            # 2. both runs, the order alternating
            for cmd in (full, to) if i % 2 == 0 else (to, full):
                run(cmd)
            full_ms, to_ms = median_ms(json.load(open(full_json))), None
            rep = json.load(open(to_json))
            to_ms = median_ms(rep)
            tg = rep["runs"][0]["targets"]
            got = tg["paths"][0]["distance"]
            want = None
            with open(full_out) as f:
                for line in f:
                    v, d = line.split()[:2]
                    if int(v) == t:
                        want = None if d == "inf" else float(d)
                        break
            pair = {"source": s, "target": t, "full_ms": full_ms, "target_ms": to_ms,
                    "ratio": full_ms / to_ms if to_ms > 0 else None, "distance": got,
                    "exact": got == want, "stopped_early": tg["stopped_early"]}
            pairs.append(pair)
            print("source %-8d target %-8d distance %-12s full %9.3f ms  to target %9.3f ms  "
                  "%6.2fx  %s%s" % (s, t, got, full_ms, to_ms, pair["ratio"] or 0.0,
                                    "exact" if pair["exact"] else "WRONG",
                                    "" if pair["stopped_early"] else "  (ran to the end)"))
    # 3. the summary
    full_mean = statistics.mean(p["full_ms"] for p in pairs)
    to_mean = statistics.mean(p["target_ms"] for p in pairs)
    ratios = [p["ratio"] for p in pairs if p["ratio"] is not None]
    summary = {"pairs": len(pairs), "full_mean_ms": full_mean, "target_mean_ms": to_mean,
               "ratio_of_means": full_mean / to_mean, "mean_ratio": statistics.mean(ratios),
               "median_ratio": statistics.median(ratios),
               "stopped_early": sum(p["stopped_early"] for p in pairs),
               "exact": sum(p["exact"] for p in pairs)}
    print("%s on %s, %d pairs, %d trials each: full %.3f ms, to target %.3f ms on average: "
          "%.2fx (mean of the pairs' ratios %.2fx, median %.2fx); stopped early %d, exact %d of %d"
          % (a.algo, os.path.basename(a.graph), len(pairs), a.trials, full_mean, to_mean,
             summary["ratio_of_means"], summary["mean_ratio"], summary["median_ratio"],
             summary["stopped_early"], summary["exact"], len(pairs)))
    if a.json:
        try:
            commit = subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(__file__)),
                                     "rev-parse", "HEAD"], stdout=subprocess.PIPE,
                                    text=True).stdout.strip()
        except OSError:
            commit = ""
        with open(a.json, "w") as f:
            json.dump({"command": sys.argv, "commit": commit, "machine": platform.processor() or
                       platform.machine(), "cpus": os.cpu_count(), "graph": a.graph,
                       "algo": a.algo, "trials": a.trials, "seed": a.seed, "summary": summary,
                       "pairs": pairs}, f, indent=1)
    return 0 if summary["exact"] == len(pairs) else 1


if __name__ == "__main__":
    sys.exit(main())
