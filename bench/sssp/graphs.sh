# The suite's graph set, shared by run.sh and knob_sweep.sh (sourced, not run).
#   suite_graph NAME GRAPHGEN WORK_DIR ROOT
# prints the graph's file (generated into WORK_DIR on first use with fixed seeds)
# and, after a tab, the extra sssp options it needs; fails on an unknown name. The extra
# options may hold a --seed (the seed of a bundled graph's weights): callers put them after
# their own options, so that they win.
#   kron20, kron22   Graph500 Kronecker, edge factor 16, weights 1..255
#   rmat-thesis      R-MAT n=800000, m=4800000, a=0.5 b=0.1 c=0.1, weights 0..1000
#   grid-1000        1000 x 1000 grid, weights 1..255 (road-like, high diameter)
#   geo-1M           random geometric graph, 1M points, degree 8, weights 1..255
#   NY, BAY, COL     bundled DIMACS road networks, seeded weights 1..255
# Heavy-tailed weights over 1..2^24 (graphgen --weight-dist), where the bucket count decides the
# work: NAME-log (log-uniform by octaves) and NAME-bimodal (99 % in 1..256, 1 % in 2^23..2^24)
# for NAME = kron20, rmat-thesis, and the road-like grid-1000, geo-1M (random weights), NY, BAY
# and COL (the bundled topology, its weights drawn when loaded: sssp --weight-dist, seed 60).
suite_graph() {
  local name=$1 gen=$2 work=$3 root=$4 args
  case "$name" in
    kron20) args="kron --scale 20 --edge-factor 16 --weights 1:255 --seed 20" ;;
    kron22) args="kron --scale 22 --edge-factor 16 --weights 1:255 --seed 22" ;;
    rmat-thesis) args="rmat --n 800000 --m 4800000 --a 0.5 --b 0.1 --c 0.1 --weights 0:1000 --seed 30 --undirected" ;;
    grid-1000) args="grid --rows 1000 --cols 1000 --weights 1:255 --seed 40" ;;
    geo-1M) args="geo --n 1000000 --degree 8 --geo-weights random --weights 1:255 --seed 50" ;;
    kron20-log|kron20-bimodal|rmat-thesis-log|rmat-thesis-bimodal|grid-1000-log|grid-1000-bimodal|\
    geo-1M-log|geo-1M-bimodal)
      local base=${name%-*} dist=${name##*-}
      case "$base" in
        kron20) args="kron --scale 20 --edge-factor 16 --seed 20" ;;
        rmat-thesis) args="rmat --n 800000 --m 4800000 --a 0.5 --b 0.1 --c 0.1 --seed 30 --undirected" ;;
        grid-1000) args="grid --rows 1000 --cols 1000 --seed 40" ;;
        geo-1M) args="geo --n 1000000 --degree 8 --geo-weights random --seed 50" ;;
      esac
      args="$args --weights 1:16777216 --weight-dist $dist" ;;
    NY-log|NY-bimodal|BAY-log|BAY-bimodal|COL-log|COL-bimodal)
      printf '%s\t--weights 1:16777216 --weight-dist %s --seed 60\n' \
        "$root/datasets/${name%-*}.mtx.gz" "${name##*-}"; return 0 ;;
    NY|BAY|COL) printf '%s\t--weights 1:255\n' "$root/datasets/$name.mtx.gz"; return 0 ;;
    *) echo "unknown graph $name" >&2; return 1 ;;
  esac
  # shellcheck disable=SC2086
  [ -f "$work/$name.mtx" ] || "$gen" $args --quiet -o "$work/$name.mtx" >&2 || return 1
  printf '%s\t\n' "$work/$name.mtx"
}
