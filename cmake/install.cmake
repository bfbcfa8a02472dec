# Install rules and the CMake package: find_package(surfdb CONFIG REQUIRED) gives surfdb::formats,
# the runtime's layers surfdb::table, surfdb::contact, surfdb::multibody and the C API surfdb::c
# (none of them OpenCASCADE; surfdb::runtime is all four) and surfdb::libsurfdb (the offline
# toolchain). A pkg-config file serves non-CMake users of the C API.
include(CMakePackageConfigHelpers)

install(TARGETS surfdb_formats surfdb_table surfdb_contact surfdb_multibody surfdb_scenario surfdb_c surfdb_c_simulation
                surfdb_runtime libsurfdb
  EXPORT surfdbTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS surfdb RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS surfdb_cad RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/surfdb)  # run by surfdb (cad_launcher.hpp)
foreach(part formats libsurfdb runtime/table runtime/contact runtime/multibody runtime/scenario runtime/c_api)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${part}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endforeach()

set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/surfdb)
install(EXPORT surfdbTargets NAMESPACE surfdb:: DESTINATION ${config_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/surfdbConfig.cmake.in
  ${PROJECT_BINARY_DIR}/surfdbConfig.cmake INSTALL_DESTINATION ${config_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/surfdbConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/surfdbConfig.cmake ${PROJECT_BINARY_DIR}/surfdbConfigVersion.cmake
  DESTINATION ${config_dir})

file(RELATIVE_PATH SURFDB_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${PROJECT_SOURCE_DIR}/cmake/surfdb-runtime.pc.in ${PROJECT_BINARY_DIR}/surfdb-runtime.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/surfdb-runtime.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
