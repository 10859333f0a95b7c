#include "engine/btf/materialize.h"

#include <algorithm>

namespace rawprobe::btf {

using ctypes::CKind;
using ctypes::CType;
using ctypes::CTypeRef;

namespace {
// Deeper than any chain of typedefs, qualifiers, pointers and arrays in a real kernel (a few
// levels); a malformed blob must not exhaust the stack.
constexpr int kMaxDepth = 200;

// How deep structs and unions may hold each other by value (a real kernel nests a few levels);
// readers of the C types (find_member through anonymous members) recurse that deep.
constexpr uint32_t kMaxNesting = 200;

// The struct or union a member holds by value: its type with typedefs and arrays removed.
CTypeRef held_record(CTypeRef t) {
  for (int i = 0; t && i < kMaxDepth && (t->kind == CKind::Typedef || t->kind == CKind::Array); ++i)
    t = t->target;
  return t && (t->kind == CKind::Struct || t->kind == CKind::Union) ? t : nullptr;
}

bool is_qualifier(Kind k) {
  return k == Kind::Const || k == Kind::Volatile || k == Kind::Restrict || k == Kind::TypeTag;
}
}  // namespace

const Blob& owner_of(const Blob& blob, uint32_t id) {
  const Blob* b = &blob;
  while (id < b->first_id() && b->base()) b = b->base();
  return *b;
}

Materializer::Materializer(ctypes::TypeArena& arena, ForwardResolver resolve, uint32_t pointer_size)
    : arena_(arena), resolve_(std::move(resolve)), pointer_size_(pointer_size) {
  void_ = arena_.void_type();
}

Materializer::Slots& Materializer::slots(const Blob& owner) {
  Slots& s = slots_[&owner];
  if (s.types.empty()) {
    size_t n = owner.end_id() - owner.first_id();
    s.types.assign(n, nullptr);
    s.building.assign(n, 0);
  }
  return s;
}

void Materializer::remember(const Blob& owner, uint32_t id, CTypeRef type) {
  slots(owner).types[id - owner.first_id()] = type;
  made_this_call_.push_back({&owner, id});
  ++materialized_;
}

Error Materializer::error(const Blob& blob, uint32_t id, std::string what) const {
  return make_error("read BTF: " + blob.describe(id) + ": " + std::move(what), blob.origin());
}

Result<CTypeRef> Materializer::type(const Blob& blob, uint32_t id) {
  made_this_call_.clear();
  pending_.clear();
  Result<CTypeRef> top = build(blob, id, 0);
  Status filled;
  std::vector<CTypeRef> records;
  while (top && filled && !pending_.empty()) {
    Pending p = pending_.back();
    pending_.pop_back();
    filled = fill_record(p);
    records.push_back(p.shell);
  }
  if (top && filled) filled = check_nesting(blob, records);
  if (top && filled) return top;
  // (The `building` marks need no reset: build() clears its own on every return.)
  for (const TypeId& t : made_this_call_) {
    slots(*t.blob).types[t.id - t.blob->first_id()] = nullptr;
    --materialized_;
  }
  pending_.clear();
  return top ? filled.error() : top.error();
}

Result<CTypeRef> Materializer::build(const Blob& blob, uint32_t id, int depth) {
  if (id == 0) return void_;
  const Blob& owner = owner_of(blob, id);
  Slots& s = slots(owner);
  uint32_t index = id - owner.first_id();
  if (s.types[index]) return s.types[index];
  if (s.building[index])
    return error(owner, id, "type loop: this type refers back to itself without a struct or union between");
  if (depth > kMaxDepth)
    return error(owner, id, "chain of types deeper than " + std::to_string(kMaxDepth));
  s.building[index] = 1;
  Result<CTypeRef> made = build_kind(owner, owner.record(id), depth);
  slots(owner).building[index] = 0;
  if (made && !slots(owner).types[index]) remember(owner, id, *made);
  return made;
}

Result<CTypeRef> Materializer::build_kind(const Blob& owner, const Record& r, int depth) {
  std::string name(owner.string(r.name_off));
  switch (r.kind) {
    case Kind::Int: {
      CType& t = arena_.make(CKind::Int);
      t.name = std::move(name);
      t.size = r.size_or_type;
      t.is_signed = (int_encoding(r.word(0)) & kIntSigned) != 0;
      return &t;
    }
    case Kind::Float: {
      CType& t = arena_.make(CKind::Float);
      t.name = std::move(name);
      t.size = r.size_or_type;
      return &t;
    }
    case Kind::Enum:
    case Kind::Enum64: {
      CType& t = arena_.make(CKind::Enum);
      t.name = std::move(name);
      t.size = r.size_or_type;
      t.is_signed = r.kind_flag;
      bool wide = r.kind == Kind::Enum64;
      for (uint32_t i = 0; i < r.vlen; ++i) {
        ctypes::CEnumerator e;
        e.name = owner.string(r.element(i, wide ? kEnum64Len : kEnumLen, 0));
        if (wide) {
          uint64_t v = (uint64_t{r.element(i, kEnum64Len, 2)} << 32) | r.element(i, kEnum64Len, 1);
          e.value = static_cast<int64_t>(v);
        } else {
          uint32_t v = r.element(i, kEnumLen, 1);
          e.value = r.kind_flag ? int64_t{static_cast<int32_t>(v)} : int64_t{v};
        }
        t.enumerators.push_back(std::move(e));
      }
      return &t;
    }
    case Kind::Struct:
    case Kind::Union: {
      CType& t = arena_.make(r.kind == Kind::Struct ? CKind::Struct : CKind::Union);
      t.name = std::move(name);
      t.size = r.size_or_type;
      remember(owner, r.id, &t);  // before its members, which may point back at it
      pending_.push_back({&owner, r.id, &t});
      return &t;
    }
    case Kind::Fwd: {
      CKind tag = r.kind_flag ? CKind::Union : CKind::Struct;
      if (auto full = resolve_(tag, name, owner)) return build(*full->blob, full->id, depth + 1);
      CType& t = arena_.make(CKind::Forward);
      t.name = std::move(name);
      t.tag_kind = tag;
      return &t;
    }
    case Kind::Ptr: {
      Result<CTypeRef> target = build(owner, r.size_or_type, depth + 1);
      if (!target) return target;
      CTypeRef& p = pointers_[*target];
      if (!p) {
        CType& t = arena_.make(CKind::Pointer);
        t.target = *target;
        t.size = pointer_size_;
        p = &t;
      }
      return p;
    }
    case Kind::Array: {
      Result<CTypeRef> element = build(owner, r.word(0), depth + 1);
      if (!element) return element;
      uint32_t count = r.word(2);
      CTypeRef& a = arrays_[{*element, count}];
      if (!a) {
        uint64_t size = uint64_t{ctypes::size_of(*element)} * count;
        if (size > UINT32_MAX)
          return error(owner, r.id, "array of " + std::to_string(count) + " elements is " +
                                        std::to_string(size) + " bytes, more than 4 GiB");
        CType& t = arena_.make(CKind::Array);
        t.target = *element;
        t.count = count;
        t.size = static_cast<uint32_t>(size);
        a = &t;
      }
      return a;
    }
    case Kind::Typedef: {
      Result<CTypeRef> target = build(owner, r.size_or_type, depth + 1);
      if (!target) return target;
      CType& t = arena_.make(CKind::Typedef);
      t.name = std::move(name);
      t.target = *target;
      return &t;
    }
    case Kind::Const:
    case Kind::Volatile:
    case Kind::Restrict:
    case Kind::TypeTag:
      return build(owner, r.size_or_type, depth + 1);
    case Kind::FuncProto: {
      Result<CTypeRef> ret = build(owner, r.size_or_type, depth + 1);
      if (!ret) return ret;
      CType& t = arena_.make(CKind::Function);
      t.target = *ret;
      for (uint32_t i = 0; i < r.vlen; ++i) {
        uint32_t param_name = r.element(i, kParamLen, 0), param_type = r.element(i, kParamLen, 1);
        if (param_type == 0) {
          if (i + 1 != r.vlen || param_name != 0)
            return error(owner, r.id, "parameter " + std::to_string(i) + " has type void");
          t.is_variadic = true;  // a last nameless void parameter stands for `...`
          break;
        }
        Result<CTypeRef> p = build(owner, param_type, depth + 1);
        if (!p) return p;
        t.params.push_back({std::string(owner.string(param_name)), *p});
      }
      return &t;
    }
    case Kind::Func:
    case Kind::Var:
    case Kind::Datasec:
    case Kind::DeclTag:
    case Kind::Unknown:
      break;
  }
  return error(owner, r.id, std::string("a ") + kind_name(r.kind) + " is not the type of a value");
}

Status Materializer::check_nesting(const Blob& blob, const std::vector<CTypeRef>& records) {
  // Depth first without recursion (a malformed blob can nest thousands of records): a record
  // met again while still on the path contains itself, which no C type can.
  auto fail = [&](CTypeRef t, const std::string& what) {
    return make_error("read BTF: " + ctypes::spell(t) + " " + what, blob.origin());
  };
  for (CTypeRef root : records) {
    if (nesting_.count(root)) continue;
    std::vector<std::pair<CTypeRef, size_t>> path{{root, 0}};
    std::unordered_map<CTypeRef, bool> on_path{{root, true}};
    while (!path.empty()) {
      CTypeRef t = path.back().first;
      size_t i = path.back().second++;
      if (i < t->members.size()) {
        CTypeRef inner = held_record(t->members[i].type);
        if (!inner || nesting_.count(inner)) continue;
        if (on_path[inner]) return fail(inner, "contains itself by value");
        on_path[inner] = true;
        path.push_back({inner, 0});
        continue;
      }
      uint32_t depth = 1;
      for (const ctypes::CMember& m : t->members)
        if (CTypeRef inner = held_record(m.type)) depth = std::max(depth, nesting_[inner] + 1);
      if (depth > kMaxNesting)
        return fail(t, "nests records more than " + std::to_string(kMaxNesting) + " levels deep");
      nesting_[t] = depth;
      on_path[t] = false;
      path.pop_back();
    }
  }
  return {};
}

Status Materializer::fill_record(const Pending& p) {
  const Blob& owner = *p.blob;
  Record r = owner.record(p.id);
  for (uint32_t i = 0; i < r.vlen; ++i) {
    ctypes::CMember m;
    m.name = owner.string(r.element(i, kMemberLen, 0));
    uint32_t type_id = r.element(i, kMemberLen, 1), offset = r.element(i, kMemberLen, 2);
    if (type_id == 0) return error(owner, p.id, "member " + std::to_string(i) + " has type void");
    Result<CTypeRef> type = build(owner, type_id, 0);
    if (!type) return type.error();
    m.type = *type;
    if (r.kind_flag) {
      m.bit_offset = member_bit_offset(offset);
      m.bit_size = member_bitfield_size(offset);
    } else {
      m.bit_offset = offset;
      // Without kind_flag a bitfield's width is that of its INT type (qualifiers skipped).
      Record t = owner.record(type_id);
      for (int hops = 0; is_qualifier(t.kind) && t.size_or_type != 0 && hops < kMaxDepth; ++hops)
        t = owner.record(t.size_or_type);
      if (t.kind == Kind::Int) {
        uint32_t w = t.word(0);
        if (int_offset(w) != 0 || int_bits(w) != t.size_or_type * 8) {
          m.bit_offset += int_offset(w);
          m.bit_size = int_bits(w);
        }
      }
    }
    p.shell->members.push_back(std::move(m));
  }
  return {};
}

}  // namespace rawprobe::btf
