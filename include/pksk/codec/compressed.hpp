// SPDX-License-Identifier: BSL-1.0
#pragma once
// Members stored zstd-compressed, as a binary attribute (DynamoDB's B; in the SQLite body
// {"":"<base64>"}): the first of DynamoDB's answers to items past 400 KB.
//
//   template <> struct pksk::Entity<Reply> {
//     ...
//     static constexpr std::array compressed = {"message"};  // by C++ member name
//     static constexpr int compression_level = 3;            // optional: zstd's level, 1..19
//   };
//
// What is stored is one plain zstd frame with its content size in the header and a checksum of
// the content at its end, nothing around it: `aws dynamodb get-item` output decoded from base64
// pipes into `zstd -d`, and another program reads it with any zstd library. A member may be
// std::string, std::vector<std::byte>, or an std::optional of either (empty: the attribute is
// absent, as for any optional).
//
// libzstd is needed only by a program with a compressed member: the calls into it are in
// templates instantiated for such an entity alone, so a program without one neither includes
// anything it lacks nor links libzstd. What says a program links it is PKSK_ZSTD=1, defined by
// the CMake target pksk::zstd, pkg-config's pksk-zstd and Conan's pksk::zstd component: a
// <zstd.h> found on the include path proves nothing about the link line, and a compressed
// member compiled without PKSK_ZSTD is one compile error naming it rather than a page of
// undefined ZSTD_* symbols at link time.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "../detail/diagnose.hpp"
#include "../detail/fixed_string.hpp"
#include "../detail/std_traits.hpp"
#include "../key/entity.hpp"
#include "../key/index.hpp"
#include "../key/key.hpp"
#include "../reflect/reflect.hpp"
#include "detail/json_path.hpp"
#include "detail/marked_members.hpp"

#if defined(PKSK_ZSTD) && PKSK_ZSTD
#include <zstd.h>
// 1 where <zstd.h> is found: compressed members can be written and read (else 0).
#define PKSK_DETAIL_HAS_ZSTD 1
#else
// 0 where <zstd.h> is not found: an entity with a compressed member is a compile error.
#define PKSK_DETAIL_HAS_ZSTD 0
#endif

