#!/usr/bin/env python3
"""Give a pattern Matrix Market graph (a bundled road network) integer weights of one of
graphgen's distributions, so that real road topologies can carry heavy-tailed weights too.

    reweight.py IN.mtx[.gz] OUT.mtx --weights MIN:MAX --weight-dist uniform|log|bimodal [--seed S]

sssp's --weights draws uniform weights only; this writes the weights into the file instead.
Each edge's weight depends only on the seed and its unordered pair of 0-based ends, drawn as
ds_pattern_weight hashes the pair (graph/include/ds/rng.h) and shaped as graphgen's
ds_gen_weight (graph/gen/src/gen_kinds.h): the same integer arithmetic, so a seed gives the
same file on every machine and both directions of an edge the same weight.
"""
import argparse
import gzip
import os
import sys

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def splitmix64(x):
    return mix64((x + GAMMA) & MASK)


def below(r64, n):  # ds_rng_below: multiply-shift of the high 32 bits
    return ((r64 >> 32) * n) >> 32


def uniform(r64, lo, hi):  # ds_rng_weight
    return lo + below(r64, hi - lo + 1)


def weight(dist, r64, lo, hi):  # ds_gen_weight
    if dist == "log":  # an octave first (high 32 bits), then a weight in it (low 32 bits)
        k_lo, k_hi = lo.bit_length() - 1, hi.bit_length() - 1
        k = k_lo + below(r64, k_hi - k_lo + 1)
        return uniform((r64 << 32) & MASK, max(1 << k, lo), min((1 << (k + 1)) - 1, hi))
    if dist == "bimodal":  # 1 % in the top half of the range, 99 % in its lowest 1/65536
        span = hi - lo
        if below(r64, 100) == 0:
            return uniform((r64 << 32) & MASK, hi - span // 2, hi)
        return uniform((r64 << 32) & MASK, lo, lo + span // 65536)
    return uniform(r64, lo, hi)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("src")
    ap.add_argument("dst")
    ap.add_argument("--weights", default="1:255")
    ap.add_argument("--weight-dist", choices=("uniform", "log", "bimodal"), default="uniform")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    lo, hi = (int(x) for x in a.weights.split(":"))
    if not 1 <= lo <= hi < 1 << 32:
        sys.exit(f"reweight.py: --weights {a.weights}: need 1 <= MIN <= MAX < 2^32")
    base = splitmix64(a.seed & MASK)
    opener = gzip.open if a.src.endswith(".gz") else open
    with opener(a.src, "rt") as f, open(a.dst + ".tmp", "w") as out:
        banner = f.readline().split()
        if len(banner) < 5 or banner[0] != "%%MatrixMarket" or banner[2] != "coordinate":
            sys.exit(f"reweight.py: {a.src}: not a coordinate Matrix Market file")
        out.write(f"%%MatrixMarket matrix coordinate integer {banner[4]}\n")
        out.write(f"% {a.src} with {a.weight_dist} weights {lo}:{hi}, seed {a.seed} (reweight.py)\n")
        line = f.readline()
        while line.startswith("%"):
            line = f.readline()
        out.write(line)
        for line in f:
            t = line.split()
            if len(t) < 2:
                continue
            u, v = int(t[0]) - 1, int(t[1]) - 1
            key = (min(u, v) << 32) | max(u, v)
            out.write(f"{t[0]} {t[1]} {weight(a.weight_dist, splitmix64(base ^ key), lo, hi)}\n")
    os.replace(a.dst + ".tmp", a.dst)


if __name__ == "__main__":
    main()
