# FindNCCL: NVIDIA's collective communication library, for the distributed engine's GPU
# transport (app/dist/comm_nccl.c).
#
# Looks, in this order, in
#   1. NCCL_ROOT (a CMake variable or an environment variable): <root>/include, <root>/lib;
#   2. the CUDA toolkit (CUDA 13 ships nccl.h beside the other CUDA headers, and libnccl);
#   3. the folder of the nvidia-nccl Python package (pip's nvidia-nccl-cu12/-cu13) of the
#      python3 on PATH: nvidia/nccl/include and nvidia/nccl/lib, whose library has only its
#      soname, libnccl.so.2.
# Header and library are taken from the same place where one place has both, so that a header
# of one NCCL is not linked against the library of another (the program checks the two
# versions again at start-up: ds_nccl_check_version).
#
# Defines NCCL_FOUND, NCCL_INCLUDE_DIR, NCCL_LIBRARY, NCCL_VERSION (from the header) and the
# imported target NCCL::NCCL.
include(FindPackageHandleStandardArgs)

set(_nccl_roots)
if(NCCL_ROOT)
  list(APPEND _nccl_roots "${NCCL_ROOT}")
endif()
if(DEFINED ENV{NCCL_ROOT})
  list(APPEND _nccl_roots "$ENV{NCCL_ROOT}")
endif()
if(CUDAToolkit_INCLUDE_DIRS)
  foreach(_d ${CUDAToolkit_INCLUDE_DIRS})
    get_filename_component(_up "${_d}" DIRECTORY)
    list(APPEND _nccl_roots "${_up}")
  endforeach()
endif()
if(CUDAToolkit_LIBRARY_ROOT)
  list(APPEND _nccl_roots "${CUDAToolkit_LIBRARY_ROOT}")
endif()
find_program(_nccl_python NAMES python3)
if(_nccl_python)
  execute_process(COMMAND ${_nccl_python} -c
                  "import nvidia.nccl as m; print(list(m.__path__)[0])"
                  OUTPUT_VARIABLE _nccl_py_dir OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE _nccl_py_rc ERROR_QUIET)
  if(_nccl_py_rc EQUAL 0 AND EXISTS "${_nccl_py_dir}/include/nccl.h")
    list(APPEND _nccl_roots "${_nccl_py_dir}")
  endif()
endif()

# The first root that holds both the header and the library.
if(NOT NCCL_INCLUDE_DIR OR NOT NCCL_LIBRARY)
  foreach(_root ${_nccl_roots})
    find_path(_nccl_inc nccl.h PATHS "${_root}/include" NO_DEFAULT_PATH)
    find_library(_nccl_lib NAMES nccl libnccl.so.2 PATHS "${_root}/lib" "${_root}/lib64"
                 "${_root}/targets/x86_64-linux/lib" NO_DEFAULT_PATH)
    if(_nccl_inc AND _nccl_lib)
      set(NCCL_INCLUDE_DIR "${_nccl_inc}" CACHE PATH "Folder of nccl.h")
      set(NCCL_LIBRARY "${_nccl_lib}" CACHE FILEPATH "The NCCL library")
      break()
    endif()
    unset(_nccl_inc CACHE)
    unset(_nccl_lib CACHE)
  endforeach()
  unset(_nccl_inc CACHE)
  unset(_nccl_lib CACHE)
endif()

if(NCCL_INCLUDE_DIR AND EXISTS "${NCCL_INCLUDE_DIR}/nccl.h")
  file(STRINGS "${NCCL_INCLUDE_DIR}/nccl.h" _nccl_lines REGEX "^#define NCCL_(MAJOR|MINOR|PATCH) ")
  foreach(_part MAJOR MINOR PATCH)
    string(REGEX MATCH "NCCL_${_part} +([0-9]+)" _m "${_nccl_lines}")
    set(_nccl_${_part} "${CMAKE_MATCH_1}")
  endforeach()
  set(NCCL_VERSION "${_nccl_MAJOR}.${_nccl_MINOR}.${_nccl_PATCH}")
endif()

find_package_handle_standard_args(NCCL REQUIRED_VARS NCCL_LIBRARY NCCL_INCLUDE_DIR
                                  VERSION_VAR NCCL_VERSION)
if(NCCL_FOUND AND NOT TARGET NCCL::NCCL)
  add_library(NCCL::NCCL UNKNOWN IMPORTED)
  set_target_properties(NCCL::NCCL PROPERTIES IMPORTED_LOCATION "${NCCL_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${NCCL_INCLUDE_DIR}")
endif()
mark_as_advanced(NCCL_INCLUDE_DIR NCCL_LIBRARY)
