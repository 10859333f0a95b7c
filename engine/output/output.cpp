#include "engine/output/output.h"

#include <cerrno>
#include <ctime>
#include <unistd.h>

#include "engine/output/json_escape.h"
#include "engine/output/number_text.h"

namespace rawprobe {

namespace {
constexpr size_t kFlushThreshold = 1 << 16;

Status write_all(int fd, const char* data, size_t size) {
  while (size) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return syscall_error("write output", "write", errno, "fd " + std::to_string(fd));
    }
    data += n;
    size -= size_t(n);
  }
  return {};
}
}  // namespace

Output::Output(OutputFormat format, int fd, int console_fd)
    // Exposition formats print everything but maps (which go to a MapSink) as text.
    : format_(format == OutputFormat::Json ? OutputFormat::Json : OutputFormat::Text), fd_(fd), console_fd_(console_fd) {
  buf_.reserve(kFlushThreshold * 2);
}

Output::~Output() { (void)flush(); }

Status Output::flush() {
  Status st;
  if (!buf_.empty()) st = write_all(fd_, buf_.data(), buf_.size());
  buf_.clear();
  if (!sink_) return st;
  Status sunk = sink_->flush();
  return st ? sunk : st;
}

void Output::maybe_flush() {
  if (buf_.size() >= kFlushThreshold) (void)flush();
}

void Output::message(const char* type, std::string_view text) {
  if (format_ == OutputFormat::Text) {
    buf_ += text;
  } else {
    buf_ += "{\"type\": \"";
    buf_ += type;
    buf_ += "\", \"data\": \"";
    append_json_escaped(buf_, text);
    buf_ += "\"}\n";
  }
  maybe_flush();
}

void Output::attached_probes(uint64_t count) {
  if (format_ == OutputFormat::Text) {
    buf_ += "Attaching ";
    append_number(buf_, count);
    buf_ += count == 1 ? " probe...\n" : " probes...\n";
  } else {
    buf_ += "{\"type\": \"attached_probes\", \"data\": {\"probes\": ";
    append_number(buf_, count);
    buf_ += "}}\n";
  }
}

void Output::lost_events(uint64_t count) {
  if (format_ == OutputFormat::Text) {
    buf_ += "Lost ";
    append_number(buf_, count);
    buf_ += " events\n";
  } else {
    buf_ += "{\"type\": \"lost_events\", \"data\": {\"events\": ";
    append_number(buf_, count);
    buf_ += "}}\n";
  }
}

void Output::printf_event(const PrintfFormatter& formatter, const uint8_t* args, size_t len) {
  if (format_ == OutputFormat::Text) {
    formatter.append(buf_, args, len);
    maybe_flush();
    return;
  }
  thread_local std::string text;
  text.clear();
  formatter.append(text, args, len);
  message("printf", text);
}

void Output::text_event(const char* type, std::string_view text) {
  if (format_ != OutputFormat::Text) return message(type, text);
  buf_ += text;
  maybe_flush();
}

Result<std::string> format_local_time(const std::string& strftime_format) {
  time_t now = ::time(nullptr);
  struct tm local;
  if (!localtime_r(&now, &local)) return syscall_error("time()", "localtime_r", errno);
  char text[64];
  size_t n = strftime(text, sizeof text, strftime_format.c_str(), &local);
  if (n == 0)
    return make_error("time(): strftime returned 0", strftime_format,
                      "the format must produce between 1 and 63 bytes");
  return std::string(text, n);
}

Status Output::time_event(const std::string& strftime_format) {
  auto text = format_local_time(strftime_format);
  if (!text) return text.error();
  message("time", *text);
  return {};
}

void Output::map(const MapDesc& map, const MapEntries& entries, uint32_t top, uint32_t div) {
  if (sink_) return sink_->map(map, entries);
  append_map(buf_, format_, map, entries, top, div);
  maybe_flush();
}

void Output::value(const Type& type, const uint8_t* bytes) {
  if (format_ == OutputFormat::Json) {
    buf_ += "{\"type\": \"value\", \"data\": ";
    append_value(buf_, format_, type, bytes);
    buf_ += "}\n";
  } else {
    append_value(buf_, format_, type, bytes);
    buf_ += '\n';
  }
  maybe_flush();
}

void Output::exit_separator() {
  // Order matters when both are stdout: what was printed before comes first.
  (void)flush();
  (void)write_all(console_fd_, "\n\n", 2);
}

}  // namespace rawprobe
