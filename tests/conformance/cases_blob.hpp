// SPDX-License-Identifier: BSL-1.0
// The conformance cases on blob members (Entity<T>::stored_in_blob_store), included by
// cases.hpp: a large member kept in a DirectoryBlobStore beside the table through put, get,
// query, item collections and scans, replaced and refused writes leaving no object behind, and
// a missing object read as a BlobError, on both backends (the item's reference is a map: an M
// on DynamoDB).

#include <filesystem>
#include <memory>

namespace conformance {

struct Attachment {
  std::string owner;
  std::string name;
  std::optional<std::string> text;
  std::vector<std::byte> data;
  friend bool operator==(const Attachment&, const Attachment&) = default;
};

struct AttachmentOwner {
  std::string owner;
  std::string display;
  friend bool operator==(const AttachmentOwner&, const AttachmentOwner&) = default;
};

}  // namespace conformance

template <>
struct pksk::Entity<conformance::Attachment> {
  static constexpr std::string_view type = "Attachment";
  static constexpr std::string_view pk = "OWNER#{owner}";
  static constexpr std::string_view sk = "FILE#{name}";
  static constexpr std::array stored_in_blob_store = {"text", "data"};
  static constexpr std::size_t blob_threshold = 64;
};
template <>
struct pksk::Entity<conformance::AttachmentOwner> {
  static constexpr std::string_view type = "AttachmentOwner";
  static constexpr std::string_view pk = "OWNER#{owner}";
  static constexpr std::string_view sk = "OWNER";
};

namespace conformance {

struct BlobDirectory {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("pksk-conformance-blobs-" + pksk::ulid());
  std::shared_ptr<pksk::DirectoryBlobStore> store = std::make_shared<pksk::DirectoryBlobStore>(dir);
  ~BlobDirectory() { std::filesystem::remove_all(dir); }
};

template <class Store>
auto make_blob_table(Store& store, const BlobDirectory& blobs) {
  pksk::TableOptions options;
  options.blob_store = blobs.store;
  return pksk::Table{store.backend, fresh_table_name(), options};
}

inline Attachment large_attachment(std::string name) {
  std::vector<std::byte> data(5000);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::byte>(i * 31);
  return Attachment{"ada", std::move(name), std::string(300, 'q'), std::move(data)};
}

}  // namespace conformance

TEST_CASE("a blob member past its threshold round-trips through the blob store", "[conformance]") {
  Store store;
  BlobDirectory blobs;
  auto table = make_blob_table(store, blobs);
  const Attachment big = large_attachment("a");
  const Attachment small{"ada", "b", "short", std::vector<std::byte>(3)};
  const Attachment none{"ada", "c", std::nullopt, {}};
  table.put(AttachmentOwner{"ada", "Ada"});
  table.put(big);
  table.put(small);
  table.put(none);
  CHECK(blobs.store->list("").size() == 2);
  CHECK(table.get(Attachment{"ada", "a", {}, {}}) == big);
  CHECK(table.get(Attachment{"ada", "b", {}, {}}) == small);
  CHECK(table.get(Attachment{"ada", "c", {}, {}}) == none);
  CHECK(table.template query<Attachment>(pksk::PartitionKey{"OWNER#ada"}) ==
        std::vector{big, small, none});
  CHECK(table.template scan<Attachment>() == std::vector{big, small, none});
  const auto both = table.template query<pksk::ItemCollection<AttachmentOwner, Attachment>>(
      pksk::PartitionKey{"OWNER#ada"});
  std::vector<Attachment> read;
  for (const auto& item : both) {
    if (const auto* a = std::get_if<Attachment>(&item)) read.push_back(*a);
  }
  CHECK(read == std::vector{big, small, none});
}

TEST_CASE("a blob member's objects follow the item's writes", "[conformance]") {
  Store store;
  BlobDirectory blobs;
  auto table = make_blob_table(store, blobs);
  Attachment a = large_attachment("a");
  table.put(a);
  const auto first = blobs.store->list("");
  REQUIRE(first.size() == 2);
  // A write refused by its condition leaves the objects as they were.
  Attachment other = large_attachment("a");
  other.text = std::string(400, 'r');
  CHECK_THROWS_AS(table.put(other, pksk::if_absent), pksk::ConditionFailed);
  const auto after_refusal = blobs.store->list("");
  REQUIRE(after_refusal.size() == 2);
  CHECK(after_refusal[0].key == first[0].key);
  CHECK(after_refusal[1].key == first[1].key);
  // A replacement removes the objects it no longer refers to.
  a.data.resize(10);
  table.put(a);
  const auto replaced = blobs.store->list("");
  REQUIRE(replaced.size() == 1);
  CHECK(table.get(a) == a);
  // A missing object is a BlobError naming the member and the item.
  blobs.store->remove(replaced[0].key);
  try {
    (void)table.get(a);
    FAIL("no error");
  } catch (const pksk::BlobError& e) {
    const std::string what = e.what();
    CHECK(what.find("'text'") != std::string::npos);
    CHECK(what.find("pk 'OWNER#ada', sk 'FILE#a'") != std::string::npos);
  }
}
