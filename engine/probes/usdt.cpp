#include "engine/probes/usdt.h"

#include <algorithm>
#include <set>

#include "elf/hex.h"
#include "elf/segments.h"
#include "elf/symbol_match.h"
#include "elf/usdt_describe.h"
#include "engine/lang/suggest.h"
#include "engine/probes/providers.h"
#include "elf/resolve.h"
#include "elf/thumb_code.h"
#include "engine/probes/targets.h"
#include "engine/probes/uprobe_attach.h"

namespace rawprobe::probes {

std::vector<std::string> describe_usdt_location(const elf::Binary& bin, const elf::UsdtNote& note) {
  std::vector<std::string> lines;
  std::string what = "USDT probe " + note.provider + ":" + note.name;
  Result<elf::Placement> place = elf::code_offset(bin.file(), note.address, what);
  std::string loc = "    location " + elf::hex(note.address);
  if (note.address != note.pc) loc += " (note pc " + elf::hex(note.pc) + " + base adjustment)";
  lines.push_back(loc + (place ? ", file offset " + elf::hex(place->file_offset)
                               : ": " + place.error().message()));
  if (note.semaphore_address) {
    Result<elf::Placement> sem = elf::data_offset(bin.file(), note.semaphore_address, what);
    lines.push_back("    semaphore " + elf::hex(note.semaphore_address) +
                    (sem ? ", file offset " + elf::hex(sem->file_offset) : ": " + sem.error().message()));
  } else {
    lines.push_back("    semaphore none");
  }
  for (const std::string& arg : elf::describe_usdt_args(bin.file(), note.args)) lines.push_back("    " + arg);
  return lines;
}

namespace {

bool selects(const std::string& provider, const std::string& name, const elf::UsdtNote& note) {
  return (provider.empty() || elf::glob_match(provider, note.provider)) && elf::glob_match(name, note.name);
}

AttachPoint point_of(const TargetFile& target, const arch::Table* table, pid_t pid,
                     elf::UsdtSite& site) {
  AttachPoint p;
  p.kind = ProbeKind::Usdt;
  p.name = "usdt:" + target.display + ":" + site.provider + ":" + site.name;
  p.func = site.name;
  p.arch = table;
  p.path = target.path;
  p.address = site.site.address;
  p.file_offset = site.site.file_offset;
  p.ref_ctr_offset = site.site.ref_ctr_offset;
  p.pid = pid;
  p.usdt_provider = site.provider;
  p.usdt_name = site.name;
  for (size_t i = 0; i < site.args.size(); ++i)
    p.usdt_args.push_back({std::move(site.args[i]),
                           i < site.arg_symbol_addresses.size() ? site.arg_symbol_addresses[i] : 0});
  return p;
}

class UsdtProvider final : public UserProbeProvider {
 public:
  // BINARY:PROVIDER:NAME or BINARY:NAME; any part may be in double quotes ("a:b" holds a
  // colon). An empty BINARY (usdt::PROVIDER:NAME) is every object of the -p/-c process, as
  // in bpftrace.
  Status parse(const std::vector<std::string>& parts, lang::ProbeSpec& out) const override {
    std::vector<std::string> p = parts;
    for (std::string& part : p)
      if (part.size() >= 2 && part.front() == '"' && part.back() == '"') part = part.substr(1, part.size() - 2);
    if (p.size() < 3 || p.size() > 4 || p.back().empty() || (p.size() == 3 && p[1].empty())) {
      return make_error("usdt needs usdt:BINARY:PROVIDER:NAME or usdt:BINARY:NAME (usdt::PROVIDER:NAME with -p)");
    }
    out.target = p[1].empty() ? "*" : p[1];
    out.provider = p.size() == 4 ? p[2] : "";
    out.name = p.back();
    out.wildcard = lang::has_wildcard(out.target) || lang::has_wildcard(out.provider) || lang::has_wildcard(out.name);
    return {};
  }

