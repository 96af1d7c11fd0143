// SPDX-License-Identifier: BSL-1.0
#include "transfer.hpp"

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <set>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <pksk/codec/attribute_value_json.hpp>
#include <pksk/codec/attribute_value_read.hpp>

#include "items.hpp"

namespace pksk::inspect {

namespace {

// A gzip or plain file through zlib, which reads both and writes either ("T": uncompressed).
class File {
 public:
  File(const std::string& name, bool write) : name_(name == "-" ? "standard stream" : name) {
    const bool gzip = name.size() > 3 && name.ends_with(".gz");
    const char* mode = write ? (gzip ? "wb6" : "wbT") : "rb";
    if (name == "-") {
      file_ = gzdopen(dup(write ? STDOUT_FILENO : STDIN_FILENO), mode);
    } else {
      file_ = gzopen(name.c_str(), mode);
    }
    if (file_ == nullptr)
      throw Failure(std::string("cannot open ") + name_ + ": " + std::strerror(errno));
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;
  ~File() {
    if (file_ != nullptr) gzclose(file_);
  }

  void write(std::string_view text) {
    if (text.empty()) return;
    if (gzwrite(file_, text.data(), static_cast<unsigned>(text.size())) !=
        static_cast<int>(text.size())) {
      throw Failure("writing " + name_ + ": " + error());
    }
  }

  // The next line without its newline; false at the end.
  bool read_line(std::string& line) {
    line.clear();
    for (;;) {
      if (start_ == end_) {
        const int n = gzread(file_, buffer_, sizeof buffer_);
        if (n < 0) throw Failure("reading " + name_ + ": " + error());
        if (n == 0) return !line.empty();
        start_ = 0;
        end_ = static_cast<std::size_t>(n);
      }
      const std::string_view chunk(buffer_ + start_, end_ - start_);
      const std::size_t newline = chunk.find('\n');
      if (newline != std::string_view::npos) {
        line.append(chunk.substr(0, newline));
        start_ += newline + 1;
        return true;
      }
      line.append(chunk);
      start_ = end_;
    }
  }

  void close() {
    const int rc = gzclose(std::exchange(file_, nullptr));
    if (rc != Z_OK) throw Failure("closing " + name_ + ": zlib error " + std::to_string(rc));
  }

 private:
  std::string error() {
    int code = 0;
    const char* message = gzerror(file_, &code);
    return code == Z_ERRNO ? std::strerror(errno) : message;
  }

  std::string name_;
  gzFile file_ = nullptr;
  char buffer_[1 << 16];
  std::size_t start_ = 0, end_ = 0;
};

// {"Item":{...}} into an item map; anything else, or text after it, throws DecodeError.
AttributeValue parse_export_line(std::string_view line) {
  return detail::parse_object(line, [](simdjson::ondemand::value root, AttributeValue& item) {
    simdjson::ondemand::object wrapper;
    if (auto error = root.get_object().get(wrapper)) detail::throw_invalid_json(error);
    bool found = false;
    for (auto member : wrapper) {
      simdjson::ondemand::field field;
      std::string_view key;
      if (auto error = std::move(member).get(field)) detail::throw_invalid_json(error);
      if (auto error = field.unescaped_key().get(key)) detail::throw_invalid_json(error);
      if (key != "Item" || found)
        detail::throw_pathed("expected one member \"Item\", found \"" + std::string(key) + "\"");
      found = true;
      simdjson::ondemand::object object;
      if (auto error = field.value().get_object().get(object)) detail::throw_invalid_json(error);
      item = AttributeValue::empty_map();
      try {
        detail::read_attribute_value_members(object, item, 1);
      } catch (detail::PathedFailure& failure) {
        failure.prepend_member("Item");
        throw;
      }
    }
    if (!found) detail::throw_pathed("no \"Item\"");
  });
}

}  // namespace

void append_export_line(std::string& out, const AttributeValue& item) {
  out += "{\"Item\":";
  append_item_attribute_value_json(out, item);
  out += '}';
}

TransferCount export_items(const Location& where, const backend::TableSpec& table,
                           const std::string& file) {
  File out(file, true);
  const auto handle = where.backend.open_table(table);
  const BodyFormat format = where.backend.body_format(handle);
  TransferCount count;
  std::string text;
  std::string last_pk, last_sk;  // what the next page's exclusive_start views
  backend::RawScan scan;
  scan.consistent = true;
  for (;;) {
    text.clear();
    const backend::ScanOutcome page =
        where.backend.scan(handle, scan, [&](const backend::ItemView& row) {
          const AttributeValue item = whole_item(row, format, table);
          append_export_line(text, item);
          text += '\n';
          ++count.items;
          count.bytes += item_size(row, item);
        });
    out.write(text);
    if (!page.last_evaluated_pk) break;
    last_pk = *page.last_evaluated_pk;
    last_sk = *page.last_evaluated_sk;
    scan.exclusive_start = backend::ItemKey{last_pk, last_sk};
  }
  out.close();
  return count;
}

void write_batch(const Location& where, const AnyBackend::TableHandle& handle,
                 const std::vector<StoredItem>& items) {
  std::vector<backend::WriteRequest> writes;
  writes.reserve(items.size());
  for (const StoredItem& item : items) writes.emplace_back(backend::PutRequest{item.view()});
  std::vector<std::size_t> unprocessed;
  auto pause = std::chrono::milliseconds(50);
  for (int attempt = 0;; ++attempt) {
    where.backend.batch_write(handle, writes, unprocessed);
    if (unprocessed.empty()) return;
    if (attempt == 10) {
      throw Failure(std::to_string(unprocessed.size()) +
                    " items stayed unprocessed after 10 retries (throttled?)");
    }
    std::vector<backend::WriteRequest> again;
    for (const std::size_t i : unprocessed) again.push_back(writes[i]);
    writes = std::move(again);
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(5000));
  }
}

TransferCount import_items(const Location& where, const backend::TableSpec& table,
                           const std::string& file, std::size_t batch) {
  File in(file, false);
  const auto handle = where.backend.open_table(table);
  const BodyFormat format = where.backend.body_format(handle);
  TransferCount count;
  std::vector<StoredItem> pending;
  std::set<std::pair<std::string, std::string>> pending_keys;
  const auto flush = [&] {
    if (pending.empty()) return;
    write_batch(where, handle, pending);
    for (const StoredItem& item : pending) {
      ++count.items;
      count.bytes += item.size;
    }
    pending.clear();
    pending_keys.clear();
  };
  std::string line;
  std::size_t number = 0;
  while (in.read_line(line)) {
    ++number;
    if (line.empty() || line.find_first_not_of(" \t\r") == std::string::npos) continue;
    StoredItem item;
    try {
      item = stored_item(parse_export_line(line), format, table);
    } catch (const std::exception& e) {
      throw Failure((file == "-" ? std::string("standard input") : file) + ":" +
                    std::to_string(number) + ": not an item of a DynamoDB JSON export: " +
                    e.what() + " (" + std::to_string(count.items) + " items before it imported)");
    }
    // A batch holds a key once (DynamoDB refuses a BatchWriteItem that repeats one): a repeated
    // key starts the next batch, so the later line wins as it would one put at a time.
    if (!pending_keys.emplace(item.pk, item.sk).second) flush();
    pending_keys.emplace(item.pk, item.sk);
    pending.push_back(std::move(item));
    if (pending.size() >= batch) flush();
  }
  flush();
  return count;
}

}  // namespace pksk::inspect
