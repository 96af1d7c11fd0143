# Compile-time diagnostics of key templates and item collections: each source must be
# rejected with the static_assert message given here and with the `// expect:` lines it
# carries, which name the entity and the offending text.
foreach(case IN ITEMS
    "key_no_member|pksk: key template names no member of the entity"
    "key_malformed_unclosed|pksk: malformed key template: '{' without '}'"
    "key_malformed_unopened|pksk: malformed key template: '}' without '{'"
    "key_malformed_empty|pksk: malformed key template: empty '{}'"
    "key_malformed_adjacent|pksk: malformed key template: two fields with no literal text"
    "key_unsupported_type|pksk: key field must be a std::string, an integer or an enum"
    "collection_partition_shape|pksk: ItemCollection members must have partition-key templates"
    "collection_same_type|pksk: two ItemCollection members have the same type discriminator"
    "collection_identical_sort_key|pksk: two ItemCollection members have identical sort-key templates"
    "collection_sort_keys_collide|pksk: two ItemCollection members have sort-key templates that can produce"
    "update_key_member|pksk: an update cannot change a member of the item's key")
  string(FIND "${case}" "|" bar)
  string(SUBSTRING "${case}" 0 ${bar} name)
  math(EXPR after "${bar} + 1")
  string(SUBSTRING "${case}" ${after} -1 message)
  pksk_add_compile_fail(${name} compile_fail/${name}.cpp "${message}")
endforeach()
