# hand-made: K4 on 0..3 (4 triangles, 3 through each of its vertices, core
# number 3) and vertex 4 hanging off 0 (no triangle, core number 1). Directed
# lines with both directions of some edges, a repeated edge and a self loop,
# which the undirected graph drops.
0 1
0 2
0 3
1 2
1 3
2 3
0 4
1 0
3 2
3 2
4 4
