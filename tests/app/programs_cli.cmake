# The kcore and tc programs end to end, as sssp's cases above (cli_case.sh: exit code, message,
# --output against hand-made answers, --json against check_json). Included by CMakeLists.txt.
foreach(prog kcore tc)
  if(NOT TARGET ${prog})
    continue()
  endif()
  set(P $<TARGET_FILE:${prog}>)
  set(PL $<TARGET_FILE:${prog}_lab>) # the lab build (app/common/lab.h)
  set(PF ${F}/${prog})
  file(MAKE_DIRECTORY ${PF})
  if(prog STREQUAL "kcore")
    set(TOTAL "degeneracy")
  else()
    set(TOTAL "triangles")
  endif()
  # bundled graphs, every algorithm checked against the oracle
  ds_add_cli_test(${prog}_ny 0 "cpu .* passed" -- ${P} --graph ${SETS}/NY.mtx.gz --validate
                  --algo all --trials 1 ${CACHE_ARGS})
  ds_add_cli_test(${prog}_delaunay 0 "oracle .* passed" -- ${P} --graph ${SETS}/delaunay_n16.mtx.gz
                  --validate --algo cpu,oracle --trials 2 --threads 2 ${CACHE_ARGS})
  # a directed graph is made undirected, with one note
  ds_add_cli_test(${prog}_directed 0 "rome99.gr is directed: every arc is taken as an undirected edge"
                  -- ${P} --graph ${SETS}/rome99.gr --validate --trials 1 ${CACHE_ARGS})
  # one that lists both directions of every edge is undirected as it is: no note, no rebuild
  ds_add_cli_test(${prog}_both_directions 0 "passed" --absent "is directed"
                  --golden ${PF}/k4_both.out ${DATA}/k4_tail.${prog}.golden
                  -- ${P} --graph ${DATA}/k4_both.el --output ${PF}/k4_both.out --validate --no-cache)
  # --output against hand-made answers (self loop, repeated and reversed lines dropped)
  ds_add_cli_test(${prog}_output 0 "passed" --golden ${PF}/k4_tail.out ${DATA}/k4_tail.${prog}.golden
                  -- ${P} --graph ${DATA}/k4_tail.el --output ${PF}/k4_tail.out --validate --no-cache)
  ds_add_cli_test(${prog}_json 0 "passed" --json-check $<TARGET_FILE:check_json> ${PF}/report.json
                  -- ${P} --graph ${DATA}/k4_tail.el --graph ${DATA}/tiny.mtx --json ${PF}/report.json
                  --validate --algo all --trials 2 --no-cache)
  # --validate: a spoiled result fails, exit 3, and the report says so
  ds_add_cli_test(${prog}_validation_failure 3 "validation failed: (cpu|gpu) on k4_tail: ${TOTAL}"
                  -- env DS_TEST_CORRUPT=1 ${PL} --graph ${DATA}/k4_tail.el --validate --no-cache)
  # the shipped program reads none of the lab's variables: nothing is injected
  ds_add_cli_test(${prog}_lab_ignored 0 "passed" -- env DS_TEST_CORRUPT=1 DS_TEST_HOST_MEM=1000
                  ${P} --graph ${DATA}/k4_tail.el --validate --no-cache)
  # a failed validation leaves --output as it was, and a run that fails before
  # any result leaves --json as it was
  ds_add_cli_test(${prog}_output_validation_failure 3 "--output .*/${prog}_vf.out not written: validation failed"
                  --before "echo old > ${PF}/${prog}_vf.out" --after "test \"$(cat ${PF}/${prog}_vf.out)\" = old"
                  -- env DS_TEST_CORRUPT=1 ${PL} --graph ${DATA}/k4_tail.el --validate --no-cache
                  --output ${PF}/${prog}_vf.out)
  ds_add_cli_test(${prog}_json_failed_load 2 "--json .*/${prog}_jk.json not written: the run failed before it had results"
                  --before "echo '{\"good\": 1}' > ${PF}/${prog}_jk.json" --after "grep -q good ${PF}/${prog}_jk.json"
                  -- ${P} --graph ${DATA}/no_such_graph.mtx --no-cache --json ${PF}/${prog}_jk.json)
  # a regular file under /dev is replaced, not appended to (SHM: CMakeLists.txt)
  if(DEFINED SHM)
    ds_add_cli_test(${prog}_output_dev_shm 0 "^$"
      --before "rm -rf ${SHM}_${prog} && mkdir -p ${SHM}_${prog} && cp ${DATA}/k4_tail.${prog}.golden ${SHM}_${prog}/r.out && echo '{}' > ${SHM}_${prog}/r.json"
      --after "cmp ${DATA}/k4_tail.${prog}.golden ${SHM}_${prog}/r.out && $<TARGET_FILE:check_json> ${SHM}_${prog}/r.json && rm -rf ${SHM}_${prog}"
      -- ${P} --graph ${DATA}/k4_tail.el --no-cache --quiet --output ${SHM}_${prog}/r.out --json ${SHM}_${prog}/r.json)
  endif()
  # the GPU backend: refused without a GPU (hidden here), and where the graph does not
  # fit the device (its free memory replaced by the test hook: skipped without a GPU)
  ds_add_cli_test(${prog}_gpu 4 "gpu needs a GPU" -- env CUDA_VISIBLE_DEVICES= ${P}
                  --graph ${DATA}/k4_tail.el --algo gpu --no-cache)
  ds_add_cli_test(${prog}_gpu_memory 4 "gpu needs a GPU|does not fit on the GPU: needs .* GB, 0.00 GB available"
                  -- env DS_TEST_DEVICE_MEM=1000 ${PL} --graph ${SETS}/rome99.gr --algo gpu
                  --no-cache)
  # the host memory: refused with what is needed and available, exit 5 as sssp
  ds_add_cli_test(${prog}_memory 5 "the run needs about .* MiB of host memory .*, but 0.0 MiB are available"
                  -- env DS_TEST_HOST_MEM=1000 ${PL} --graph ${SETS}/rome99.gr --no-cache)
  # generated graphs: oracle and backend agree
  if(TARGET graphgen)
    # an undirected one is written symmetric: graphgen's cache is used as it is, no note
    ds_add_cli_test(${prog}_gen_symmetric 0 "cache hit" --absent "is directed"
      --before "rm -f ${PF}/gen_sym.mtx ${PF}/gen_sym.mtx.dscache && $<TARGET_FILE:graphgen> kron --scale 9 --quiet -o ${PF}/gen_sym.mtx"
      -- ${P} --graph ${PF}/gen_sym.mtx --validate --trials 1 --threads 2)
    foreach(kind "kron --scale 9" "grid --rows 20 --cols 30" "rmat --n 600 --m 5000")
      string(REGEX REPLACE " .*" "" kname "${kind}")
      ds_add_cli_test(${prog}_gen_${kname} 0 "(cpu|gpu) .* passed"
        --before "$<TARGET_FILE:graphgen> ${kind} --no-cache --quiet -o ${PF}/${kname}.mtx"
        -- ${P} --graph ${PF}/${kname}.mtx --validate --trials 1 --threads 2 --no-cache)
    endforeach()
  endif()
  # configuration files: the program's keys, not sssp's
  ds_add_cli_test(${prog}_config 0 "oracle .* passed" -- bash -c
    "cd '${DATA}' && '${P}' --config <(echo '{\"graph\": \"k4_tail.el\", \"algo\": [\"cpu\", \"oracle\"], \"validate\": true, \"no_cache\": true}')")
  ds_add_cli_test(${prog}_config_sssp_key 1 "good.json: key \"algo\": unknown algorithm 'dijkstra'|good.json: key \"delta\": unknown key \\(known: graph, algo,"
    -- ${P} --config ${DATA}/good.json)
  # bad invocations and input
  ds_add_cli_test(${prog}_help 0 "exit codes" -- ${P} --help)
  ds_add_cli_test(${prog}_version 0 "${prog} \\(deltasplit\\)" -- ${P} --version)
  ds_add_cli_test(${prog}_no_graph 1 "no graph given" -- ${P} --trials 2)
  ds_add_cli_test(${prog}_sssp_option 1 "unknown option '--source'" -- ${P} --graph ${DATA}/tiny.mtx --source 1)
  ds_add_cli_test(${prog}_bad_algo 1 "unknown algorithm 'dijkstra' \\(known: cpu, oracle, gpu, all\\)" -- ${P}
                  --graph ${DATA}/tiny.mtx --algo dijkstra)
  ds_add_cli_test(${prog}_bad_trials 1 "--trials: 0 is out of range" -- ${P} --graph ${DATA}/tiny.mtx --trials 0)
  ds_add_cli_test(${prog}_missing_file 2 "no_such_graph.mtx: cannot open: No such file" -- ${P}
                  --graph ${DATA}/no_such_graph.mtx --no-cache)
  ds_add_cli_test(${prog}_bad_mtx 2 "bad_entry.mtx:4: column index 'x' is not a number" -- ${P}
                  --graph ${DATA}/bad_entry.mtx --no-cache)
  # a stream that cannot be a graph stops at its first chunk: the writer is cut off (SIGPIPE)
  # with data left, and gzip that would inflate forever ends; comments before a late header
  # are bounded in gzip too
  ds_add_cli_test(${prog}_stream_nul 2 "the writer was cut off \\(141\\)" -- bash -c
    "(head -c 64M /dev/zero || echo \"the writer was cut off ($?)\" >&2) | '${P}' --graph /dev/stdin --no-cache")
  ds_add_cli_test(${prog}_stream_gzip 2 "/dev/stdin:1: cannot tell the format" -- timeout 60 bash -c
    "yes | gzip -1 | '${P}' --graph /dev/stdin --no-cache")
  ds_add_cli_test(${prog}_gzip_late_header 2 "late_header.mtx.gz:[0-9]+: more comment and blank lines than a graph file holds"
    --before "echo '%%MatrixMarket matrix coordinate pattern general' > ${PF}/late_header.mtx && yes %%%%%%%%%%%%%%% | head -c 24M >> ${PF}/late_header.mtx && echo 3 3 1 >> ${PF}/late_header.mtx && echo 1 2 >> ${PF}/late_header.mtx && gzip -1 -f ${PF}/late_header.mtx"
    -- ${P} --graph ${PF}/late_header.mtx.gz --no-cache)
  ds_add_cli_test(${prog}_output_two_graphs 1 "--output needs a single graph$" -- ${P}
                  --graph ${DATA}/tiny.mtx --graph ${DATA}/k4_tail.el --output ${PF}/two.out)
  ds_add_cli_test(${prog}_output_is_input 2 "--output .*k4_tail.el is the input graph" -- ${P}
                  --graph ${DATA}/k4_tail.el --output ${DATA}/k4_tail.el --no-cache)
  # --quiet: nothing but errors, even with a directed input's note to give
  ds_add_cli_test(${prog}_quiet 0 "^$" -- ${P} --graph ${DATA}/k4_tail.el --no-cache --quiet --validate
                  --output /dev/null --json /dev/null)
  ds_add_cli_test(${prog}_device 1 "device 7 does not exist" -- ${P} --graph ${DATA}/tiny.mtx --device 7)
