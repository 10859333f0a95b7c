// The hint of a probe that names nothing there is, shared by the providers that can list
// every name of their kind (providers.h).
#include "engine/probes/providers.h"

namespace rawprobe::probes {

std::string close_names_hint(const std::string& kind, const std::vector<std::string>& close, bool list_after_names) {
  std::string hint;
  // Five names are enough to spot the one meant; the listing has the rest.
  for (size_t i = 0; i < close.size() && i < 5; ++i)
    hint += (i ? ", '" : "did you mean '") + kind + ":" + close[i] + "'";
  std::string list = "list them with -l '" + kind + ":*'";
  if (hint.empty()) return list;
  return hint + (list_after_names ? "? (" + list + ")" : "?");
}

}  // namespace rawprobe::probes
