// The syntax tree. One node type for expressions and one for statements, each a `kind` plus
// the few fields that kind uses, so code generation is one switch per node type. The semantic
// pass (semantic.h) fills the `type` of every expression and the resolved fields marked
// "sema"; the parser leaves them empty.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/base/types.h"
#include "engine/ctypes/script_types.h"
#include "engine/lang/functions.h"
#include "engine/lang/named_params.h"
#include "engine/lang/probe_spec.h"
#include "engine/lang/source.h"

namespace rawprobe::lang {

enum class ExprKind : uint8_t {
  Integer,   // int_value
  String,    // str (unescaped)
  Builtin,   // name: "pid", "comm", "arg3", "args", ...; sema: builtin, arg_index
  Variable,  // name: "$x"
  Map,       // name: "@m" or "@"; operands: the keys (empty for a scalar map); sema: map_id
  Call,      // name: "printf"; operands: the arguments; sema: function, call_id
             // (printf/time format)
  Unary,     // op: Neg, BitNot, LogNot; operands[0]. Neg and BitNot of a 1- or 2-byte
             // operand are computed at its width and zero-extended, as bpftrace 0.17 does
             // (~(uint8)0 == 255, ~(int16)0 == 65535; checked by lang_oracle_test)
  Binary,    // op; operands[0], operands[1]
  Ternary,   // operands: condition, then, else
  IncDec,    // op: Inc/Dec; postfix; operands[0] is a Variable or Map
  Cast,      // cast_type (Integer); operands[0]
  Field,     // name: field; arrow (`->` or `.`); operands[0] is the base (`args`);
             // sema: field_offset, field_type
  Tuple,     // operands: the elements; names: a record's field names (`(a=1, b=2)`), or
             // empty for a plain tuple
  TupleElement,  // `$t.0`: operands[0] is the tuple; int_value the element's index
  Deref,     // *operands[0]
  Index,     // operands[0][operands[1]]: an element of a pointer or array
  Sizeof,    // sizeof(type_name) or sizeof(operands[0]); sema: int_value
  Offsetof,  // offsetof(type_name, name); name may be a path "a.b"; sema: int_value
  Block,     // `{ stmts; value }` (bpftrace 0.26): stmts, then operands[0] (absent when the
             // block ends with ';'). block_expr.h moves the statements out before the checker.
};

// A C type as written in a cast or sizeof: `struct foo *`, `int8 *`, `uint32`.
struct TypeName {
  ctypes::CKind tag = ctypes::CKind::Void;  // Struct, Union, Enum; Typedef for a bare name
  std::string name;
  uint32_t pointers = 0;
  Span span;
  bool present() const { return !name.empty(); }
};

enum class Op : uint8_t {
  None,
  // binary
  Add, Sub, Mul, Div, Mod, BitAnd, BitOr, BitXor, Shl, Shr,
  Eq, Ne, Lt, Gt, Le, Ge, LogAnd, LogOr,
  // unary
  Neg, BitNot, LogNot,
  // increment / decrement
  Inc, Dec,
};

const char* op_spelling(Op op);
bool op_is_comparison(Op op);

// The builtins the semantic pass recognises; codegen switches on this, not on the name.
enum class BuiltinId : uint8_t {
  None, Pid, Tid, Uid, Gid, Nsecs, Elapsed, Cpu, Comm, Retval, Arg, Args, Func, Probe,
  Curtask, Rand, Cgroup, Cpid, Username, Numaid, Jiffies, Sarg, Ctx,
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;
struct Stmt;

struct Expr {
  ExprKind kind;
  Span span;
  std::string name;              // Builtin/Variable/Map/Call/Field name; Integer: "true" or
                                 // "false" for a bool literal
  std::string str;               // String value
  uint64_t int_value = 0;        // Integer
  Op op = Op::None;              // Unary/Binary/IncDec
  bool postfix = false;          // IncDec: x++ rather than ++x
  bool arrow = false;            // Field: written with `->`
  std::vector<ExprPtr> operands;
  std::vector<std::string> names;          // Tuple: a record's field names
  std::vector<std::unique_ptr<Stmt>> stmts;  // Block: its statements
  uint32_t depth = 1;            // height of this subtree (bounded by the parser)

