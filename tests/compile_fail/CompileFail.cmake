# SPDX-License-Identifier: BSL-1.0
# Compile-time diagnostics of key templates and item collections, as users meet them: each
# source uses the public API only and must be rejected with exactly one `error:` line that names
# the rule given here and carries the `// expect:` lines of the source (the entity or entities
# and the offending text). Every case runs on both g++-12 and clang++-16, whichever compiler
# builds the tree, since each spells diagnostics its own way. Cases that misuse valid entities
# take them from shop.hpp; a case whose misuse is an entity's definition defines its own.

get_target_property(_pksk_cf_boost Boost::headers INTERFACE_INCLUDE_DIRECTORIES)
get_target_property(_pksk_cf_simdjson simdjson::simdjson INTERFACE_INCLUDE_DIRECTORIES)
get_target_property(_pksk_cf_sqlite SQLite::SQLite3 INTERFACE_INCLUDE_DIRECTORIES)
set(_pksk_cf_includes
    "${PROJECT_SOURCE_DIR}/include;${_pksk_cf_boost};${_pksk_cf_simdjson};${_pksk_cf_sqlite}")
# The cases are compiled as a program linking pksk::zstd is (its PKSK_ZSTD=1), so that a case
# with a compressed member meets its own rule only; compressed_without_pksk_zstd alone is not.
get_target_property(_pksk_cf_defines pksk_zstd INTERFACE_COMPILE_DEFINITIONS)
list(TRANSFORM _pksk_cf_defines PREPEND "-D")

find_program(PKSK_COMPILE_FAIL_GCC NAMES g++-12)
find_program(PKSK_COMPILE_FAIL_CLANG NAMES clang++-16)
set(_pksk_cf_compilers)
foreach(pair IN ITEMS "gcc|PKSK_COMPILE_FAIL_GCC" "clang|PKSK_COMPILE_FAIL_CLANG")
  string(REPLACE "|" ";" pair "${pair}")
  list(GET pair 0 tag)
  list(GET pair 1 var)
  if(${var})
    list(APPEND _pksk_cf_compilers "${tag}|${${var}}")
  else()
    message(WARNING "pksk: ${var} not found; its compile-fail tests are not registered")
  endif()
endforeach()

