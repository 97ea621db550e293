#!/usr/bin/python3
"""Render the benchmark JSON of bench/results/ to PNG charts in docs/img/.

    python3 bench/plot.py [--results DIR] [--out DIR]

Needs Debian's python3-matplotlib (apt-get install python3-matplotlib).

Each JSON file is matched to a chart kind by what wrote it:
  - `sssp --json` reports (bench/sssp/run.sh, one file per graph): all graphs of one GPU
    in one chart, sssp-GPU.png: the median time of every algorithm per graph, log scale, and
    the figures of reference peers where a run lists them (a "peers" list of
    {"name", "median_ms"} in the run, beside "algorithms");
  - primitive benchmarks (msplit_bench, and later ones that write the same schema: a
    "results" list of {method, mode, dist, n, m, g_elements_per_s}): one chart per file,
    STEM.png, G elements/s against m at the largest n with uniform keys, one panel per mode,
    the library's methods as lines, CUB's (and other baselines) beside them as points or
    dashed levels. A new primitive's benchmark plugs in with one PRIMITIVES entry;
  - hist_bench: msplit's and CUB's histograms against m, even and range bins side by side;
  - sort_bench and segsort_bench: msplit beside CUB per configuration (bars), in G items/s.
"""
import argparse
import glob
import json
import os
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("plot.py: matplotlib is missing: apt-get install python3-matplotlib")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Primitive benchmarks, by the "benchmark" field of their JSON. For each method name: its
# label, and whether it is ours (a line over m) or a baseline. Baselines measured at every m
# are drawn as dashed lines, those measured at one m as points, those without m (m = 0) as
# dotted levels.
PRIMITIVES = {
    "msplit_bench": {
        "title": "multisplit",
        "methods": {
            "ms_onepass": ("msplit ONEPASS (AUTO above m = 2)", True),
            "ms_direct": ("msplit DIRECT (AUTO at m = 2)", True),
            "ms_warp": ("msplit WARP", True),
            "ms_block": ("msplit BLOCK", True),
            "ms_grid": ("msplit grid_multisplit (in-kernel)", True),
            "reduced_sort": ("reduced-bit sort (labels + CUB SortPairs)", False),
            "cub_partition2": ("CUB DevicePartition, two-way", False),
            "cub_partition3": ("CUB DevicePartition, three-way", False),
            "cub_sort32": ("CUB DeviceRadixSort, 32-bit keys", False),
            "copy": ("copy (bandwidth)", False),
        },
    },
}

# SSSP algorithms in the order of the README's table, with their colours.
SSSP_ALGOS = [
    ("near-far", "#1f77b4"),
    ("multisplit", "#d62728"),
    ("sort", "#ff7f0e"),
    ("bellman-ford", "#2ca02c"),
    ("cpu-delta", "#7f7f7f"),
    ("dijkstra", "#c7c7c7"),
]
SSSP_GRAPH_ORDER = ["kron20", "kron22", "rmat-thesis", "grid-1000", "geo-1M", "NY", "BAY", "COL"]


def load(results_dir):
    docs = []
    for path in sorted(glob.glob(os.path.join(results_dir, "*.json"))):
        with open(path) as f:
            try:
                docs.append((path, json.load(f)))
            except json.JSONDecodeError as e:
                sys.exit(f"plot.py: {path}: not JSON: {e}")
    return docs


def safe(name):
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)