endforeach()

# tc's bitmaps, one a thread, are in its host-memory estimate and named: rome99's
# 3,353 vertices take 432 bytes a bitmap, 216 KiB for 512 threads, beyond the 146 KiB given
if(TARGET tc)
  ds_add_cli_test(tc_memory_bitmaps 5 "per-thread bitmaps 0.2 \\(512 threads\\), .* but 0.1 MiB are available"
                  -- env DS_TEST_HOST_MEM=150000 $<TARGET_FILE:tc_lab> --graph ${SETS}/rome99.gr
                  --algo cpu --threads 512 --no-cache)
endif()

# OpenMP threads that cannot start (4096 stacks beyond a 1 GB address space) are an
# error naming them, exit 5, not libgomp's exit 1; no test under AddressSanitizer,
# whose shadow memory alone passes such a limit
if(NOT DS_SANITIZE)
  foreach(prog sssp kcore tc)
    if(TARGET ${prog})
      ds_add_cli_test(${prog}_threads_limit 5 "${prog}: cannot start 4096 threads: .*give fewer --threads"
                      -- bash -c "ulimit -v 1000000 && exec '$<TARGET_FILE:${prog}>' --graph '${DATA}/tiny.mtx' --no-cache --threads 4096")
    endif()
  endforeach()
endif()