# One precompiled header per compiler (precompiled.hpp), rebuilt when any of pksk's headers
# changes. g++ takes `-include <copy>` and uses the .gch beside the copy (or, should it be
# stale, parses the copy itself); clang takes the .pch file.
file(GLOB_RECURSE _pksk_cf_headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/pksk/*.hpp
     ${PROJECT_SOURCE_DIR}/include/pksk/*.ipp)
set(_pksk_cf_include_flags ${_pksk_cf_includes})
list(FILTER _pksk_cf_include_flags EXCLUDE REGEX "NOTFOUND$")
list(TRANSFORM _pksk_cf_include_flags PREPEND "-I")
set(_pksk_cf_pch_outputs)
foreach(entry IN LISTS _pksk_cf_compilers)
  string(REPLACE "|" ";" entry "${entry}")
  list(GET entry 0 tag)
  list(GET entry 1 compiler)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/compile_fail_pch/${tag})
  configure_file(${CMAKE_CURRENT_SOURCE_DIR}/compile_fail/precompiled.hpp ${dir}/precompiled.hpp
                 COPYONLY)
  if(tag STREQUAL "gcc")
    set(output ${dir}/precompiled.hpp.gch)
    set(_pksk_cf_pch_flags_${tag} "-include;${dir}/precompiled.hpp")
  else()
    set(output ${dir}/precompiled.hpp.pch)
    set(_pksk_cf_pch_flags_${tag} "-include-pch;${output}")
  endif()
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${compiler} -std=c++20 ${_pksk_cf_defines} ${_pksk_cf_include_flags} -x c++-header
            ${dir}/precompiled.hpp -o ${output}
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/compile_fail/precompiled.hpp ${_pksk_cf_headers}
    COMMENT "Precompiling pksk's headers for the ${tag} compile-fail cases"
    VERBATIM)
  list(APPEND _pksk_cf_pch_outputs ${output})
endforeach()
add_custom_target(pksk_compile_fail_pch ALL DEPENDS ${_pksk_cf_pch_outputs})

# pksk_add_compile_fail(name source rule [WITHOUT_ZSTD]): the source must fail to compile on
# every compiler above with exactly one error, naming rule and the source's `// expect:` texts.
# A case without a rule states per compiler what its error says (cmake/CheckCompileFail.cmake).
# WITHOUT_ZSTD: compiled as a program that does not link pksk::zstd (no PKSK_ZSTD, and so
# without the precompiled headers, which have it).
function(pksk_add_compile_fail name source rule)
  foreach(entry IN LISTS _pksk_cf_compilers)
    string(FIND "${entry}" "|" bar)
    string(SUBSTRING "${entry}" 0 ${bar} tag)
    math(EXPR after "${bar} + 1")
    string(SUBSTRING "${entry}" ${after} -1 compiler)
    set(defines ${_pksk_cf_defines})
    set(precompiled ${_pksk_cf_pch_flags_${tag}})
    if("WITHOUT_ZSTD" IN_LIST ARGN)
      set(defines)
      set(precompiled)
    endif()
    add_test(NAME compile_fail.${tag}.${name}
             COMMAND ${CMAKE_COMMAND}
                     -DCOMPILER=${compiler}
                     -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR}/${source}
                     -DRULE=${rule}
                     -DTAG=${tag}
                     "-DINCLUDES=${_pksk_cf_includes}"
                     "-DDEFINES=${defines}"
                     "-DPRECOMPILED=${precompiled}"
                     -P ${PROJECT_SOURCE_DIR}/cmake/CheckCompileFail.cmake)
  endforeach()
endfunction()

foreach(case IN ITEMS
    "key_no_member|key_template_names_no_member_of_the_entity"
    "index_no_member|key_template_names_no_member_of_the_entity"
    "indexes_c_array|entity_indexes_must_be_a_std_array_of_pksk_Index"
    "key_malformed_unclosed|malformed_key_template_brace_without_closing_brace"
    "key_malformed_unopened|malformed_key_template_brace_without_opening_brace"
    "key_malformed_empty|malformed_key_template_empty_field"
    "key_malformed_adjacent|malformed_key_template_two_fields_with_no_literal_text_between_them"
    "key_unsupported_type|key_field_must_be_a_string_an_integer_or_an_enum"
    "key_spec_unknown|malformed_key_template_unknown_format_spec"
    "key_spec_wrong_type|key_format_spec_does_not_apply_to_the_member_type"
    "key_spec_case_wrong_type|key_format_spec_does_not_apply_to_the_member_type"
    "key_spec_number_wrong_type|key_format_spec_does_not_apply_to_the_member_type"
    "key_spec_number_not_whole|number_key_spec_must_be_the_whole_sort_key_template"
    "key_spec_number_in_partition_key|number_key_spec_must_be_the_whole_sort_key_template"
    "fan_out_member_not_in_sort_key|fan_out_member_must_be_a_field_of_the_sort_key"
    "unique_names_no_member|unique_names_no_member_of_the_entity"
    "unique_key_member|unique_member_is_part_of_the_items_key"
    "unique_member_type|unique_member_is_not_a_string_integer_enum_or_time"
    "unique_value_no_unique_member|unique_value_names_no_unique_member_of_the_entity"
    "unique_value_key_text_signature|unique_value_key_text_is_not_a_function_of_string_view_returning_string"
    "unique_value_twice|unique_value_names_a_member_twice"
    "unique_in_batch|a_batch_cannot_keep_the_guards_of_an_entity_with_unique_members"
    "unique_return_old|return_old_cannot_be_asked_of_a_write_of_an_entity_with_unique_members"
    "query_buckets_without_bucket|query_buckets_needs_one_time_bucket_in_the_partition_key"
    "query_shards_without_shard|query_shards_needs_one_shard_in_the_partition_key"
    "member_type_unsupported|member_type_is_not_one_pksk_can_store"
    "value_type_unsupported|value_type_is_not_one_pksk_can_store"
    "collection_partition_shape|item_collection_members_have_different_partition_key_shapes"
    "collection_table_query_index_only|item_collection_members_have_different_partition_key_shapes"
    "key_optional_in_table_key|key_field_must_be_a_string_an_integer_or_an_enum"
    "collection_member_not_an_entity|item_collection_member_is_not_an_entity"
    "collection_same_type|item_collection_members_have_the_same_type_discriminator"
    "collection_identical_sort_key|item_collection_members_have_identical_sort_key_templates"
    "collection_sort_keys_collide|item_collection_members_have_sort_key_templates_that_can_produce_the_same_key"
    "collection_mixed_key_schemas|item_collection_mixes_members_with_and_without_a_sort_key"
    "collection_two_without_sort_key|item_collection_members_have_identical_sort_key_templates"
    "update_key_member|update_changes_a_member_of_the_items_key"
    "update_key_member_argument|"
    "add_key_member_argument|"
    "remove_key_member_argument|"
    "update_version_member|update_changes_the_version_member_of_a_versioned_entity"
    "add_version_member_argument|"
    "put_all_versioned_entity|a_batch_cannot_check_the_version_of_a_versioned_entity"
    "version_not_a_name|entity_version_must_be_the_name_of_its_version_member"
    "version_no_member|entity_version_names_no_member_of_the_entity"
    "version_member_type|entity_version_member_must_be_an_integer"
    "transact_get_backend_without_it|backend_has_no_transact_get_operation"
    "partition_index_not_named|entity_is_not_in_the_index"
    "select_other_entity|select_names_a_member_of_an_entity_the_query_does_not_read"
    "filter_other_entity|filter_names_a_member_of_an_entity_the_query_does_not_read"
    "read_type_not_an_entity|read_type_is_neither_an_entity_nor_an_item_collection"
    "put_not_an_entity|item_type_is_not_an_entity"
    "entity_without_type|entity_specialisation_must_declare_a_constant_string"
    "entity_not_an_aggregate|entity_is_neither_an_aggregate_nor_a_hana_struct"
    "access_patterns_not_an_entity|access_patterns_argument_is_neither_an_entity_nor_an_item_collection"
    "access_patterns_same_type|access_patterns_entities_have_the_same_type_discriminator"
    "filter_value_wrong_type|condition_compares_a_member_with_a_value_of_another_type"
    "condition_value_wrong_type|condition_compares_a_member_with_a_value_of_another_type"
    "condition_nested_value_wrong_type|condition_compares_a_member_with_a_value_of_another_type"
    "size_value_wrong_type|condition_compares_a_size_with_a_value_that_is_not_a_number"
    "update_value_wrong_type|update_gives_a_member_a_value_of_another_type"
    "update_value_wrong_type_template_argument|update_gives_a_member_a_value_of_another_type"
    "append_value_wrong_type|update_gives_a_member_a_value_of_another_type"
    "key_condition_other_entity|key_condition_names_a_member_of_another_entity"
    "key_condition_other_entity_in_query|sort_key_condition_built_for_an_entity_the_query_does_not_read"
    "filter_chunked_collection_member|filter_names_a_member_of_the_collections_chunked_entity"
    "key_condition_not_a_field|key_condition_names_a_member_that_is_not_a_field_of_the_key_template"
    "key_condition_skips_a_field|key_condition_members_are_not_the_key_templates_first_fields_in_order"
    "key_condition_begins_with_integer|key_condition_begins_with_on_a_field_that_is_not_a_string"
    "key_condition_range_on_enum|key_condition_orders_an_enum_field_whose_keys_sort_by_enumerator_name"
    "rename_no_member|rename_names_no_member_of_the_entity"
    "rename_same_name|two_members_are_stored_under_one_attribute_name"
    "rename_empty_name|rename_gives_a_member_an_empty_attribute_name"
    "rename_twice|member_is_renamed_twice"
    "compressed_no_member|compressed_names_no_member_of_the_entity"
    "compressed_member_type|compressed_member_must_be_a_string_or_binary"
    "compressed_twice|member_is_compressed_twice"
    "value_specialisation_incomplete|value_specialisation_must_define_to_and_from"
    "compressed_key_member|compressed_member_appears_in_a_key_template"
    "compressed_index_key_member|compressed_member_appears_in_a_key_template"
    "filter_compressed_member|"
    "filter_member_kept_in_keys|"
    "condition_exists_compressed_member|"
    "add_compressed_member|"
    "append_compressed_member|"
    "add_string_member|"
    "append_string_member|"
    "chunked_update|update_cannot_change_a_chunked_entity_put_it_whole"
    "chunked_put_condition|a_write_of_a_chunked_entity_takes_no_conditions"
    "chunked_put_all|a_batch_cannot_write_a_chunked_entity"
    "chunked_in_transaction|a_transaction_cannot_write_a_chunked_entity"
    "chunked_transact_get|transact_get_cannot_read_a_chunked_entity"
    "chunked_versioned|a_chunked_entity_has_no_version_index_unique_members_or_ttl"
    "chunked_blob_member|a_chunked_entity_keeps_no_member_in_a_blob_store"
    "blob_no_member|stored_in_blob_store_names_no_member_of_the_entity"
    "blob_twice|member_is_stored_in_the_blob_store_twice"
    "extension_without_hooks|extension_has_neither_before_put_nor_update_parts_for_the_entity"
    "extensions_not_a_list|entity_extensions_is_not_a_pksk_Extensions_list"
    "blob_member_type|blob_member_must_be_a_string_or_binary"
    "blob_key_member|blob_member_appears_in_a_key_template"
    "ttl_no_member|ttl_names_no_member_of_the_entity"
    "ttl_member_type|ttl_member_must_be_a_system_clock_time_point")
  string(FIND "${case}" "|" bar)
  string(SUBSTRING "${case}" 0 ${bar} name)
  math(EXPR after "${bar} + 1")
  string(SUBSTRING "${case}" ${after} -1 rule)
  if(rule)
    set(rule "pksk::diagnostics::${rule}<")
  endif()
  pksk_add_compile_fail(${name} compile_fail/${name}.cpp "${rule}")
endforeach()
pksk_add_compile_fail(
  compressed_without_pksk_zstd compile_fail/compressed_without_pksk_zstd.cpp
  "pksk::diagnostics::compressed_member_needs_libzstd_link_the_target_pksk_zstd<" WITHOUT_ZSTD)

# <pksk/src.hpp> in a translation unit where no backend header comes before it, with
# PKSK_SEPARATE_COMPILATION as its users build: one error saying what to include, where the
# program used to link with an undefined reference to every backend member. Without the
# precompiled headers, which are built header-only.
foreach(name IN ITEMS src_alone src_before_backend)
  foreach(entry IN LISTS _pksk_cf_compilers)
    string(REPLACE "|" ";" entry "${entry}")
    list(GET entry 0 tag)
    list(GET entry 1 compiler)
    add_test(NAME compile_fail.${tag}.${name}
             COMMAND ${CMAKE_COMMAND}
                     -DCOMPILER=${compiler}
                     -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR}/compile_fail/${name}.cpp
                     -DRULE=
                     -DTAG=${tag}
                     "-DINCLUDES=${_pksk_cf_includes}"
                     -DPRECOMPILED=-DPKSK_SEPARATE_COMPILATION
                     -P ${PROJECT_SOURCE_DIR}/cmake/CheckCompileFail.cmake)
  endforeach()
endforeach()

# pksk's headers under g++'s -Wextra as a user's build sees them (tests/header_warnings/):
# syntax only, so each run costs seconds, not a build.
if(PKSK_COMPILE_FAIL_GCC)
  set(_pksk_hw_includes ${_pksk_cf_includes} ${CMAKE_CURRENT_SOURCE_DIR})
  get_target_property(_pksk_hw_catch2 Catch2::Catch2 INTERFACE_INCLUDE_DIRECTORIES)
  list(APPEND _pksk_hw_includes ${_pksk_hw_catch2})
  set(_pksk_hw_sources sqlite_conformance indexes any_sqlite_conformance)
  if(TARGET CURL::libcurl)
    get_target_property(_pksk_hw_curl CURL::libcurl INTERFACE_INCLUDE_DIRECTORIES)
    list(APPEND _pksk_hw_includes ${_pksk_hw_curl})
    list(APPEND _pksk_hw_sources dynamodb_conformance)
  endif()
  list(FILTER _pksk_hw_includes EXCLUDE REGEX "NOTFOUND$")
  list(TRANSFORM _pksk_hw_includes PREPEND "-I")
  foreach(name IN LISTS _pksk_hw_sources)
    add_test(NAME header_warnings.gcc.${name}
             COMMAND ${PKSK_COMPILE_FAIL_GCC} -std=c++20 -fsyntax-only -Wall -Wextra -Wpedantic
                     -Werror ${_pksk_cf_defines} ${_pksk_hw_includes}
                     ${CMAKE_CURRENT_SOURCE_DIR}/header_warnings/${name}.cpp)
  endforeach()
  # The warnings of g++'s optimiser, which a syntax-only run never sees: at -O1 (none of pksk's
  # targets builds so, a user's may) it took simdjson's key compare, inlined into every decoder,
  # for a read past a one-byte array (-Wstringop-overread). One example that reads entities, as
  # a user's build compiles it; -Wmissing-field-initializers is off as in pksk_warnings.
  if(TARGET CURL::libcurl)
    add_test(NAME header_warnings.gcc.O1_classic_layout
             COMMAND ${PKSK_COMPILE_FAIL_GCC} -std=c++20 -O1 -c -o
                     ${CMAKE_CURRENT_BINARY_DIR}/header_warnings_O1_classic_layout.o -Wall -Wextra
                     -Wpedantic -Werror -Wno-missing-field-initializers ${_pksk_hw_includes}
                     ${PROJECT_SOURCE_DIR}/examples/classic_layout/main.cpp)
    set_tests_properties(header_warnings.gcc.O1_classic_layout PROPERTIES TIMEOUT 600)
  endif()
endif()
