// The stack frame and the registers of one program being generated.
//
//   r10 ─► +--------------------+  fp
//          | scratch variables  |  fixed for the whole program ($x: 8 bytes, strings their size)
//          +--------------------+
//          | statement temps    |  bump-allocated, all released when the statement ends:
//          |  keys, records,    |  map keys, printf records, strings, spilled temporaries
//          |  spills            |
//          +--------------------+  fp - 512: the kernel's limit (MAX_BPF_STACK)
//
// Temporaries live in callee-saved registers (r7-r9, and r6 when the program never reads its
// context) so helper calls do not clobber them; when those run out they spill to 8-byte stack
// slots. Every slot is 8-byte aligned: the verifier checks stack accesses strictly.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "bpfasm/insn.h"

namespace rawprobe::codegen {

inline constexpr uint32_t kMaxStack = 512;

class StackFrame {
 public:
  // A slot of `size` bytes (rounded up to 8); returns its offset from r10 (negative).
  int32_t alloc(uint32_t size);
  uint32_t mark() const { return top_; }
  void release_to(uint32_t mark) { top_ = mark; }
  uint32_t high_water() const { return high_; }
  bool overflowed() const { return high_ > kMaxStack; }

 private:
  uint32_t top_ = 0;
  uint32_t high_ = 0;
};

// A temporary integer: in a callee-saved register or a stack slot.
struct Temp {
  int id = -1;  // index into RegPool's table; -1: none
  bool valid() const { return id >= 0; }
};

class RegPool {
 public:
  explicit RegPool(StackFrame& frame) : frame_(frame) {}
  // The registers temporaries may use, the first taken last.
  void set_registers(std::vector<bpf::Reg> regs) { free_regs_ = std::move(regs); }
  Temp take();
  void release(Temp t);
  bool in_reg(Temp t) const { return entries_[t.id].in_reg; }
  bpf::Reg reg(Temp t) const { return entries_[t.id].reg; }
  int32_t slot(Temp t) const { return entries_[t.id].slot; }
  // The frame was released to `mark`: spill slots past it no longer exist.
  void frame_released(uint32_t mark);

 private:
  struct Entry {
    bool in_reg = false;
    bpf::Reg reg = bpf::R0;
    int32_t slot = 0;
    bool live = false;
  };
  StackFrame& frame_;
  std::vector<bpf::Reg> free_regs_;
  std::vector<Entry> entries_;
  std::vector<int32_t> free_slots_;  // spill slots given back, reused before new ones
};

}  // namespace rawprobe::codegen
