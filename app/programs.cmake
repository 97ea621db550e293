# The kcore and tc programs, over the shared code of app/common (ds_app_common) and the
# libraries of app/kcore (ds_kcore) and app/tc (ds_tc). Their folders are also the build
# folders of those libraries, so the programs are built as build/app/kcore/kcore and
# build/app/tc/tc.
foreach(prog kcore tc)
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${prog}/CMakeLists.txt)
    add_executable(${prog} ${prog}/${prog}_main.c)
    target_link_libraries(${prog} PRIVATE ds_${prog} ds_app_common ds_graph ds_cjson
                                          OpenMP::OpenMP_C)
    target_compile_options(${prog} PRIVATE ${DS_C_WARNINGS})
    set_target_properties(${prog} PROPERTIES RUNTIME_OUTPUT_DIRECTORY
                                             ${CMAKE_CURRENT_BINARY_DIR}/${prog})
  endif()
endforeach()