namespace pksk {

// The largest value a compressed member decompresses to (and the largest one written): a
// stored frame that claims more is refused as a DecodeError rather than allocated, so that a
// few hundred bytes crafted to expand a thousandfold (a "zip bomb") cannot exhaust memory.
inline constexpr std::size_t max_decompressed_bytes = 64 * 1024 * 1024;

namespace diagnostics {
// A name in Entity<T>::compressed that is not a member of Record (by its C++ name).
template <class Record, detail::fixed_string Name>
struct compressed_names_no_member_of_the_entity;
// A compressed member whose type is neither std::string nor std::vector<std::byte> (nor an
// std::optional of either): only text and bytes are compressed.
template <class Record, detail::fixed_string Member, class Type>
struct compressed_member_must_be_a_string_or_binary;
// A compressed member in the entity's partition- or sort-key template, or in an index's: a key
// is text DynamoDB compares, never compressed bytes.
template <class Record, detail::fixed_string Member>
struct compressed_member_appears_in_a_key_template;
// A member named twice in Entity<T>::compressed.
template <class Record, detail::fixed_string Member>
struct member_is_compressed_twice;
// An entity with a compressed member (Member, its first) in a program compiled without
// PKSK_ZSTD=1, which the CMake target pksk::zstd (pkg-config: pksk-zstd) defines along with
// linking libzstd.
template <class Record, detail::fixed_string Member>
struct compressed_member_needs_libzstd_link_the_target_pksk_zstd;
}  // namespace diagnostics

namespace detail {

template <class T>
consteval auto compressed_names_of() {
  if constexpr (requires { Entity<T>::compressed; }) {
    return marked_names(Entity<T>::compressed);
  } else {
    return std::array<std::string_view, 0>{};
  }
}

// The C++ names of T's compressed members, as declared.
template <class T>
inline constexpr auto compressed_names_v = compressed_names_of<T>();

// Whether T declares compressed members: everything below is compiled only then.
template <class T>
inline constexpr bool has_compressed_v = compressed_names_v<T>.size() != 0;

// Which fields of T are compressed, by index.
template <class T>
inline constexpr auto compressed_fields_v = marked_fields<T>(compressed_names_v<T>);

template <class T, std::size_t I>
inline constexpr bool is_compressed_field_v = [] {
  if constexpr (has_compressed_v<T>) {
    return compressed_fields_v<T>[I];
  } else {
    return false;
  }
}();

// The value types a compressed member may hold.
template <class V>
inline constexpr bool compressible_v = std::is_same_v<V, std::string> || is_binary_v<V>;
template <class M>
inline constexpr bool compressible_member_v = compressible_v<unwrap_optional_t<M>>;

// The first thing wrong with T's `compressed`, if any.
using CompressedProblem = MarkedProblem;

template <class T>
consteval CompressedProblem compressed_problem() {
  std::array<bool, field_count_v<T>> storable{};
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((storable[I] = compressible_member_v<field_type_t<T, I>>), ...);
  }(std::make_index_sequence<field_count_v<T>>{});
  return marked_problem<T>(compressed_names_v<T>, storable);
}

template <class T, std::size_t N>
inline constexpr fixed_string<compressed_names_v<T>[N].size()> compressed_name_text_v{
    compressed_names_v<T>[N]};

// Reports compressed_problem<T>(), one rule, once per entity.
template <class T, CompressedProblem P = compressed_problem<T>()>
struct CompressedCheck {
  static constexpr bool ok = [] {
    if constexpr (has_compressed_v<T>) {
      return diagnose_v<PKSK_DETAIL_HAS_ZSTD != 0,
                        diagnostics::compressed_member_needs_libzstd_link_the_target_pksk_zstd<
                            T, compressed_name_text_v<T, 0>>>;
    } else {
      return true;
    }
  }();
};
template <class T, CompressedProblem P>
  requires(P.kind == CompressedProblem::Kind::no_member)
struct CompressedCheck<T, P> {
  static constexpr bool ok = diagnose_v<
      false,
      diagnostics::compressed_names_no_member_of_the_entity<T, compressed_name_text_v<T, P.name>>>;
};
template <class T, CompressedProblem P>
  requires(P.kind == CompressedProblem::Kind::twice)
struct CompressedCheck<T, P> {
  static constexpr bool ok =
      diagnose_v<false,
                 diagnostics::member_is_compressed_twice<T, compressed_name_text_v<T, P.name>>>;
};
template <class T, CompressedProblem P>
  requires(P.kind == CompressedProblem::Kind::type)
struct CompressedCheck<T, P> {
  static constexpr bool ok =
      diagnose_v<false, diagnostics::compressed_member_must_be_a_string_or_binary<
                            T, field_name_text_v<T, P.field>, field_type_t<T, P.field>>>;
};
template <class T, CompressedProblem P>
  requires(P.kind == CompressedProblem::Kind::key)
struct CompressedCheck<T, P> {
  static constexpr bool ok = diagnose_v<
      false,
      diagnostics::compressed_member_appears_in_a_key_template<T, field_name_text_v<T, P.field>>>;
};

// Whether field I of T is compressed, once T's declaration has been checked: false for a
// declaration with a problem, so that the one diagnostic is the only error.
template <class T, std::size_t I>
inline constexpr bool compresses_field_v = [] {
  if constexpr (has_compressed_v<T>) {
    return CompressedCheck<T>::ok && is_compressed_field_v<T, I> &&
           compressible_member_v<field_type_t<T, I>>;
  } else {
    return false;
  }
}();

template <class T>
consteval int compression_level_of() {
  if constexpr (requires { Entity<T>::compression_level; }) {
    return Entity<T>::compression_level;
  } else {
    return 3;  // zstd's default: about the speed of gzip -1 at the ratio of gzip -6
  }
}

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_too_large_to_compress(std::size_t size) {
  throw_pathed("a compressed member of " + std::to_string(size) + " bytes is larger than " +
               std::to_string(max_decompressed_bytes) +
               " (pksk::max_decompressed_bytes), which no read would accept");
}

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_not_a_frame(std::string_view why) {
  throw_pathed("a compressed member's stored bytes are not one zstd frame: " + std::string(why));
}

// A stored frame decoded from base64, in storage the thread reuses.
inline std::string& stored_frame_buffer() {
  thread_local std::string frame;
  return frame;
}

#if PKSK_DETAIL_HAS_ZSTD

// One context per thread and direction, reused: creating one per value costs more than
// compressing a short one. Inline functions, never called unless an entity compresses, so
// that a program without compressed members holds no reference to libzstd.
struct ZstdContexts {
  struct FreeC {
    void operator()(ZSTD_CCtx* c) const noexcept { ZSTD_freeCCtx(c); }
  };
  struct FreeD {
    void operator()(ZSTD_DCtx* d) const noexcept { ZSTD_freeDCtx(d); }
  };
  std::unique_ptr<ZSTD_CCtx, FreeC> compress{ZSTD_createCCtx()};
  std::unique_ptr<ZSTD_DCtx, FreeD> decompress{ZSTD_createDCtx()};
  // The last value compressed, its level and its frame: DynamoDB's writes encode an item
  // twice (its AttributeValue JSON, then its size), and the second pass finds its frame here
  // at the cost of a comparison instead of a compression.
  std::string input;
  int level = 0;
  bool remembered = false;
  std::string frame;
  std::size_t frame_size = 0;

