# hand-made: the graph of k4_tail.el (K4 on 0..3, vertex 4 hanging off 0) with
# both directions of every edge listed, as a general file of an undirected
# graph lists them: kcore and tc take it as undirected as it is, with no note.
0 1
1 0
0 2
2 0
0 3
3 0
1 2
2 1
1 3
3 1
2 3
3 2
0 4
4 0
