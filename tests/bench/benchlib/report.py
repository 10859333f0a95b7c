"""The table: plain markdown, printed and written to $(BUILD)/bench.md, then the raw
samples and medians of every measure so the numbers can be checked and compared later."""

HEADER = ["row", "measure", "rawprobe", "bpftrace", "ratio", "goal", "met?"]


def fmt_value(value, unit):
    if unit == "bytes":
        return f"{value / 1e6:.2f} MB" if value >= 1e5 else f"{value:,.0f} B"
    if unit == "KiB":
        return f"{value / 1024:.1f} MiB"
    if unit == "events/s":
        return f"{value:,.0f}/s"
    if unit in ("insns", "events"):
        return f"{value:,.0f}"
    if unit in ("ms", "ns"):
        digits = 2 if abs(value) < 10 else 1 if abs(value) < 100 else 0
        return f"{value:.{digits}f} {unit}"
    return f"{value:g} {unit}"


def cell(outcome, unit, failed_prefix):
    if outcome.failure is not None:
        return f"{failed_prefix}: {outcome.failure}"
    return fmt_value(outcome.value, unit)


def ratio_text(rawprobe, bpftrace):
    if rawprobe is None or bpftrace is None or bpftrace == 0 or rawprobe == 0:
        return "—"
    ratio = rawprobe / bpftrace
    if ratio < 0:
        return f"{ratio:.2f}"
    return f"1/{1 / ratio:.1f}" if ratio < 1 else f"{ratio:.2f}×"


def met_text(measure):
    if measure.goal is None:
        return "—"
    met = measure.goal.met(measure.rawprobe.value, measure.bpftrace.value)
    return "—" if met is None else "yes" if met else "**no**"


def table_rows(measures):
    for m in measures:
        yield [m.row, m.measure, cell(m.rawprobe, m.unit, "not yet"),
               cell(m.bpftrace, m.unit, "fails"),
               ratio_text(m.rawprobe.value, m.bpftrace.value),
               m.goal.text if m.goal else "—", met_text(m)]


def markdown_table(rows):
    def line(cells):
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"
    return "\n".join([line(HEADER), line(["---"] * len(HEADER))] + [line(r) for r in rows])


def raw_section(measures):
    out = ["## Raw medians and samples", ""]
    for m in measures:
        out.append(f"- **{m.row} / {m.measure}** ({m.unit})")
        for name, outcome in (("rawprobe", m.rawprobe), ("bpftrace", m.bpftrace)):
            if outcome.failure is not None:
                out.append(f"  - {name}: failed: {outcome.failure}")
            else:
                samples = ", ".join(f"{s:.6g}" for s in outcome.samples)
                out.append(f"  - {name}: median {outcome.value:.6g} of [{samples}]")
        for note in m.commands:
            out.append(f"  - how: {note}")
    return "\n".join(out)


def document(header_lines, measures):
    return "\n".join(header_lines + ["", markdown_table(table_rows(measures)), "",
                                     raw_section(measures), ""])
