// SPDX-License-Identifier: BSL-1.0
#pragma once
// What a Table sets around the encoding and decoding of an entity with blob members
// (codec/blob_member.hpp): which store its reads fetch from, and which objects a put has
// stored. Compiled only for such entities: a read of any other costs nothing more.

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "../../backend/backend.hpp"
#include "../../blob/blob_store.hpp"
#include "../../codec/blob_member.hpp"
#include "../../detail/config.hpp"
#include "../../detail/hmac_sha256.hpp"
#include "../../model/collection.hpp"
#include "../../reflect/reflect.hpp"

namespace pksk::detail {

// Whether reading R (an entity, or a collection of entities) may meet a blob member.
template <class R>
inline constexpr bool reads_blobs_v = has_blob_members_v<R>;
template <class... Ts>
inline constexpr bool reads_blobs_v<ItemCollection<Ts...>> = (has_blob_members_v<Ts> || ...);

// What a read of R is called in a message: the entity's type, or "a collection".
template <class R>
constexpr std::string_view read_type_name() {
  if constexpr (EntityType<R>) {
    return type_name_v<R>;
  } else {
    return "a collection";
  }
}

// A ValidationError: `type` keeps members in a blob store and the table has none.
[[noreturn]] PKSK_DECL void throw_no_blob_store(std::string_view table, std::string_view type,
                                                std::string_view operation);

// The reads of one call: blob members fetch from the table's store while it lives.
class BlobReadScope {
 public:
  BlobReadScope(const backend::TableSpec& spec, std::string_view type, std::string_view operation)
      : previous_(blob_reads) {
    if (!spec.blob_store) throw_no_blob_store(spec.name, type, operation);
    reads_.store = spec.blob_store.get();
    reads_.table = spec.name;
    if (previous_ != nullptr) {  // a put's read of the item it replaces
      reads_.keys = previous_->keys;
      reads_.fetch = previous_->fetch;
    }
    blob_reads = &reads_;
  }
  BlobReadScope(const BlobReadScope&) = delete;
  BlobReadScope& operator=(const BlobReadScope&) = delete;
  ~BlobReadScope() { blob_reads = previous_; }

 private:
  BlobReads reads_;
  const BlobReads* previous_;
};

// What a put notes of the item it replaces: the objects it referred to (into `keys`, if not
// null), fetched or not. Also a read that needs no blob member's value (an index backfill).
class BlobKeysScope {
 public:
  BlobKeysScope(std::vector<std::string>* keys, bool fetch) : previous_(blob_reads) {
    reads_.keys = keys;
    reads_.fetch = fetch;
    blob_reads = &reads_;
  }
  BlobKeysScope(const BlobKeysScope&) = delete;
  BlobKeysScope& operator=(const BlobKeysScope&) = delete;
  ~BlobKeysScope() { blob_reads = previous_; }

 private:
  BlobReads reads_;
  const BlobReads* previous_;
};

// The objects of one put of a T: stored before the item is written, named in it while it is
// encoded, and removed again unless release() says the item was written.
template <class T>
class BlobUploads {
 public:
  BlobUploads(const backend::TableSpec& spec, const T& item, std::string_view pk,
              std::string_view sk)
      : store_(spec.blob_store.get()), refs_(field_count_v<T>), previous_(blob_writes_v<T>) {
    writes_.refs.assign(field_count_v<T>, nullptr);
    try {
      store_all(spec, item, pk, sk);
    } catch (...) {
      remove_stored();
      throw;
    }
    blob_writes_v<T> = &writes_;
  }
  BlobUploads(const BlobUploads&) = delete;
  BlobUploads& operator=(const BlobUploads&) = delete;
  ~BlobUploads() {
    blob_writes_v<T> = previous_;
    remove_stored();
  }

  // The item is written: its objects stay.
  void release() noexcept { stored_.clear(); }

  // Whether `key` is one of this put's objects.
  bool stored(std::string_view key) const noexcept {
    for (const BlobRef& ref : refs_) {
      if (ref.blob == key) return true;
    }
    return false;
  }

 private:
  void store_all(const backend::TableSpec& spec, const T& item, std::string_view pk,
                 std::string_view sk) {
    for_each_field(item, [&](auto index, const auto& field) {
      constexpr std::size_t I = decltype(index)::value;
      if constexpr (blob_field_v<T, I>) {
        const auto* value = [&] {
          if constexpr (is_optional_v<std::remove_cvref_t<decltype(field)>>) {
            return field ? &*field : nullptr;
          } else {
            return &field;
          }
        }();
        if (value == nullptr) return;
        const std::string_view bytes = blob_bytes_of(*value);
        if (bytes.size() <= blob_threshold_of<T>()) return;
        constexpr std::string_view member = stored_names_v<T>[I];
        BlobRef& ref = refs_[I];
        ref.blob = blob_object_key(spec.name, pk, sk, member);
        ref.size = static_cast<std::int64_t>(bytes.size());
        ref.sha256 = sha256_hex(bytes);
        store_->put(ref.blob, bytes,
                    BlobMetadata{spec.name, std::string(pk), std::string(sk), std::string(member)});
        stored_.push_back(ref.blob);
        writes_.refs[I] = &ref;
      }
    });
  }

  // The item was not written: its objects would be orphans. A removal that fails leaves one
  // for sweep_blobs.
  void remove_stored() noexcept {
    for (const std::string& key : stored_) {
      try {
        store_->remove(key);
      } catch (...) {
      }
    }
    stored_.clear();
  }

  BlobStore* store_;
  std::vector<BlobRef> refs_;
  std::vector<std::string> stored_;
  BlobWrites writes_;
  const BlobWrites* previous_;
};

}  // namespace pksk::detail

#ifndef PKSK_SEPARATE_COMPILATION
#include "../impl/blob_scopes.ipp"
#endif
