# The kcore and tc programs, over the shared code of app/common (ds_app_common) and the
# libraries of app/kcore (ds_kcore) and app/tc (ds_tc). Their folders are also the build
# folders of those libraries, so the programs are built as build/app/kcore/kcore and
# build/app/tc/tc.
foreach(prog kcore tc)
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${prog}/CMakeLists.txt)
    set(builds ${prog}:ds_lab_none)
    if(DS_LAB_BUILDS) # the lab build (common/lab.h), for the tests and bench/
      list(APPEND builds ${prog}_lab:ds_lab_env)
    endif()
    foreach(build ${builds})
      string(REPLACE ":" ";" build ${build})
      list(GET build 0 exe)
      list(GET build 1 lab)
      add_executable(${exe} ${prog}/${prog}_main.c $<TARGET_OBJECTS:${lab}>)
      target_link_libraries(${exe} PRIVATE ds_${prog} ds_app_common ds_graph ds_cjson
                                           OpenMP::OpenMP_C)
      target_compile_options(${exe} PRIVATE ${DS_C_WARNINGS})
      set_target_properties(${exe} PROPERTIES RUNTIME_OUTPUT_DIRECTORY
                                              ${CMAKE_CURRENT_BINARY_DIR}/${prog})
    endforeach()
  endif()
endforeach()
