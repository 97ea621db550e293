#!/usr/bin/env python3
"""Writes a road-like graph as a symmetric Matrix Market file with integer weights.

Road networks (DIMACS USA-road, OSM) have 2.4-2.8 arcs per vertex: most vertices sit on
chains between junctions. graphgen's grid has 4 and its geometric graph falls apart below
about 4.5, so this script builds an R x C grid whose edges are dropped with probability
--drop and otherwise split into a chain of 0..2 extra vertices (1 on average), each piece
with a uniform weight in MIN..MAX. Chain vertices are numbered right after the junction
that starts them, so that ids keep the locality of a road file. Deterministic for a seed.

    python3 bench/cpu/roadlike.py --rows 600 --cols 600 -o road1m.mtx    # ~1.0M vertices
"""
import argparse
import random
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=600)
    ap.add_argument("--cols", type=int, default=600)
    ap.add_argument("--drop", type=float, default=0.1, help="probability that a grid edge is missing")
    ap.add_argument("--weights", default="1:255", help="MIN:MAX of each piece's weight")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    lo, hi = (int(x) for x in a.weights.split(":"))
    rng = random.Random(a.seed)
    R, C = a.rows, a.cols
    junction = [0] * (R * C)  # 1-based id of each grid point
    edges = []
    n = 0

    def chain(u, extra):
        """Vertices of a chain leaving u (numbered now); returns its last one."""
        nonlocal n
        for _ in range(extra):
            n += 1
            edges.append((u, n, rng.randint(lo, hi)))
            u = n
        return u

    pending = []  # (last chain vertex, grid point it reaches, weight) once that point has an id
    for r in range(R):
        for c in range(C):
            n += 1
            junction[r * C + c] = n
            for dr, dc in ((0, 1), (1, 0)):
                if r + dr >= R or c + dc >= C or rng.random() < a.drop:
                    continue
                end = chain(junction[r * C + c], rng.randint(0, 2))
                pending.append((end, (r + dr) * C + c + dc, rng.randint(lo, hi)))
    for end, p, w in pending:
        edges.append((end, junction[p], w))
    with open(a.output, "w") as f:
        f.write("%%MatrixMarket matrix coordinate integer symmetric\n")
        f.write("%% road-like: %dx%d grid, drop %g, chains of 0..2, weights %s, seed %d\n"
                % (R, C, a.drop, a.weights, a.seed))
        f.write("%d %d %d\n" % (n, n, len(edges)))
        f.writelines("%d %d %d\n" % (max(u, v), min(u, v), w) for u, v, w in edges)
    print("%s: %d vertices, %d edges (%d arcs)" % (a.output, n, len(edges), 2 * len(edges)),
          file=sys.stderr)


if __name__ == "__main__":
    main()
