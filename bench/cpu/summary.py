#!/usr/bin/env python3
"""Summarises bench/cpu/vs_gap.sh's lines (stdin or files): per graph and threads, each
program's median over the repeats of its per-run medians, the range of those, the fastest
trial of all (on a shared host the least disturbed), and GAP at its best delta beside ours at
its automatic one, by medians and by fastest trials (ratio > 1: ours is faster). Ours at given
deltas (program ours-fixed, base-fixed) is listed, not compared: the target is the rule's."""
import collections
import fileinput
import statistics

runs = collections.defaultdict(list)
fastest = {}
for line in fileinput.input():
    f = line.split()
    if len(f) >= 6:
        key = (f[0], f[1], f[2], f[3])
        runs[key].append(float(f[4]))
        fastest[key] = min(fastest.get(key, float("inf")), float(f[5]))
cases = sorted({(g, t) for g, t, _, _ in runs}, key=lambda c: (c[0], int(c[1])))
for g, t in cases:
    print("%s, %s threads" % (g, t))
    best, best_min = {}, {}
    for (g2, t2, prog, d), x in sorted(runs.items()):
        if (g2, t2) != (g, t):
            continue
        m = statistics.median(x)
        lo = fastest[(g2, t2, prog, d)]
        print("  %-5s delta %-8s median %8.2f ms  range %.2f-%.2f (%d runs)  fastest %.2f"
              % (prog, d, m, min(x), max(x), len(x), lo))
        if prog not in best or m < best[prog][0]:
            best[prog] = (m, d)
        if prog not in best_min or lo < best_min[prog][0]:
            best_min[prog] = (lo, d)
    for other in sorted(p for p in best if p != "gap" and not p.endswith("-fixed")):
        if "gap" in best:
            print("  GAP at its best / %s: %.2fx by medians (GAP's delta %s), %.2fx by fastest (%s)"
                  % (other, best["gap"][0] / best[other][0], best["gap"][1],
                     best_min["gap"][0] / best_min[other][0], best_min["gap"][1]))
