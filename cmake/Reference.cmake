# SPDX-License-Identifier: BSL-1.0
# The API reference (docs/reference.md): Doxygen reads the public headers' comments
# through docs/reference/comment_filter.py and writes HTML to <build>/docs/reference/html;
# docs/reference/build_reference.py runs it and checks what no Doxygen warning checks.
# Defined where pksk is the top project and Doxygen is found; tests/CMakeLists.txt registers
# the test docs.reference, which runs the same command (warnings are errors), or names it as a
# suite that cannot run when Doxygen is missing.
find_package(Doxygen 1.9 QUIET)
find_package(Python3 COMPONENTS Interpreter QUIET)
if(DOXYGEN_FOUND AND Python3_Interpreter_FOUND)
  set(PKSK_REFERENCE_OUTPUT ${PROJECT_BINARY_DIR}/docs/reference)
  # The filter runs twice per header: the interpreter itself (not a version manager's shim in
  # front of it), and -S -E, since it needs nothing from site-packages or the environment.
  execute_process(COMMAND ${Python3_EXECUTABLE} -c "import sys; print(sys.executable)"
                  OUTPUT_VARIABLE pksk_reference_python OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(PKSK_REFERENCE_PYTHON "${pksk_reference_python} -S -E")
  set(PKSK_REFERENCE_DOXYFILE ${PKSK_REFERENCE_OUTPUT}/Doxyfile)
  configure_file(${PROJECT_SOURCE_DIR}/docs/reference/Doxyfile.in ${PKSK_REFERENCE_DOXYFILE} @ONLY)
  # Doxygen, then the check of every public function's Throws and Exception safety lines.
  set(PKSK_REFERENCE_COMMAND ${pksk_reference_python} -S -E
      ${PROJECT_SOURCE_DIR}/docs/reference/build_reference.py $<TARGET_FILE:Doxygen::doxygen>
      ${PKSK_REFERENCE_DOXYFILE} ${PKSK_REFERENCE_OUTPUT}/xml)
  add_custom_target(pksk_reference
    COMMAND ${PKSK_REFERENCE_COMMAND}
    WORKING_DIRECTORY ${PKSK_REFERENCE_OUTPUT}
    COMMENT "API reference: ${PKSK_REFERENCE_OUTPUT}/html/index.html"
    VERBATIM)
endif()
