// The named events of software:EVENT[:COUNT] and hardware:EVENT[:COUNT]: perf's names and
// bpftrace's aliases, the PERF_COUNT_* config, and the count used when none is given.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>

#include "engine/probes/provider.h"

namespace rawprobe::probes {

struct NamedEvent {
  std::string_view name;
  std::string_view alias;  // empty when none
  uint64_t config;         // PERF_COUNT_SW_* / PERF_COUNT_HW_*
  uint64_t default_count;  // sample period when the probe gives none
};

std::span<const NamedEvent> software_events();  // software.cpp
std::span<const NamedEvent> hardware_events();  // hardware.cpp

// Expansion and listing shared by software and hardware: find the event by name or alias.
Result<std::vector<AttachPoint>> expand_named_event(const lang::ProbeSpec& spec,
                                                    std::span<const NamedEvent> events,
                                                    uint32_t perf_type);
// NAME: lines (bpftrace's form, the count being optional), each event by its perf name.
void list_named_events(const ListRequest& request, std::span<const NamedEvent> events,
                       ListSink& sink);

}  // namespace rawprobe::probes
