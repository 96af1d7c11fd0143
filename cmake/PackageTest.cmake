# SPDX-License-Identifier: BSL-1.0
# Runs by `cmake -P`: one step of the package tests (tests/consumer/README.md), chosen by MODE.
#   install        cmake --install BUILD_DIR into PREFIX (fresh); the other modes' fixture
#   find_package   builds tests/consumer/find_package against PREFIX, runs it
#   add_subdirectory, fetchcontent   the same with the source tree SOURCE_DIR
#   pkg_config     compiles tests/consumer/main.cpp with `pkg-config --cflags --libs pksk`
#   components     find_package(pksk) with good and unknown components, dynamodb among them
#   no_build_paths fails if any file under PREFIX names SOURCE_DIR or BUILD_DIR
#   conan_create   `conan create` (CONAN, Conan 2) of SOURCE_DIR with conan/profiles/debian,
#                  offline: a fresh CONAN_HOME in WORK_DIR with no remote
# INSPECT: the build installs pksk-inspect (PKSK_BUILD_INSPECT), which the package then exports
# as the imported executable pksk::inspect.
# Every consumer is compiled by CXX_COMPILER with CXX_FLAGS, of BUILD_TYPE, with GENERATOR,
# in WORK_DIR (fresh), and its output must equal tests/consumer/expected_output.txt. VERSION is
# pksk's (PROJECT_VERSION), which the installed package and the Conan package must carry.

cmake_minimum_required(VERSION 3.20)

