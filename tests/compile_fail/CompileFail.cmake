# Compile-time diagnostics of key templates and item collections. Each case is two tests: the
# static_assert message (pksk_add_compile_fail), and the `// expect:` lines of the source, which
# name the entity and the offending text (CheckDiagnostic.cmake).

function(pksk_add_key_compile_fail name message)
  set(source compile_fail/${name}.cpp)
  pksk_add_compile_fail(${name} ${source} "${message}")
  get_target_property(boost_inc Boost::headers INTERFACE_INCLUDE_DIRECTORIES)
  get_target_property(simdjson_inc simdjson::simdjson INTERFACE_INCLUDE_DIRECTORIES)
  add_test(NAME compile_fail.${name}.context
           COMMAND ${CMAKE_COMMAND}
                   -DCOMPILER=${CMAKE_CXX_COMPILER}
                   -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR}/${source}
                   "-DINCLUDES=${PROJECT_SOURCE_DIR}/include;${boost_inc};${simdjson_inc}"
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/compile_fail/CheckDiagnostic.cmake)
endfunction()

pksk_add_key_compile_fail(key_no_member "pksk: key template names no member of the entity")
pksk_add_key_compile_fail(key_malformed_unclosed "pksk: malformed key template: '{' without '}'")
pksk_add_key_compile_fail(key_malformed_unopened "pksk: malformed key template: '}' without '{'")
pksk_add_key_compile_fail(key_malformed_empty "pksk: malformed key template: empty '{}'")
pksk_add_key_compile_fail(key_malformed_adjacent
                          "pksk: malformed key template: two fields with no literal text")
pksk_add_key_compile_fail(key_unsupported_type
                          "pksk: key field must be a std::string, an integer or an enum")
pksk_add_key_compile_fail(collection_partition_shape
                          "pksk: ItemCollection members must have partition-key templates")
pksk_add_key_compile_fail(collection_same_type
                          "pksk: two ItemCollection members have the same type discriminator")
pksk_add_key_compile_fail(collection_identical_sort_key
                          "pksk: two ItemCollection members have identical sort-key templates")
pksk_add_key_compile_fail(collection_sort_keys_collide
                          "pksk: two ItemCollection members have sort-key templates that can produce")
