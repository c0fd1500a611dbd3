// Reading user JSON with errors that name the file, the JSON pointer and the rule broken.
#pragma once

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dla::harness {

struct JsonDoc {
  std::filesystem::path file;
  nlohmann::json root;
};

// Parses a JSON file; a syntax error names the line and column.
[[nodiscard]] std::shared_ptr<const JsonDoc> parse_json_file(const std::filesystem::path& file);
[[nodiscard]] std::shared_ptr<const JsonDoc> parse_json_text(const std::filesystem::path& file,
                                                             const std::string& text);

class JsonNode {
 public:
  JsonNode(std::shared_ptr<const JsonDoc> doc, const nlohmann::json* value, std::string pointer)
      : doc_(std::move(doc)), value_(value), pointer_(std::move(pointer)) {}
  static JsonNode root(const std::shared_ptr<const JsonDoc>& doc) { return {doc, &doc->root, ""}; }

  [[nodiscard]] const std::string& pointer() const { return pointer_; }
  [[nodiscard]] std::string where() const { return pointer_.empty() ? "/" : pointer_; }
  [[nodiscard]] const std::filesystem::path& file() const { return doc_->file; }
  [[nodiscard]] const nlohmann::json& raw() const { return *value_; }

  [[noreturn]] void fail(const std::string& rule) const;

  [[nodiscard]] bool is_object() const { return value_->is_object(); }
  [[nodiscard]] bool is_array() const { return value_->is_array(); }
  [[nodiscard]] bool is_string() const { return value_->is_string(); }
  [[nodiscard]] bool is_number() const { return value_->is_number(); }

  // Object access. `require` fails when absent; `get` returns nullopt.
  [[nodiscard]] JsonNode require(std::string_view key) const;
  [[nodiscard]] std::optional<JsonNode> get(std::string_view key) const;
  // Fails naming the first key that is not in `allowed`.
  void allow_keys(std::initializer_list<std::string_view> allowed) const;

  // Array access.
  [[nodiscard]] std::size_t size() const;
  [[nodiscard]] JsonNode operator[](std::size_t i) const;
  [[nodiscard]] std::vector<JsonNode> items() const;

  // Scalars. Integers accept JSON numbers or strings "0x1f" / "-12"; bounds are inclusive.
  [[nodiscard]] int64_t as_int(int64_t min, int64_t max) const;
  [[nodiscard]] uint64_t as_u64(uint64_t max = UINT64_MAX) const;
  [[nodiscard]] double as_double(double min, double max) const;
  [[nodiscard]] bool as_bool() const;
  [[nodiscard]] std::string as_string() const;
  // One of `choices`.
  [[nodiscard]] std::string as_choice(std::initializer_list<std::string_view> choices) const;

 private:
  std::shared_ptr<const JsonDoc> doc_;
  const nlohmann::json* value_;
  std::string pointer_;
};

// Parses "123", "-5", "0x1F" (and "0b101"); nullopt when the text is not an integer.
[[nodiscard]] std::optional<int64_t> parse_int_text(std::string_view text);
[[nodiscard]] std::optional<uint64_t> parse_u64_text(std::string_view text);

}  // namespace dla::harness
