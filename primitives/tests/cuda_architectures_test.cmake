# Configures the standalone msplit project (PRIMITIVES_DIR) in WORK_DIR, without and with an
# architecture request, and checks the CMAKE_CUDA_ARCHITECTURES each configure settles on.
# Run by CTest with cmake -P.
file(REMOVE_RECURSE ${WORK_DIR})
# env: NAME=VALUE for the environment of the configure, or ""; option: a -D option, or "".
function(expect_archs what want env option)
  set(dir ${WORK_DIR}/${what})
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=CUDAARCHS ${env}
                          ${CMAKE_COMMAND} -S ${PRIMITIVES_DIR} -B ${dir} -G ${GENERATOR} ${option}
                          -DCMAKE_CUDA_COMPILER=${CUDA_COMPILER} -DMSPLIT_BUILD_TESTS=OFF -DMSPLIT_BUILD_BENCH=OFF
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what}: configure failed (${rc}):\n${out}\n${err}")
  endif()
  file(STRINGS ${dir}/CMakeCache.txt line REGEX "^CMAKE_CUDA_ARCHITECTURES:")
  string(REGEX REPLACE "^[^=]*=" "" got "${line}")
  if(NOT got STREQUAL want)
    message(FATAL_ERROR "${what}: CMAKE_CUDA_ARCHITECTURES is '${got}', want '${want}'")
  endif()
  message(STATUS "${what}: CMAKE_CUDA_ARCHITECTURES = ${got}")
endfunction()
expect_archs(default 90 "" "")
expect_archs(option 80 "" -DCMAKE_CUDA_ARCHITECTURES=80)
expect_archs(environment 86 CUDAARCHS=86 "")