def sssp_chart(docs, out_dir):
    """One chart per GPU over every sssp report of that GPU."""
    by_gpu = {}
    for path, d in docs:
        gpu = (d.get("gpu") or {}).get("name", "no GPU")
        for run in d.get("runs", []):
            by_gpu.setdefault(gpu, []).append((path, d, run))
    written = []
    for gpu, runs in by_gpu.items():
        def order(item):
            name = item[2]["graph"]["name"]
            return (SSSP_GRAPH_ORDER.index(name) if name in SSSP_GRAPH_ORDER else 99, name)

        runs.sort(key=order)
        present = [a for a, _ in SSSP_ALGOS
                   if any(x["name"] == a for _, _, r in runs for x in r["algorithms"])]
        fig, ax = plt.subplots(figsize=(12.5, 4.8))
        width = 0.8 / max(1, len(present))
        for i, (_, _, run) in enumerate(runs):
            times = {a["name"]: a.get("mean_median_ms") for a in run["algorithms"]}
            for j, algo in enumerate(present):
                if times.get(algo) is None:
                    continue
                x = i - 0.4 + width * (j + 0.5)
                ax.bar(x, times[algo], width, color=dict(SSSP_ALGOS)[algo],
                       label=algo if i == 0 else None)
            for k, peer in enumerate(run.get("peers", [])):
                ax.plot(i, peer["median_ms"], marker="D", color="black", linestyle="none",
                        label=f"peer: {peer['name']}" if k == 0 and i == 0 else None)
                ax.annotate(peer["name"], (i, peer["median_ms"]), fontsize=7,
                            xytext=(4, 2), textcoords="offset points")
        labels = []
        for _, _, run in runs:
            g = run["graph"]
            labels.append(f"{g['name']}\n{g['vertices'] / 1e6:.2g}M vertices\n{g['arcs'] / 1e6:.3g}M arcs")
        ax.set_xticks(range(len(runs)))
        ax.set_xticklabels(labels, fontsize=8)
        ax.set_yscale("log")
        ax.set_ylabel("time per search, ms (median; log scale)")
        commits = sorted({d.get("commit", "?") for _, d, _ in runs})
        threads = runs[0][2]["parameters"].get("threads")
        ax.set_title(f"SSSP on {gpu}: delta auto, 10 buckets, every result validated "
                     f"(commit {', '.join(commits)}; CPU algorithms on {threads} threads)",
                     fontsize=10)
        ax.grid(axis="y", which="both", alpha=0.3)
        ax.legend(fontsize=8, ncol=len(present), loc="upper left")
        fig.tight_layout()
        out = os.path.join(out_dir, f"sssp-{safe(gpu)}.png")
        fig.savefig(out, dpi=110)
        plt.close(fig)
        written.append(out)
    return written


def primitive_chart(path, d, spec, out_dir):
    results = [r for r in d["results"] if r.get("dist") in ("uniform", "-")]
    if not results:
        return []
    n = max(r["n"] for r in results)
    results = [r for r in results if r["n"] == n]
    modes = [m for m in ("keys", "pairs") if any(r["mode"] == m and r["m"] > 0 for r in results)]
    fig, axes = plt.subplots(1, len(modes), figsize=(6.2 * len(modes), 4.4), squeeze=False)
    for ax, mode in zip(axes[0], modes):
        # copy is measured on keys: its level is the bandwidth only in the keys panel
        rows = [r for r in results if r["mode"] == mode]
        methods = [m for m in spec["methods"] if any(r["method"] == m for r in rows)]
        ms = sorted({r["m"] for r in rows if r["m"] > 0})
        for method in methods:
            label, ours = spec["methods"][method]
            pts = sorted((r["m"], r["g_elements_per_s"]) for r in rows if r["method"] == method)
            with_m = [p for p in pts if p[0] > 0]
            if ours or len(with_m) > 1:
                ax.plot([p[0] for p in with_m], [p[1] for p in with_m], marker="o",
                        markersize=3, linestyle="-" if ours else "--", label=label)
            elif with_m:
                ax.plot([p[0] for p in with_m], [p[1] for p in with_m], marker="s",
                        linestyle="none", label=label)
            elif pts:
                ax.axhline(pts[0][1], linestyle=":", color="gray" if method == "copy" else None,
                           label=f"{label}: {pts[0][1]:.0f}")
        ax.set_xscale("log", base=2)
        if ms:
            ax.set_xticks(ms)
            ax.set_xticklabels([str(m) for m in ms], fontsize=8)
        ax.set_xlabel("buckets m")
        ax.set_ylabel(f"G {mode}/s (median)")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.set_title(f"{mode}, n = 2^{n.bit_length() - 1}, uniform", fontsize=10)
        ax.legend(fontsize=7)
    return save_figure(fig, path, d, spec["title"], out_dir)


def hist_chart(path, d, out_dir):
    """hist_bench: G samples/s against m, one panel per bin kind, msplit beside CUB."""
    rows = [r for r in d["results"] if r.get("dist") == "uniform" and r.get("type") == "f32"]
    if not rows:
        return []
    n = max(r["n"] for r in rows)
    rows = [r for r in rows if r["n"] == n]
    fig, axes = plt.subplots(1, 2, figsize=(12.4, 4.4), squeeze=False)
    for ax, kind in zip(axes[0], ("even", "range")):
        for method, label, style in ((f"msplit_{kind}", "msplit", "-"), (f"cub_{kind}", "CUB", "--")):
            pts = sorted((r["m"], r["g_samples_per_s"]) for r in rows if r["method"] == method)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=3,
                    linestyle=style, label=label)
        ms = sorted({r["m"] for r in rows})
        ax.set_xscale("log", base=2)
        ax.set_xticks(ms)
        ax.set_xticklabels([str(m) for m in ms], fontsize=8)
        ax.set_xlabel("bins m")
        ax.set_ylabel("G samples/s (median)")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.set_title(f"{kind} bins, f32, n = 2^{n.bit_length() - 1}, uniform", fontsize=10)
        ax.legend(fontsize=8)
    return save_figure(fig, path, d, "histogram", out_dir)


