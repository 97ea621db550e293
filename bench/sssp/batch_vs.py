#!/usr/bin/env python3
"""Many sources at once: the batched GPU engine against the same GPU's searches back to back and
against GAP's sssp source after source on the host's cores, in one run.

    bench/sssp/batch_vs.py --sssp build/app/sssp --graph G.mtx [--graph ...] [--sources 512]
        [--algo near-far] [--b2b 32] [--trials 3] [--gap GAPDIR --gap-deltas 4096,16384,65536]
        [--threads 16] [--json OUT]

Per graph: `sssp --sources K --batch on` (its batch line: the median device time of all K
searches together, at the batch's automatic delta), `sssp --sources B --batch off` (the median
of the per-source medians, each search alone on the whole GPU, at the GPU rule's delta), and,
with --gap, GAP's sssp from G.wsg beside G.mtx (`converter -f G.mtx -b G.wsg -w`) at each given
delta, 16 random sources a run, its mean per-search time; GAP's best delta counts. Prints the
searches a second of each and the ratios (batched over back to back, batched over GAP); --json
writes them with the commands, the commit the program reports and the machine.
"""
import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile


def run(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit(f"batch_vs.py: {' '.join(cmd)} exited {p.returncode}:\n{p.stderr[-2000:]}")
    return p.stdout


def sssp_json(cmd):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        run(cmd + ["--quiet", "--json", out])
        with open(out) as f:
            return json.load(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sssp", required=True)
    ap.add_argument("--graph", action="append", required=True)
    ap.add_argument("--algo", default="near-far")
    ap.add_argument("--sources", type=int, default=512)
    ap.add_argument("--b2b", type=int, default=32, help="sources searched back to back")
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--gap", help="directory of GAP's sssp")
    ap.add_argument("--gap-deltas", default="4096,16384,65536")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--json")
    a = ap.parse_args()
    rows, commit = [], None
    for g in a.graph:
        base = [a.sssp, "--graph", g, "--algo", a.algo, "--trials", str(a.trials)]
        batched = sssp_json(base + ["--sources", str(a.sources), "--batch", "on"])
        commit = commit or batched.get("commit")
        b = batched["runs"][0]["batch"]
        b2b = sssp_json(base + ["--sources", str(a.b2b), "--batch", "off"])
        alg = b2b["runs"][0]["algorithms"][0]
        one_ms = statistics.median(s["median_ms"] for s in alg["per_source"])
        row = {"graph": os.path.basename(g), "vertices": batched["runs"][0]["graph"]["vertices"],
               "arcs": batched["runs"][0]["graph"]["arcs"], "sources": a.sources, "slots": b["slots"],
               "batch_delta": b["delta"], "batch_ms": b["median_ms"], "batch_per_s": b["searches_per_s"],
               "batch_arcs_relaxed_per_reached": b["edges_relaxed"] / max(b["reached_arcs"], 1),
               "b2b_delta": alg["delta"], "b2b_ms": one_ms, "b2b_per_s": 1e3 / one_ms}
        row["vs_b2b"] = row["batch_per_s"] / row["b2b_per_s"]
        line = (f"{row['graph']}: batched {a.sources} at delta {b['delta']:.0f}: {b['median_ms']:.1f} ms, "
                f"{row['batch_per_s']:.0f} searches/s; back to back {one_ms:.3f} ms a search "
                f"({row['b2b_per_s']:.0f}/s): {row['vs_b2b']:.1f}x")
        if a.gap:
            wsg = re.sub(r"\.mtx(\.gz)?$", "", g) + ".wsg"
            env = dict(os.environ, OMP_NUM_THREADS=str(a.threads))
            gap = {}
            for d in a.gap_deltas.split(","):
                out = run([os.path.join(a.gap, "sssp"), "-f", wsg, "-d", d, "-n", "16"], env)
                t = [1e3 * float(x) for x in re.findall(r"Trial Time:\s+([0-9.]+)", out)]
                gap[d] = statistics.mean(t)
            best = min(gap, key=gap.get)
            row.update({"gap_threads": a.threads, "gap_ms_by_delta": gap, "gap_best_delta": int(best),
                        "gap_ms": gap[best], "gap_per_s": 1e3 / gap[best]})
            row["vs_gap"] = row["batch_per_s"] / row["gap_per_s"]
            line += (f"; GAP {a.threads} threads at delta {best}: {gap[best]:.2f} ms a search "
                     f"({row['gap_per_s']:.0f}/s): {row['vs_gap']:.1f}x")
        print(line, flush=True)
        rows.append(row)
    if a.json:
        gpu = run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"]).splitlines()[0]
        with open(a.json, "w") as f:
            json.dump({"benchmark": "batch_vs", "command": sys.argv, "commit": commit, "gpu": gpu,
                       "machine": {"hostname": platform.node(), "cpus": os.cpu_count()}, "graphs": rows},
                      f, indent=1)


if __name__ == "__main__":
    main()
