# find_package(deltasplit) from an outside project: installs the package of BUILD_DIR (with
# msplit's where the build has CUDA) into WORK_DIR/prefix, then configures, builds and runs
# examples/ against it on a copy of GRAPH (its binary cache is written beside the copy). On a
# machine without a GPU the example runs on the CPU. Run by CTest with cmake -P.
file(REMOVE_RECURSE ${WORK_DIR})
function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "deltasplit consumer test: ${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(step_out "${out}${err}" PARENT_SCOPE)
endfunction()
if(WITH_CUDA)
  run_step("install msplit" ${CMAKE_COMMAND} --install ${BUILD_DIR} --component msplit --prefix ${WORK_DIR}/prefix)
endif()
run_step("install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --component deltasplit --prefix ${WORK_DIR}/prefix)
run_step("configure" ${CMAKE_COMMAND} -S ${EXAMPLE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
         -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHS}
         -DCMAKE_BUILD_TYPE=Release)
run_step("build" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
get_filename_component(name ${GRAPH} NAME)
file(COPY ${GRAPH} DESTINATION ${WORK_DIR})
run_step("the example" ${WORK_DIR}/build/shortest_paths ${WORK_DIR}/${name} ${SOURCE})
message(STATUS "shortest_paths:\n${step_out}")
foreach(want "distance to 1: 0" "reached" "k-core \\((gpu|cpu)\\): degeneracy [0-9]+")
  if(NOT step_out MATCHES "${want}")
    message(FATAL_ERROR "deltasplit consumer test: the example's output lacks '${want}'")
  endif()
endforeach()
