// File helpers. Every output file is written to a temporary name and renamed into place, so a
// run that fails or is interrupted never leaves half-written output.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace dla::harness {

void write_file_atomic(const std::filesystem::path& path, std::string_view content);
void write_gzip_atomic(const std::filesystem::path& path, const std::vector<uint8_t>& bytes);
// Reads a whole file; throws InputError naming the file if it is missing or unreadable.
[[nodiscard]] std::string read_text_file(const std::filesystem::path& path);
// Reads a gzip (or plain) file into bytes; throws InputError on a missing or corrupt file.
[[nodiscard]] std::vector<uint8_t> read_gzip_file(const std::filesystem::path& path);

// A temporary path next to `final` that is removed unless commit() is called.
class PendingFile {
 public:
  explicit PendingFile(std::filesystem::path final_path);
  ~PendingFile();
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;
  [[nodiscard]] const std::filesystem::path& temp() const { return temp_; }
  void commit();

 private:
  std::filesystem::path final_, temp_;
  bool committed_ = false;
};

}  // namespace dla::harness
