#pragma once
// ParsedItem: an item its backend has already parsed (an item inside a DynamoDB answer), handed
// to the codec to be read where it lies instead of parsed again. Opaque on purpose: the backend
// contract carries it without knowing the JSON parser; only the codec (codec.hpp) and the
// backend that made it open it.

namespace pksk {

class ParsedItem {
 public:
  ParsedItem() = default;
  explicit ParsedItem(void* object) noexcept : object_(object) {}
  void* get() const noexcept { return object_; }
  explicit operator bool() const noexcept { return object_ != nullptr; }

 private:
  void* object_ = nullptr;
};

}  // namespace pksk
