#include "engine/metrics/exposition_sink.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

#include "engine/base/fd.h"
#include "engine/metrics/map_families.h"

namespace rawprobe::metrics {
namespace {

Status write_all(int fd, const std::string& text, const std::string& object) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return syscall_error("write the metrics exposition", "write", errno, object);
    }
    done += size_t(n);
  }
  return {};
}

}  // namespace

Status replace_file(const std::string& path, const std::string& text) {
  std::string tmp = path + ".tmp";
  // As -o: a symlink planted at the temporary name is refused, not followed.
  Fd fd(open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644));
  if (!fd) return syscall_error("write the metrics file", "open", errno, tmp, "give -o a path in a writable directory");
  if (Status s = write_all(fd.get(), text, tmp); !s) return s;
  fd.reset();
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    return syscall_error("replace the metrics file", "rename", errno, path);
  return {};
}

ExpositionSink::ExpositionSink(const MetricsPlan& plan, const std::vector<std::string>& map_names,
                               ExpositionFormat format, std::string path)
    : plan_(plan), format_(format), path_(std::move(path)) {
  for (size_t i = 0; i < map_names.size(); i++) index_[map_names[i]] = i;
}

void ExpositionSink::map(const MapDesc& map, const MapEntries& entries) {
  auto it = index_.find(map.name);
  if (it == index_.end() || it->second >= plan_.maps.size()) return;
  std::string text;
  ExpositionWriter writer(text, format_);
  append_map_family(writer, plan_.maps[it->second], map, entries);
  batch_ += text;
  latest_[map.name] = std::move(text);
  changed_ = true;
}

Status ExpositionSink::flush() {
  if (!changed_) return {};
  changed_ = false;
  std::string text;
  if (path_.empty()) text.swap(batch_);
  else
    for (const auto& [name, families] : latest_) text += families;
  batch_.clear();
  ExpositionWriter(text, format_).finish();
  if (!path_.empty()) return replace_file(path_, text);
  return write_all(STDOUT_FILENO, text, "stdout");
}

}  // namespace rawprobe::metrics