  Result<std::vector<AttachPoint>> expand(const lang::ProbeSpec& spec,
                                          const ExpandContext& ctx) const override {
    if (spec.target == "*" && ctx.pid <= 0)  // bpftrace 0.17's words first
      return make_error("usdt probe must specify at least path or pid to probe", spec.raw,
                        "give -p PID or -c CMD to search that process's objects, or name the binary: usdt:BINARY:" +
                            (spec.provider.empty() ? "" : spec.provider + ":") + spec.name);
    Result<std::vector<OpenedTarget>> targets = open_targets(spec.target, ctx.pid, true);
    if (!targets) return targets.error();
    std::vector<AttachPoint> points;
    std::vector<std::string> names;     // provider:name of every probe, for suggestions
    std::vector<std::string> searched;  // "PATH (N notes, M probes)", for the error
    for (const auto& [target, binary] : *targets) {
      Result<const std::vector<elf::UsdtNote>*> notes = binary->usdt_notes();
      if (!notes) return notes.error();
      size_t before = names.size();
      for (const elf::UsdtProbe& probe : elf::group_usdt_probes(**notes))
        names.push_back(probe.provider + ":" + probe.name);
      auto count = [](size_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); };
      searched.push_back(target.display + " (" + count((*notes)->size(), "note") + ", " +
                         count(names.size() - before, "probe") + ")");
      bool any = false;
      for (const elf::UsdtNote& note : **notes) any = any || selects(spec.provider, spec.name, note);
      if (!any) continue;
      Result<const arch::Table*> table =
          process_arch(binary->file().machine(), binary->file().elf_class(), target.display);
      if (!table) return table.error();
      Result<std::vector<elf::UsdtSite>> sites = elf::resolve_usdt(*binary, spec.provider, spec.name);
      if (!sites) return sites.error();
      for (elf::UsdtSite& site : *sites) {
        if (auto thumb = elf::thumb_refusal(*binary, site.site.address, "USDT probe " + site.provider + ":" + site.name))
          return *thumb;
        points.push_back(point_of(target, *table, ctx.pid, site));
      }
    }
    if (points.empty()) {
      std::string wanted = (spec.provider.empty() ? "" : spec.provider + ":") + spec.name;
      std::string hint;
      std::string where = "searched .note.stapsdt of ";
      for (size_t i = 0; i < searched.size() && i < 3; ++i) where += (i ? ", " : "") + searched[i];
      if (searched.size() > 3) where += " and " + std::to_string(searched.size() - 3) + " more files";
      if (names.empty()) {
        hint = "'" + spec.target + "' has no USDT notes (.note.stapsdt)";
      } else {
        std::vector<std::string> close = lang::closest_names(wanted, names);
        if (close.empty()) {
          // usdt:BIN:NAME: compare with the names alone, then suggest the full probe.
          std::vector<std::string> bare;
          for (const std::string& n : names) bare.push_back(n.substr(n.find(':') + 1));
          for (const std::string& b : lang::closest_names(spec.name, bare))
            for (const std::string& n : names)
              if (n.substr(n.find(':') + 1) == b) close.push_back(n);
        }
        hint = close.empty() ? "list them with -l 'usdt:" + spec.target + ":*'"
                             : "did you mean 'usdt:" + spec.target + ":" + close.front() + "'?";
        hint += " (" + where + ")";
      }
      return make_error("USDT probe '" + wanted + "' not found in " + spec.target, spec.raw, hint);
    }
    return points;
  }

  Status list(const ListRequest& request, ListSink& sink) const override {
    if (request.parts.empty() && request.pid <= 0)
      return make_error("listing usdt probes needs a binary", "usdt",
                        "write -l 'usdt:/path/to/binary:*', or -l 'usdt:*' with -p PID");
    std::string target = request.parts.empty() ? "*" : request.parts[0];
    std::string provider, name = "*";
    if (request.parts.size() == 2) name = request.parts[1];
    if (request.parts.size() >= 3) {
      provider = request.parts[1];
      name = request.parts[2];
    }
    // "usdt:BIN:*" matches provider:name pairs as a whole, as bpftrace does.
    bool whole = request.parts.size() == 2;
    Result<std::vector<TargetFile>> targets = resolve_targets(target, request.pid);
    if (!targets) return targets.error();
    for (const TargetFile& t : *targets) {
      Result<std::shared_ptr<elf::Binary>> bin = open_binary(t.path);
      Result<const std::vector<elf::UsdtNote>*> notes =
          bin ? (*bin)->usdt_notes() : Result<const std::vector<elf::UsdtNote>*>(bin.error());
      if (!notes) {
        if (targets->size() > 1) continue;
        return notes.error();
      }
      std::vector<elf::UsdtProbe> probes = elf::group_usdt_probes(**notes);
      // bpftrace prints them sorted by provider:name.
      std::sort(probes.begin(), probes.end(), [](const elf::UsdtProbe& a, const elf::UsdtProbe& b) {
        return a.provider + ":" + a.name < b.provider + ":" + b.name;
      });
      for (const elf::UsdtProbe& probe : probes) {
        const elf::UsdtNote& first = probe.locations.front();
        bool match = whole ? elf::glob_match(name, probe.provider + ":" + probe.name) ||
                                 elf::glob_match(name, probe.name)
                           : selects(provider, name, first);
        if (!match) continue;
        if (!sink.line("usdt:" + t.display + ":" + probe.provider + ":" + probe.name) ||
            !sink.verbose())
          continue;
        for (const elf::UsdtNote& note : probe.locations)
          for (const std::string& line : describe_usdt_location(**bin, note)) sink.detail(line);
      }
    }
    return {};
  }
};

}  // namespace

const Provider& usdt_provider() { return the_provider<UsdtProvider>(); }

}  // namespace rawprobe::probes