  static ZstdContexts& mine() {
    thread_local ZstdContexts contexts;
    return contexts;
  }
};

// `bytes` as one zstd frame at `level`, into the thread's reused buffer (valid until the
// thread's next compression). Throws PathedFailure.
inline std::string_view zstd_compress(std::string_view bytes, int level) {
  if (bytes.size() > max_decompressed_bytes) [[unlikely]]
    throw_too_large_to_compress(bytes.size());
  ZstdContexts& z = ZstdContexts::mine();
  if (z.remembered && level == z.level && bytes == z.input) return {z.frame.data(), z.frame_size};
  z.remembered = false;  // until this compression succeeds
  z.frame.resize(ZSTD_compressBound(bytes.size()));
  // The frame declares its content size (what a read checks first) and ends with a checksum of
  // the content, so that a corrupted byte is a DecodeError rather than a different value.
  ZSTD_CCtx* c = z.compress.get();
  ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
  const std::size_t n =
      ZSTD_compress2(c, z.frame.data(), z.frame.size(), bytes.data(), bytes.size());
  if (ZSTD_isError(n)) [[unlikely]]
    throw_pathed(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
  z.input.assign(bytes);
  z.level = level;
  z.frame_size = n;
  z.remembered = true;
  return {z.frame.data(), n};
}

// A stored frame decompressed into out (a std::string or std::vector<std::byte>): exactly one
// frame, its content size declared and at most max_decompressed_bytes. Throws PathedFailure.
template <class Bytes>
void zstd_decompress(std::string_view frame, Bytes& out) {
  const unsigned long long size = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (size == ZSTD_CONTENTSIZE_ERROR) [[unlikely]]
    throw_not_a_frame("no zstd frame header");
  if (size == ZSTD_CONTENTSIZE_UNKNOWN) [[unlikely]]
    throw_not_a_frame("its header does not declare the content size");
  if (size > max_decompressed_bytes) [[unlikely]] {
    throw_pathed("a compressed member would decompress to " + std::to_string(size) +
                 " bytes, more than pksk::max_decompressed_bytes (" +
                 std::to_string(max_decompressed_bytes) + ")");
  }
  const std::size_t whole = ZSTD_findFrameCompressedSize(frame.data(), frame.size());
  if (ZSTD_isError(whole)) [[unlikely]]
    throw_not_a_frame(ZSTD_getErrorName(whole));
  if (whole != frame.size()) [[unlikely]]
    throw_not_a_frame("bytes follow the frame");
  out.resize(static_cast<std::size_t>(size));
  const std::size_t n = ZSTD_decompressDCtx(ZstdContexts::mine().decompress.get(), out.data(),
                                            out.size(), frame.data(), frame.size());
  if (ZSTD_isError(n)) [[unlikely]]
    throw_not_a_frame(ZSTD_getErrorName(n));
  if (n != out.size()) [[unlikely]]
    throw_not_a_frame("it holds fewer bytes than its header declares");
}

#else

// Declared only, so that the templates below parse: an entity with a compressed member reports
// compressed_member_needs_libzstd_link_the_target_pksk_zstd and never calls them.
std::string_view zstd_compress(std::string_view bytes, int level);
template <class Bytes>
void zstd_decompress(std::string_view frame, Bytes& out);

#endif  // PKSK_DETAIL_HAS_ZSTD

// The bytes of a compressible value.
template <class V>
std::string_view bytes_of(const V& value) noexcept {
  if constexpr (std::is_same_v<V, std::string>) {
    return value;
  } else {
    return {reinterpret_cast<const char*>(value.data()), value.size()};
  }
}

}  // namespace detail
}  // namespace pksk
