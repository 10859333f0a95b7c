#include "engine/runtime/dispatcher.h"

#include <algorithm>
#include <iterator>
#include <cstdio>
#include <cstring>

#include "engine/base/layout.h"
#include "engine/runtime/command_events.h"
#include "engine/sys/bpf_map.h"

namespace rawprobe::runtime {
namespace {

bool has_symbols(const std::vector<Type>& types) {
  for (const Type& t : types)
    if (StackText::handles(t) || (t.kind == TypeKind::Tuple && has_symbols(t.fields))) return true;
  return false;
}

uint64_t field(const uint8_t* record, size_t len, size_t index) {
  uint64_t v = 0;
  if ((index + 1) * 8 <= len) std::memcpy(&v, record + index * 8, 8);
  return v;
}

}  // namespace

Result<EventDispatcher> EventDispatcher::make(const lang::ProgramInfo& info,
                                              const codegen::CompiledScript& script,
                                              const ScriptMaps& maps, Output& out) {
  EventDispatcher d(info, script, maps, out);
  d.text_.set_symbols(maps.symbols());
  for (const lang::PrintfInfo& p : info.printfs) {
    std::vector<Type> types;
    for (const lang::PrintfArg& a : p.args) types.push_back(a.type);
    // `probe` and `func` arguments reach the formatter as their text.
    bool ids = PointText::has_ids(types);
    d.printf_ids_.push_back(ids ? types : std::vector<Type>{});
    // join()'s format is its separator, which no formatter reads.
    std::string format = p.function == lang::FunctionId::Join ? "" : p.format;
    Result<PrintfFormatter> f = PrintfFormatter::make(format, ids ? d.text_.text_types(types) : std::move(types));
    if (!f) {
      f.error().object = "printf(\"" + p.format + "\")";
      return f.error();
    }
    d.printfs_.push_back(std::move(*f));
  }
  return d;
}

std::span<const uint8_t> EventDispatcher::as_text(const std::vector<Type>& types, const uint8_t* data, size_t len) {
  // A short record (it cannot be, but the bytes come from outside) reads as zeros.
  size_t size = layout_of(types).size;
  raw_.assign(size, 0);
  std::memcpy(raw_.data(), data, std::min(size, len));
  // Stacks and symbols in printf and print() are indented by 8, as bpftrace's.
  text_.set_style(StackStyle{8, false});
  text_.reset_width();
  text_.fit(types, raw_.data());
  text_bytes_.resize(layout_of(text_.text_types(types)).size);
  text_.write_text(types, raw_.data(), text_bytes_.data());
  return text_bytes_;
}

uint64_t EventDispatcher::take_lost(uint64_t reader_lost) {
  reader_lost_ += reader_lost;
  uint64_t counted = 0;
  if (script_->lost_events_map >= 0) {
    uint32_t key = 0;
    Result<bool> found = sys::map_lookup(maps_->fd(size_t(script_->lost_events_map)), &key, &counted);
    if (!found) problem("read the lost-event count: " + found.error().message());
  }
  uint64_t total = std::max(reader_lost_, counted);
  if (total <= lost_reported_) return 0;
  uint64_t lost = total - lost_reported_;
  lost_reported_ = total;
  return lost;
}

void EventDispatcher::problem(std::string text) {
  for (const std::string& seen : problems_)
    if (seen == text) return;
  problems_.push_back(std::move(text));
}

void EventDispatcher::handle(const uint8_t* record, size_t len) {
  if (ignoring_ || len < kEventHeaderSize) return;
  uint64_t id = field(record, len, 0);
  if (id < codegen::kAsyncBase) {
    if (id >= printfs_.size()) return problem("event with unknown printf id " + std::to_string(id));
    const std::vector<Type>& ids = printf_ids_[id];
    std::span<const uint8_t> args(record + kEventHeaderSize, len - kEventHeaderSize);
    if (!ids.empty()) args = as_text(ids, args.data(), args.size());
    if (info_->printfs[id].function != lang::FunctionId::Printf) return command_event(id, args);
    if (ids.empty() || !has_symbols(ids)) return out_->printf_event(printfs_[id], args.data(), args.size());
    // The strings of stacks and symbols are as wide as this event's texts.
    Result<PrintfFormatter> f = PrintfFormatter::make(info_->printfs[id].format, text_.text_types(ids));
    if (!f) return problem(f.error().message());
    out_->printf_event(*f, args.data(), args.size());
    return;
  }
  using Handler = void (EventDispatcher::*)(const uint8_t*, size_t);
  static constexpr Handler kHandlers[] = {
#define ASYNC_EVENT(name, handler) &EventDispatcher::handler,
#include "engine/codegen/async_events.def"
#undef ASYNC_EVENT
  };
  uint64_t index = id - codegen::kAsyncBase;
  if (index >= std::size(kHandlers)) return problem("event with unknown id " + std::to_string(id));
  (this->*kHandlers[index])(record, len);
}

void EventDispatcher::on_exit(const uint8_t* record, size_t len) {
  // The first exit() wins; its record carries exit(code)'s code, as a shell's status byte.
  if (!exit_ && len >= 2 * kEventHeaderSize) exit_code_ = static_cast<int>(field(record, len, 1) & 0xff);
  exit_ = true;
  ignoring_ = true;
}

void EventDispatcher::on_print_map(const uint8_t* record, size_t len) {
  uint64_t map = field(record, len, 1);
  if (map >= info_->maps.size()) return problem("print() of unknown map " + std::to_string(map));
  if (Status s = print_map(size_t(map), uint32_t(field(record, len, 2)), uint32_t(field(record, len, 3))); !s)
    problem(s.error().message());
}

void EventDispatcher::on_clear(const uint8_t* record, size_t len) { clear_or_zero(record, len, true); }

void EventDispatcher::on_zero(const uint8_t* record, size_t len) { clear_or_zero(record, len, false); }

void EventDispatcher::clear_or_zero(const uint8_t* record, size_t len, bool clear) {
  uint64_t map = field(record, len, 1);
  if (map >= info_->maps.size()) return problem("clear()/zero() of unknown map " + std::to_string(map));
  Status s = clear ? maps_->clear(size_t(map)) : maps_->zero(size_t(map));
  if (!s) problem(s.error().message());
}

void EventDispatcher::on_time(const uint8_t* record, size_t len) {
  uint64_t format = field(record, len, 1);
  if (format >= info_->time_formats.size()) return problem("time() with unknown format " + std::to_string(format));
  if (Status s = out_->time_event(info_->time_formats[format]); !s) problem(s.error().message());
}

void EventDispatcher::on_print_value(const uint8_t* record, size_t len) {
  uint64_t value = field(record, len, 1);
  if (value >= script_->print_values.size()) return problem("print() of unknown value " + std::to_string(value));
  const Type& type = script_->print_values[value].type;
  if (len < 16 + type_size(type)) return problem("print() record shorter than its value");
  if (!PointText::has_ids(type)) return out_->value(type, record + 16);
  std::span<const uint8_t> text = as_text({type}, record + 16, len - 16);
  out_->value(text_.text_type(type), text.data());
}

void EventDispatcher::on_new_pid(const uint8_t* record, size_t len) {
  if (StackText* symbols = maps_->symbols()) symbols->note_pid(static_cast<uint32_t>(field(record, len, 1)));
}

void EventDispatcher::on_watchpoint_attach(const uint8_t* record, size_t len) {
  if (on_watch) on_watch(static_cast<uint32_t>(field(record, len, 1)), field(record, len, 2), field(record, len, 3) != 0);
}

void EventDispatcher::on_watchpoint_detach(const uint8_t* record, size_t len) {
  if (on_unwatch) on_unwatch(field(record, len, 1));
}

// cat() and system(): their printf text names a file or is a command (command_events.h).
// Their failures go to stderr in bpftrace's words, and the run goes on, as in bpftrace.
void EventDispatcher::command_event(uint64_t id, std::span<const uint8_t> args) {
  if (info_->printfs[id].function == lang::FunctionId::Join) return join_event(info_->printfs[id].format, args);
  std::string text;
  printfs_[id].append(text, args.data(), args.size());
  lang::FunctionId function = info_->printfs[id].function;
  if (function == lang::FunctionId::Errorf || function == lang::FunctionId::Warnf) {
    std::fprintf(stderr, "%s\n", text.c_str());  // the front end put the place first
    return;
  }
  bool cat = info_->printfs[id].function == lang::FunctionId::Cat;
  Result<std::string> out = cat ? cat_file(text) : system_output(text);
  if (!out) {
    std::fprintf(stderr, "ERROR: %s\n", out.error().what.c_str());
    return;
  }
  out_->text_event(cat ? "cat" : "syscall", *out);  // bpftrace's JSON names system()'s output "syscall"
}

// join(): the strings up to the first empty one, `separator` between them, then a newline.
void EventDispatcher::join_event(const std::string& separator, std::span<const uint8_t> args) {
  std::string text;
  for (uint32_t i = 0; i < lang::kJoinArgs; ++i) {
    size_t at = size_t(i) * lang::kJoinArgBytes;
    if (at + lang::kJoinArgBytes > args.size()) break;
    const char* s = reinterpret_cast<const char*>(args.data() + at);
    size_t n = strnlen(s, lang::kJoinArgBytes);
    if (n == 0) break;
    if (i) text += separator;
    text.append(s, n);
  }
  if (out_->format() == OutputFormat::Text) text += '\n';  // JSON's "data" has no newline, as bpftrace's
  out_->text_event("join", text);
}

Status EventDispatcher::print_map(size_t user_map, uint32_t top, uint32_t div) {
  Result<MapEntries> entries = maps_->read(user_map);
  if (!entries) return entries.error();
  out_->map(maps_->desc(user_map), *entries, top, div);
  return {};
}

Status EventDispatcher::print_all_maps() {
  for (size_t u : maps_->user_maps_by_name())
    if (Status s = print_map(u); !s) return s;
  return {};
}

}  // namespace rawprobe::runtime
