#include "bpfasm/helpers.h"

#include <array>

namespace rawprobe::bpf {
namespace {

struct Entry {
  int32_t id;
  std::string_view name;  // with the "bpf_" prefix, as disasm.c prints it
};

constexpr Entry kHelpers[] = {
#define RAWPROBE_BPF_HELPER_ENTRY(name, id) {id, "bpf_" #name},
    RAWPROBE_BPF_HELPERS(RAWPROBE_BPF_HELPER_ENTRY)
#undef RAWPROBE_BPF_HELPER_ENTRY
};

// The list is dense and in id order, so an id is its index.
constexpr bool dense() {
  for (size_t i = 0; i < std::size(kHelpers); ++i)
    if (kHelpers[i].id != static_cast<int32_t>(i)) return false;
  return true;
}
static_assert(dense());

}  // namespace

int32_t helper_count() { return static_cast<int32_t>(std::size(kHelpers)); }

std::string_view helper_name(int32_t id) {
  if (id < 0 || id >= helper_count()) return {};
  return kHelpers[id].name;
}

std::optional<int32_t> helper_id(std::string_view name) {
  std::string_view bare = name.starts_with("bpf_") ? name.substr(4) : name;
  for (const Entry& e : kHelpers)
    if (e.name.substr(4) == bare) return e.id;
  return std::nullopt;
}

}  // namespace rawprobe::bpf