  // sema
  Type type;                     // the value's type
  Type cast_type;                // Cast: the target type (also set by the parser)
  BuiltinId builtin = BuiltinId::None;
  FunctionId function = FunctionId::None;  // Call: its row in functions.def
  uint32_t arg_index = 0;        // Builtin Arg, Sarg: N of argN, sargN
  int map_id = -1;               // Map: index into ProgramInfo::maps
  int call_id = -1;              // Call printf: index into ProgramInfo::printfs;
                                 // Call time: index into ProgramInfo::time_formats;
                                 // Call delete/has_key: 1 once (@m, k) became (@m[k])
  uint32_t field_offset = 0;     // Field: byte offset in the tracepoint record or C record
  TypeName type_name;            // Cast (to a C type), Sizeof, Offsetof: as written
  // sema, Field of a C bit-field: its first bit from field_offset and its width (0: not one)
  uint8_t bit_shift = 0;
  uint8_t bit_width = 0;
  uint32_t scale = 0;            // Binary pointer +/-: the pointee's size (sema)
  bool is_literal_string() const { return kind == ExprKind::String; }
};

enum class StmtKind : uint8_t {
  Expr,      // expr
  Assign,    // target = value, or target op= value (op != None); target is a Variable or Map
  If,        // expr: condition; body; else_body (empty when absent; an `else if` is one If
             // statement inside else_body)
  While,     // expr: condition; body
  Unroll,    // count; body
  For,       // target: the loop variable ($kv, $i); expr: the map (@m, no keys) or the range's
             // start; range_end: the range's end (exclusive), null over a map; body
  Return, Break, Continue,
};

using StmtPtr = std::unique_ptr<Stmt>;

struct Stmt {
  StmtKind kind;
  Span span;
  ExprPtr target;                // Assign
  Op op = Op::None;              // Assign: compound operator (Add for +=), None for plain =
  Span op_span;                  // Assign: the '=' or 'op=' token
  ExprPtr expr;                  // Expr: the expression; Assign: the value; If/While: condition
  std::vector<StmtPtr> body;
  std::vector<StmtPtr> else_body;
  ExprPtr range_end;             // For over a range: its end
  uint64_t count = 0;            // Unroll
  bool has_else = false;         // If
  // Assign, or Expr with a Variable target (`let $x;`): written with `let`, so it declares
  // the variable in the enclosing block (scopes.h).
  bool declares = false;
};

struct ProbeBlock {
  Span span;                     // the attach point list
  std::vector<ProbeSpec> specs;
  ExprPtr predicate;             // may be null
  std::vector<StmtPtr> body;
};

// One `name = value` of a `config = { ... }` block; the value's text as written (a string
// literal unescaped), checked against the settings registry (settings.h) by the front end.
struct ConfigEntry {
  std::string name;
  std::string value;
  Span name_span, value_span;
};

// `macro name(params) { body }` (bpftrace 0.23 on), expanded away by macro_expand.h before
// the checker runs. A parameter is "$a" (the caller passes a variable), "@m" (a map) or "x"
// (any expression, inserted wherever the body says x).
struct MacroDef {
  std::string name;
  Span span;
  std::vector<std::string> params;
  std::vector<Span> param_spans;
  std::vector<StmtPtr> body;
  ExprPtr value;  // the last expression when it has no ';' after it: the macro's value
};

// `let @m = lruhash(100);` before the probes (bpftrace 0.26, "Map Declarations"): the map's
// kernel type (hash, lruhash, percpuhash, percpulruhash) and how many entries it holds.
struct MapDecl {
  std::string name;
  std::string kind;
  uint64_t max_entries = 0;
  Span span;
};

struct Program {
  std::vector<ProbeBlock> probes;
  std::vector<MapDecl> map_decls;
  std::vector<ConfigEntry> config;
  std::vector<MacroDef> macros;
  // The named options the script reads with getopt(), in order of first use.
  std::vector<NamedOption> options;
  // `--help` was among the named options: list `options` instead of running.
  bool options_help = false;
  // The C types the script declared before its probes, and those the checker derives; every
  // CTypeRef in the tree points into it.
  std::shared_ptr<ctypes::ScriptTypes> c_types = std::make_shared<ctypes::ScriptTypes>();
};

ExprPtr make_expr(ExprKind kind, Span span);

}  // namespace rawprobe::lang
