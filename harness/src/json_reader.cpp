#include "harness/json_reader.hpp"

#include <fmt/format.h>

#include <charconv>

#include "harness/errors.hpp"
#include "harness/files.hpp"

namespace dla::harness {

namespace {

std::string escape_pointer_token(std::string_view key) {
  std::string out;
  for (const char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

std::string type_name(const nlohmann::json& v) { return v.type_name(); }

}  // namespace

std::shared_ptr<const JsonDoc> parse_json_text(const std::filesystem::path& file, const std::string& text) {
  auto doc = std::make_shared<JsonDoc>();
  doc->file = file;
  try {
    doc->root = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // Turn the byte offset into line:column.
    const std::size_t pos = e.byte == 0 ? 0 : e.byte - 1;
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i < pos && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    std::string what = e.what();
    const auto cut = what.find("syntax error");
    throw InputError(file.string(), fmt::format("line {}, column {}", line, col),
                     "malformed JSON: " + (cut == std::string::npos ? what : what.substr(cut)));
  } catch (const nlohmann::json::out_of_range& e) {
    // A number beyond a double's range (1e999): the parser reports no position (found by fuzzing).
    std::string what = e.what();
    const auto cut = what.find("number overflow");
    throw InputError(file.string(), "", "malformed JSON: " + (cut == std::string::npos ? what : what.substr(cut)));
  }
  return doc;
}

std::shared_ptr<const JsonDoc> parse_json_file(const std::filesystem::path& file) {
  return parse_json_text(file, read_text_file(file));
}

void JsonNode::fail(const std::string& rule) const { throw InputError(doc_->file.string(), where(), rule); }

JsonNode JsonNode::require(std::string_view key) const {
  if (!value_->is_object()) fail("must be an object, found " + type_name(*value_));
  const auto it = value_->find(key);
  if (it == value_->end()) fail(fmt::format("missing required field \"{}\"", key));
  return {doc_, &*it, pointer_ + "/" + escape_pointer_token(key)};
}

std::optional<JsonNode> JsonNode::get(std::string_view key) const {
  if (!value_->is_object()) fail("must be an object, found " + type_name(*value_));
  const auto it = value_->find(key);
  if (it == value_->end()) return std::nullopt;
  return JsonNode{doc_, &*it, pointer_ + "/" + escape_pointer_token(key)};
}

void JsonNode::allow_keys(std::initializer_list<std::string_view> allowed) const {
  if (!value_->is_object()) fail("must be an object, found " + type_name(*value_));
  for (const auto& [key, val] : value_->items()) {
    bool ok = false;
    for (const auto a : allowed) ok = ok || a == key;
    if (!ok) {
      std::string list;
      for (const auto a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      JsonNode{doc_, &val, pointer_ + "/" + escape_pointer_token(key)}.fail(
          fmt::format("unknown field \"{}\" (allowed here: {})", key, list));
    }
  }
}

std::size_t JsonNode::size() const {
  if (!value_->is_array()) fail("must be an array, found " + type_name(*value_));
  return value_->size();
}

JsonNode JsonNode::operator[](std::size_t i) const {
  if (!value_->is_array()) fail("must be an array, found " + type_name(*value_));
  return {doc_, &(*value_)[i], pointer_ + "/" + std::to_string(i)};
}

std::vector<JsonNode> JsonNode::items() const {
  std::vector<JsonNode> out;
  for (std::size_t i = 0; i < size(); ++i) out.push_back((*this)[i]);
  return out;
}

std::optional<int64_t> parse_int_text(std::string_view t) {
  bool neg = false;
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) {
    neg = t[0] == '-';
    t.remove_prefix(1);
  }
  const auto mag = parse_u64_text(t);
  if (!mag) return std::nullopt;
  if (neg) {
    if (*mag > uint64_t{1} << 63) return std::nullopt;
    return static_cast<int64_t>(0 - *mag);
  }
  if (*mag > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
  return static_cast<int64_t>(*mag);
}

std::optional<uint64_t> parse_u64_text(std::string_view t) {
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    base = 16;
    t.remove_prefix(2);
  } else if (t.size() > 2 && t[0] == '0' && (t[1] == 'b' || t[1] == 'B')) {
    base = 2;
    t.remove_prefix(2);
  }
  if (t.empty()) return std::nullopt;
  uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v, base);
  if (ec != std::errc{} || ptr != t.data() + t.size()) return std::nullopt;
  return v;
}

int64_t JsonNode::as_int(int64_t min, int64_t max) const {
  int64_t v = 0;
  if (value_->is_number_integer()) {
    if (value_->is_number_unsigned() && value_->get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
      fail(fmt::format("must be an integer in [{}, {}]", min, max));
    }
    v = value_->get<int64_t>();
  } else if (value_->is_string()) {
    const auto p = parse_int_text(value_->get<std::string>());
    if (!p) fail(fmt::format("\"{}\" is not an integer", value_->get<std::string>()));
    v = *p;
  } else {
    fail("must be an integer, found " + type_name(*value_));
  }
  if (v < min || v > max) fail(fmt::format("{} is out of range [{}, {}]", v, min, max));
  return v;
}

uint64_t JsonNode::as_u64(uint64_t max) const {
  uint64_t v = 0;
  if (value_->is_number_unsigned()) {
    v = value_->get<uint64_t>();
  } else if (value_->is_number_integer()) {
    fail(fmt::format("{} is negative; must be in [0, {}]", value_->get<int64_t>(), max));
  } else if (value_->is_string()) {
    const auto p = parse_u64_text(value_->get<std::string>());
    if (!p) fail(fmt::format("\"{}\" is not a non-negative integer", value_->get<std::string>()));
    v = *p;
  } else {
    fail("must be a non-negative integer, found " + type_name(*value_));
  }
  if (v > max) fail(fmt::format("{} is out of range [0, {}]", v, max));
  return v;
}

double JsonNode::as_double(double min, double max) const {
  if (!value_->is_number()) fail("must be a number, found " + type_name(*value_));
  const double v = value_->get<double>();
  if (!(v >= min && v <= max)) fail(fmt::format("{} is out of range [{}, {}]", v, min, max));
  return v;
}

bool JsonNode::as_bool() const {
  if (!value_->is_boolean()) fail("must be true or false, found " + type_name(*value_));
  return value_->get<bool>();
}

std::string JsonNode::as_string() const {
  if (!value_->is_string()) fail("must be a string, found " + type_name(*value_));
  return value_->get<std::string>();
}

std::string JsonNode::as_choice(std::initializer_list<std::string_view> choices) const {
  const std::string s = as_string();
  std::string list;
  for (const auto c : choices) {
    if (c == s) return s;
    list += (list.empty() ? "" : ", ") + std::string(c);
  }
  fail(fmt::format("\"{}\" is not one of: {}", s, list));
}

}  // namespace dla::harness
