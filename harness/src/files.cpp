#include "harness/files.hpp"

#include <unistd.h>
#include <zlib.h>

#include <array>
#include <atomic>
#include <fstream>
#include <sstream>

#include "harness/errors.hpp"

namespace dla::harness {

namespace fs = std::filesystem;

PendingFile::PendingFile(fs::path final_path) : final_(std::move(final_path)) {
  static std::atomic<unsigned> counter{0};
  temp_ = final_;
  temp_ += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
}

PendingFile::~PendingFile() {
  if (!committed_) {
    std::error_code ec;
    fs::remove(temp_, ec);
  }
}

void PendingFile::commit() {
  fs::rename(temp_, final_);
  committed_ = true;
}

void write_file_atomic(const fs::path& path, std::string_view content) {
  PendingFile pending(path);
  {
    std::ofstream out(pending.temp(), std::ios::binary);
    if (!out) throw InputError(path.string(), "", "cannot create the output file");
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!out) throw InputError(path.string(), "", "cannot write the output file");
  }
  pending.commit();
}

void write_gzip_atomic(const fs::path& path, const std::vector<uint8_t>& bytes) {
  PendingFile pending(path);
  gzFile gz = gzopen(pending.temp().c_str(), "wb");
  if (gz == nullptr) throw InputError(path.string(), "", "cannot create the output file");
  const int written = bytes.empty() ? 0 : gzwrite(gz, bytes.data(), static_cast<unsigned>(bytes.size()));
  const int closed = gzclose(gz);
  if (written != static_cast<int>(bytes.size()) || closed != Z_OK) {
    throw InputError(path.string(), "", "cannot write the gzip output file");
  }
  pending.commit();
}

std::string read_text_file(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) throw InputError(path.string(), "", "file not found");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string(), "", "cannot open the file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<uint8_t> read_gzip_file(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) throw InputError(path.string(), "", "file not found");
  gzFile gz = gzopen(path.c_str(), "rb");
  if (gz == nullptr) throw InputError(path.string(), "", "cannot open the file");
  std::vector<uint8_t> out;
  std::array<uint8_t, 65536> buf{};
  for (;;) {
    const int n = gzread(gz, buf.data(), static_cast<unsigned>(buf.size()));
    if (n < 0) {
      gzclose(gz);
      throw InputError(path.string(), "", "corrupt gzip data");
    }
    if (n == 0) break;
    out.insert(out.end(), buf.begin(), buf.begin() + n);
  }
  gzclose(gz);
  return out;
}

}  // namespace dla::harness
