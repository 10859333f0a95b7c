// Internal to elf/usdt_*: the per-architecture operand parsers and the small pieces they
// share. Each parser gets the text after "N@" and fills in the kind-specific fields.
#pragma once
#include <optional>
#include <string_view>

#include "elf/usdt_args.h"

namespace rawprobe::elf::usdt {

using Operand = std::string_view;
// Each returns an Error whose `what` says what is wrong with the operand; the caller wraps it
// with the argument it came from.
Status parse_x86(Operand op, const arch::Table& table, UsdtArg& arg);
Status parse_aarch64(Operand op, const arch::Table& table, UsdtArg& arg);
Status parse_arm(Operand op, const arch::Table& table, UsdtArg& arg);
// riscv64, s390x, ppc64le, mips64, loongarch64: "off(reg)" families.
Status parse_offset_base(Operand op, const arch::Table& table, UsdtArg& arg);

// Whole-string signed integer, decimal or 0x hex; nullopt when not exactly a number.
std::optional<int64_t> parse_int(std::string_view text);
// Resolves `name` through the table into `reg`; an error naming the register when
// the architecture has no such register.
Status resolve_reg(std::string_view name, const arch::Table& table, UsdtReg& reg);
std::string_view trim(std::string_view text);

}  // namespace rawprobe::elf::usdt
