#include "engine/codegen/frame.h"

#include <algorithm>

namespace rawprobe::codegen {

int32_t StackFrame::alloc(uint32_t size) {
  top_ += (std::max<uint32_t>(size, 1) + 7) / 8 * 8;
  high_ = std::max(high_, top_);
  return -static_cast<int32_t>(top_);
}

Temp RegPool::take() {
  Entry e;
  e.live = true;
  if (!free_regs_.empty()) {
    e.in_reg = true;
    e.reg = free_regs_.back();
    free_regs_.pop_back();
  } else if (!free_slots_.empty()) {
    e.slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    e.slot = frame_.alloc(8);
  }
  entries_.push_back(e);
  return Temp{static_cast<int>(entries_.size() - 1)};
}

void RegPool::release(Temp t) {
  if (!t.valid() || !entries_[t.id].live) return;
  Entry& e = entries_[t.id];
  e.live = false;
  if (e.in_reg) free_regs_.push_back(e.reg);
  else free_slots_.push_back(e.slot);
}

void RegPool::frame_released(uint32_t mark) {
  std::erase_if(free_slots_, [&](int32_t slot) { return static_cast<uint32_t>(-slot) > mark; });
}

}  // namespace rawprobe::codegen