set(consumer_dir ${SOURCE_DIR}/tests/consumer)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " command)
    message(FATAL_ERROR "failed (${rc}): ${command}\n${out}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

function(check_consumer_output executable)
  execute_process(COMMAND ${executable} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${executable} exited with ${rc}:\n${out}\n${err}")
  endif()
  file(READ ${consumer_dir}/expected_output.txt expected)
  if(NOT out STREQUAL expected)
    message(FATAL_ERROR "${executable} printed\n${out}\ninstead of\n${expected}")
  endif()
  message(STATUS "the consumer printed what was expected:\n${out}")
endfunction()

# Configures, builds and runs a consumer project; extra arguments go to the configure step.
function(build_consumer project)
  file(REMOVE_RECURSE ${WORK_DIR})
  run(${CMAKE_COMMAND} -S ${consumer_dir}/${project} -B ${WORK_DIR} -G ${GENERATOR}
      -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
      "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON ${ARGN})
  message(STATUS "configured:\n${last_output}")
  run(${CMAKE_COMMAND} --build ${WORK_DIR})
  check_consumer_output(${WORK_DIR}/consumer)
endfunction()

if(MODE STREQUAL "install")
  file(REMOVE_RECURSE ${PREFIX})
  run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX})
  message(STATUS "${last_output}")
  foreach(file IN ITEMS include/pksk/pksk.hpp include/pksk/sqlite.hpp include/pksk/dynamodb.hpp
                        share/cmake/pksk/pksk-config.cmake share/cmake/pksk/pksk-config-version.cmake
                        share/cmake/pksk/pksk-targets.cmake share/pkgconfig/pksk.pc
                        share/pkgconfig/pksk-zstd.pc
                        share/doc/pksk/LICENSE)
    if(NOT EXISTS ${PREFIX}/${file})
      message(FATAL_ERROR "cmake --install did not install ${file}")
    endif()
  endforeach()
  if(INSPECT AND NOT EXISTS ${PREFIX}/bin/pksk-inspect)
    message(FATAL_ERROR "cmake --install did not install bin/pksk-inspect")
  endif()

elseif(MODE STREQUAL "find_package")
  build_consumer(find_package -DCMAKE_PREFIX_PATH=${PREFIX})
  run(${WORK_DIR}/dynamodb_consumer)
  if(NOT last_output STREQUAL "http://127.0.0.1:8000 us-east-1\n")
    message(FATAL_ERROR "dynamodb_consumer printed:\n${last_output}")
  endif()
  # pksk::inspect: an imported executable of the installed prefix, which runs.
  if(INSPECT)
    if(NOT EXISTS ${WORK_DIR}/inspect_location.txt)
      message(FATAL_ERROR "find_package(pksk) defined no target pksk::inspect")
    endif()
    file(READ ${WORK_DIR}/inspect_location.txt inspect)
    if(NOT inspect STREQUAL "${PREFIX}/bin/pksk-inspect")
      message(FATAL_ERROR "pksk::inspect is ${inspect}, not the installed ${PREFIX}/bin/pksk-inspect")
    endif()
    run(${inspect} --help)
    if(NOT last_output MATCHES "^usage: pksk-inspect ")
      message(FATAL_ERROR "pksk-inspect --help printed:\n${last_output}")
    endif()
  endif()
  run(${WORK_DIR}/zstd_consumer)
  if(NOT last_output MATCHES "^pksk::zstd: a 500 KB reply stored compressed and read back")
    message(FATAL_ERROR "zstd_consumer printed:\n${last_output}")
  endif()
  # The pksk found must be the one just installed, not one elsewhere on the system.
  file(STRINGS ${WORK_DIR}/CMakeCache.txt pksk_dir REGEX "^pksk_DIR:")
  if(NOT pksk_dir STREQUAL "pksk_DIR:PATH=${PREFIX}/share/cmake/pksk")
    message(FATAL_ERROR "find_package found another pksk: ${pksk_dir}")
  endif()

elseif(MODE STREQUAL "add_subdirectory" OR MODE STREQUAL "fetchcontent")
  build_consumer(${MODE} -DPKSK_SOURCE_DIR=${SOURCE_DIR})
  # As a subproject pksk defines its targets only: no tests, examples, benchmarks, install rules.
  file(STRINGS ${WORK_DIR}/CMakeCache.txt options REGEX "^PKSK_(BUILD_[A-Z]+|INSTALL):BOOL=ON")
  if(options)
    message(FATAL_ERROR "pksk as a subproject turned on: ${options}")
  endif()

elseif(MODE STREQUAL "pkg_config")
  find_program(PKG_CONFIG NAMES pkg-config pkgconf REQUIRED)
  set(ENV{PKG_CONFIG_PATH} "${PREFIX}/share/pkgconfig")
  run(${PKG_CONFIG} --cflags --libs pksk)
  string(STRIP "${last_output}" flags)
  message(STATUS "pkg-config --cflags --libs pksk: ${flags}")
  if(NOT flags MATCHES "-I${PREFIX}/")
    message(FATAL_ERROR "pksk.pc does not point at the installed headers: ${flags}")
  endif()
  file(REMOVE_RECURSE ${WORK_DIR})
  file(MAKE_DIRECTORY ${WORK_DIR})
  separate_arguments(flags UNIX_COMMAND "${flags}")
  separate_arguments(cxx_flags UNIX_COMMAND "${CXX_FLAGS}")
  run(${CXX_COMPILER} -std=c++20 ${cxx_flags} ${consumer_dir}/main.cpp ${flags}
      -o ${WORK_DIR}/consumer)
  check_consumer_output(${WORK_DIR}/consumer)
  # pksk-zstd.pc: pksk.pc and libzstd, for a program with compressed members.
  run(${PKG_CONFIG} --cflags --libs pksk-zstd)
  string(STRIP "${last_output}" zstd_flags)
  separate_arguments(zstd_flags UNIX_COMMAND "${zstd_flags}")
  run(${CXX_COMPILER} -std=c++20 ${cxx_flags} ${consumer_dir}/zstd.cpp ${zstd_flags}
      -o ${WORK_DIR}/zstd_consumer)
  run(${WORK_DIR}/zstd_consumer)
  if(NOT last_output MATCHES "^pksk::zstd: a 500 KB reply stored compressed and read back")
    message(FATAL_ERROR "zstd_consumer (pkg-config) printed:\n${last_output}")
  endif()

elseif(MODE STREQUAL "components")
  # Each case is a one-line project; `expect` is what its configure output must contain.
  function(find_case name find_call should_succeed expect)
    set(dir ${WORK_DIR}/${name})
    file(REMOVE_RECURSE ${dir})
    file(WRITE ${dir}/src/CMakeLists.txt
         "cmake_minimum_required(VERSION 3.20)\nproject(c LANGUAGES CXX)\n${find_call}\n")
    execute_process(
      COMMAND ${CMAKE_COMMAND} -S ${dir}/src -B ${dir}/build -G ${GENERATOR}
              -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${PREFIX}
              -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(should_succeed AND NOT rc EQUAL 0)
      message(FATAL_ERROR "${name}: configure failed:\n${out}")
    elseif(NOT should_succeed AND rc EQUAL 0)
      message(FATAL_ERROR "${name}: configure succeeded, it must fail:\n${out}")
    endif()
    string(FIND "${out}" "${expect}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${name}: the output lacks \"${expect}\":\n${out}")
    endif()
    message(STATUS "${name}: as expected (${expect})")
  endfunction()
  set(report [[message(STATUS "found=${pksk_FOUND} version=${pksk_VERSION} sqlite=${pksk_sqlite_FOUND} dynamodb=${pksk_dynamodb_FOUND}")
foreach(t pksk::pksk pksk::sqlite pksk::dynamodb)
  if(TARGET ${t})
    get_target_property(opts ${t} INTERFACE_COMPILE_OPTIONS)
    message(STATUS "${t} options=${opts}")
  endif()
endforeach()]])
  find_case(no_components "find_package(pksk CONFIG REQUIRED)\n${report}" TRUE
            "found=1 version=${VERSION} sqlite=TRUE dynamodb=TRUE")
  find_case(core_only "find_package(pksk CONFIG REQUIRED COMPONENTS pksk)\n${report}" TRUE
            "pksk::pksk options=opts-NOTFOUND")
  find_case(sqlite "find_package(pksk CONFIG REQUIRED COMPONENTS sqlite)\n${report}" TRUE
            "pksk::sqlite options=opts-NOTFOUND")
  find_case(unknown_required "find_package(pksk CONFIG REQUIRED COMPONENTS sqlite bogus)" FALSE
            "pksk has no component \"bogus\"")
  find_case(unknown_optional
            "find_package(pksk CONFIG OPTIONAL_COMPONENTS bogus)\nmessage(STATUS \"bogus=\${pksk_bogus_FOUND} found=\${pksk_FOUND}\")"
            TRUE "bogus= found=1")
  find_case(dynamodb "find_package(pksk CONFIG REQUIRED COMPONENTS sqlite dynamodb)\n${report}"
            TRUE "pksk::dynamodb options=opts-NOTFOUND")
  find_case(zstd "find_package(pksk CONFIG REQUIRED COMPONENTS sqlite zstd)\nforeach(t pksk::zstd)\n  get_target_property(opts \${t} INTERFACE_COMPILE_OPTIONS)\n  message(STATUS \"\${t} options=\${opts} found=\${pksk_zstd_FOUND}\")\nendforeach()"
            TRUE "pksk::zstd options=opts-NOTFOUND found=TRUE")
  find_case(version_too_new "find_package(pksk 1.0 CONFIG REQUIRED)" FALSE
            "pksk-config.cmake, version: ${VERSION}")

elseif(MODE STREQUAL "no_build_paths")
  file(GLOB_RECURSE installed LIST_DIRECTORIES false ${PREFIX}/*)
  list(LENGTH installed count)
  if(count EQUAL 0)
    message(FATAL_ERROR "nothing is installed in ${PREFIX}")
  endif()
  set(forbidden ${SOURCE_DIR} ${BUILD_DIR})
  foreach(dir IN ITEMS ${SOURCE_DIR} ${BUILD_DIR})
    file(REAL_PATH ${dir} real)
    list(APPEND forbidden ${real})
  endforeach()
  list(REMOVE_DUPLICATES forbidden)
  # A sanitizer's type descriptors name each lambda by its source path (clang writes
  # "(lambda at <path>:<line>)" into the program's data, where no -ffile-prefix-map reaches),
  # and no one installs an instrumented build: there the programs are left out of the check,
  # and every other file is checked.
  if(CXX_FLAGS MATCHES "-fsanitize=")
    list(FILTER installed EXCLUDE REGEX "/bin/[^/]*$")
  endif()
  set(offenders)
  foreach(file IN LISTS installed)
    file(READ ${file} content)
    foreach(dir IN LISTS forbidden)
      string(FIND "${content}" "${dir}" at)
      if(NOT at EQUAL -1)
        list(APPEND offenders "${file} names ${dir}")
      endif()
    endforeach()
  endforeach()
  if(offenders)
    list(JOIN offenders "\n  " offenders)
    message(FATAL_ERROR "installed files name the source or build tree:\n  ${offenders}")
  endif()
  message(STATUS "${count} installed files, none names ${forbidden}")

elseif(MODE STREQUAL "conan_create")
  if(NOT CONAN)
    # Matched by the test's SKIP_REGULAR_EXPRESSION: ctest reports it as skipped, with this.
    message(STATUS "PKSK_TEST_SKIPPED: no Conan 2 (configure with -DPKSK_CONAN=<conan>; "
                   "scripts/python-venv.sh makes one in build/venv)")
    return()
  endif()
  file(REMOVE_RECURSE ${WORK_DIR})
  set(ENV{CONAN_HOME} ${WORK_DIR}/home)
  run(${CONAN} remote remove *)  # offline: every dependency must come from the profile
  # The repository's profile, with the compiler and flags of the build under test.
  string(REGEX MATCH "^[0-9]+" compiler_major "${CXX_COMPILER_VERSION}")
  if(CXX_COMPILER_ID STREQUAL "GNU")
    set(compiler gcc)
  elseif(CXX_COMPILER_ID STREQUAL "Clang")
    set(compiler clang)
  else()
    message(FATAL_ERROR "no Conan settings for compiler ${CXX_COMPILER_ID}")
  endif()
  if(NOT BUILD_TYPE)
    set(BUILD_TYPE Release)
  endif()
  separate_arguments(cxx_flags UNIX_COMMAND "${CXX_FLAGS}")
  list(TRANSFORM cxx_flags REPLACE "(.+)" "\"\\1\"")
  list(JOIN cxx_flags ", " cxx_flags)
  file(WRITE ${WORK_DIR}/profile
       "include(${SOURCE_DIR}/conan/profiles/debian)\n"
       "[settings]\ncompiler=${compiler}\ncompiler.version=${compiler_major}\n"
       "build_type=${BUILD_TYPE}\n"
       "[conf]\ntools.build:compiler_executables={\"cpp\": \"${CXX_COMPILER}\"}\n"
       "tools.build:cxxflags=[${cxx_flags}]\n"
       "tools.build:jobs=1\n"
       # The test package builds here, not in SOURCE_DIR/test_package; no CMakeUserPresets.json.
       "tools.cmake.cmake_layout:test_folder=${WORK_DIR}/test_package\n"
       "tools.cmake.cmaketoolchain:user_presets=\n")
  # Both backends' components and compressed members: DynamoDB and zstd are options, off by
  # default.
  run(${CONAN} create ${SOURCE_DIR} -pr:h ${WORK_DIR}/profile -pr:b ${WORK_DIR}/profile
      -o "pksk/*:with_dynamodb=True" -o "pksk/*:with_zstd=True" --build=missing)
  message(STATUS "${last_output}")
  foreach(line IN ITEMS "pksk test_package: ok" "pksk test_package dynamodb: ok"
                        "pksk test_package zstd: ok")
    string(FIND "${last_output}" "${line}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "conan create passed, but its test package did not print \"${line}\"")
    endif()
  endforeach()
  # The version comes from include/pksk/version.hpp, as CMake's does; the licence travels along.
  string(FIND "${last_output}" "Full package reference: pksk/${VERSION}#" at)
  if(at EQUAL -1 OR NOT last_output MATCHES "\nPackage folder ([^\n]+)")
    message(FATAL_ERROR "conan create did not make pksk/${VERSION}")
  endif()
  string(STRIP "${CMAKE_MATCH_1}" package_folder)
  if(NOT EXISTS ${package_folder}/licenses/LICENSE)
    message(FATAL_ERROR "the Conan package has no licenses/LICENSE: ${package_folder}")
  endif()

else()
  message(FATAL_ERROR "unknown MODE: ${MODE}")
endif()