def bars_chart(path, d, title, groups, out_dir):
    """One group of bars per configuration: groups is a list of (label, {series: G items/s})."""
    if not groups:
        return []
    series = []
    for _, vals in groups:
        series += [k for k in vals if k not in series]
    fig, ax = plt.subplots(figsize=(max(6.4, 0.9 * len(groups) + 2), 4.4))
    width = 0.8 / len(series)
    for i, name in enumerate(series):
        xs = [g + (i - (len(series) - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, [vals.get(name, 0) for _, vals in groups], width, label=name)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels([label for label, _ in groups], fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("G items/s (median, log scale)")
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=8)
    return save_figure(fig, path, d, title, out_dir)


def sort_chart(path, d, out_dir):
    groups = [(r["config"], {"msplit": r["msplit_Gitems"], "CUB DeviceRadixSort": r["cub_Gitems"]})
              for r in d["results"]]
    return bars_chart(path, d, "radix sort, n = 2^28, uniform", groups, out_dir)


def segsort_chart(path, d, out_dir):
    names = {"msplit": "msplit", "cub_stable_sort_pairs": "CUB DeviceSegmentedSort (stable)",
             "cub_segmented_radix": "CUB DeviceSegmentedRadixSort"}
    groups = []
    for r in d["results"]:
        if r["method"] not in names:
            continue
        if not groups or groups[-1][0] != r["dist"]:
            groups.append((r["dist"], {}))
        groups[-1][1][names[r["method"]]] = r["g_pairs_per_s"]
    return bars_chart(path, d, "segmented sort, u32 + u32 pairs, n = 2^26", groups, out_dir)


def hash_chart(path, d, out_dir):
    """hash_bench: M ops/s against the slabs' utilisation, one line per operation at the largest
    n, the peers' figures (the JSON's reference table) as marks at their loads."""
    rows = [r for r in d["results"] if "utilization" in r and "mops" in r]
    if not rows:
        return []
    n = max(r["log2_n"] for r in rows)
    rows = [r for r in rows if r["log2_n"] == n]
    fig, ax = plt.subplots(figsize=(7.6, 4.6))
    for op in ("insert", "find_hit", "find_miss", "mixed_10_10_40_40"):
        pts = sorted((r["utilization"], r["mops"]) for r in rows if r["op"] == op)
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=3, label=op)
    ref = d.get("reference_mops_h100_2e26", {})
    cols = ref.get("columns", [])
    markers = {"insert": "^", "find_hit": "s", "find_miss": "v"}
    for name, vals in ref.items():
        if not isinstance(vals, list) or "_" not in name:
            continue
        load = float(name.rsplit("_", 1)[1])
        for col, v in zip(cols, vals):
            ax.scatter([load], [v], marker=markers.get(col, "x"), color="gray", s=18)
        ax.annotate(name.rsplit("_", 2)[0], (load, max(vals)), fontsize=6, color="gray",
                    textcoords="offset points", xytext=(3, 3))
    ax.set_xlabel("slab utilisation (peers: their load factor)")
    ax.set_ylabel("M ops/s (median)")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.set_title(f"2^{n} unique 32-bit keys; gray: peers' insert / find hit / find miss (^ s v)",
                 fontsize=9)
    ax.legend(fontsize=8)
    return save_figure(fig, path, d, "slab hash", out_dir)


def save_figure(fig, path, d, title, out_dir):
    fig.suptitle(f"{title} on {d.get('gpu', '?')} (commit {d.get('commit', '?')})", fontsize=11)
    fig.tight_layout()
    out = os.path.join(out_dir, safe(os.path.splitext(os.path.basename(path))[0]) + ".png")
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return [out]


CHARTS = {"hist_bench": hist_chart, "sort_bench": sort_chart, "segsort_bench": segsort_chart,
          "hash_bench": hash_chart}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--results", default=os.path.join(ROOT, "bench", "results"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "img"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    docs = load(args.results)
    written = sssp_chart([(p, d) for p, d in docs if d.get("program") == "sssp"], args.out)
    for path, d in docs:
        spec = PRIMITIVES.get(d.get("benchmark"))
        if spec:
            written += primitive_chart(path, d, spec, args.out)
        elif d.get("benchmark") in CHARTS and "ablation" not in os.path.basename(path):
            written += CHARTS[d["benchmark"]](path, d, args.out)
    for w in written:
        print(os.path.relpath(w, ROOT))
    if not written:
        sys.exit(f"plot.py: no benchmark JSON to plot in {args.results}")


if __name__ == "__main__":
    main()
