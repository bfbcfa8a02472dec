# Install rules and the CMake package: find_package(surfdb CONFIG REQUIRED) gives surfdb::formats,
# surfdb::runtime (no OpenCASCADE) and surfdb::surfdb (the offline toolchain). A pkg-config file
# serves non-CMake users of the runtime.
include(CMakePackageConfigHelpers)

install(TARGETS surfdb_formats surfdb_runtime surfdb_offline
  EXPORT surfdbTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS surfdb RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
foreach(part formats libsurfdb runtime)
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
