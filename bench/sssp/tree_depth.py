#!/usr/bin/env python3
"""Depth in arcs of a shortest-path tree, from `sssp --predecessors --output FILE`.

    sssp --graph G --algo dijkstra --predecessors --output G.out
    python3 bench/sssp/tree_depth.py G.out [...]

A round of the GPU engines advances a path by at most its local steps + 1 arcs, so
the deepest vertex of the tree bounds the rounds from below (docs/performance.md).
Prints, per file: reached vertices, the largest distance, the deepest vertex's depth
and the mean depth.
"""
import sys


def depth(path):
    dist, pred = {}, {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            parts = line.split()
            if len(parts) < 3:
                sys.exit(f"{path}:{n}: want 'vertex distance predecessor' (run sssp with --predecessors)")
            if parts[1] == "inf":
                continue
            v = int(parts[0])
            dist[v] = float(parts[1])
            pred[v] = None if parts[2] == "-" else int(parts[2])
    hops = {}
    # a predecessor is settled before its vertex: its distance is no larger (zero-weight arcs
    # tie, so ties are walked up the chain instead)
    for v in sorted(dist, key=dist.get):
        chain = []
        u = v
        while u is not None and u not in hops:
            if len(chain) > len(dist) or u not in pred:
                sys.exit(f"{path}: the predecessors of vertex {v} do not lead to the source")
            chain.append(u)
            u = pred[u]
        base = -1 if u is None else hops[u]
        for w in reversed(chain):
            base += 1
            hops[w] = base
    return len(dist), max(dist.values(), default=0), max(hops.values(), default=0), \
        sum(hops.values()) / max(len(hops), 1)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        n, far, deepest, mean = depth(path)
        print(f"{path}: {n} reached, farthest distance {far:g}, deepest {deepest} arcs, mean {mean:.1f}")


if __name__ == "__main__":
    main()
