#include "engine/runtime/dispatcher.h"

#include <cstring>

#include "engine/base/layout.h"

namespace rawprobe::runtime {
namespace {

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
  for (const lang::PrintfInfo& p : info.printfs) {
    std::vector<Type> types;
    for (const lang::PrintfArg& a : p.args) types.push_back(a.type);
    Result<PrintfFormatter> f = PrintfFormatter::make(p.format, std::move(types));
    if (!f) {
      f.error().object = "printf(\"" + p.format + "\")";
      return f.error();
    }
    d.printfs_.push_back(std::move(*f));
  }
  return d;
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
    out_->printf_event(printfs_[id], record + kEventHeaderSize, len - kEventHeaderSize);
    return;
  }
  switch (id) {
    case codegen::kAsyncExit:
      exit_ = true;
      ignoring_ = true;
      return;
    case codegen::kAsyncPrintMap: {
      uint64_t map = field(record, len, 1);
      if (map >= info_->maps.size()) return problem("print() of unknown map " + std::to_string(map));
      if (Status s = print_map(size_t(map), uint32_t(field(record, len, 2)),
                               uint32_t(field(record, len, 3)));
          !s)
        problem(s.error().message());
      return;
    }
    case codegen::kAsyncClearMap:
    case codegen::kAsyncZeroMap: {
      uint64_t map = field(record, len, 1);
      if (map >= info_->maps.size()) return problem("clear()/zero() of unknown map " + std::to_string(map));
      Status s = id == codegen::kAsyncClearMap ? maps_->clear(size_t(map)) : maps_->zero(size_t(map));
      if (!s) problem(s.error().message());
      return;
    }
    case codegen::kAsyncTime: {
      uint64_t format = field(record, len, 1);
      if (format >= info_->time_formats.size()) return problem("time() with unknown format " + std::to_string(format));
      if (Status s = out_->time_event(info_->time_formats[format]); !s) problem(s.error().message());
      return;
    }
    case codegen::kAsyncPrintValue: {
      uint64_t value = field(record, len, 1);
      if (value >= script_->print_values.size())
        return problem("print() of unknown value " + std::to_string(value));
      const Type& type = script_->print_values[value].type;
      if (len < 16 + type_size(type)) return problem("print() record shorter than its value");
      out_->value(type, record + 16);
      return;
    }
    default:
      problem("event with unknown id " + std::to_string(id));
  }
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
