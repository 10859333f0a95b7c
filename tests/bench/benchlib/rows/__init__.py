"""One module per table row; each has `measure(ctx) -> [Measure]`. ORDER is the table's."""
from . import (startup, short_run, footprint, uprobe_cost, tracepoint_cost, program_size,
               wildcard, events, listing, tools, stacks, fentry_cost)

ORDER = [startup, tools, short_run, footprint, uprobe_cost, tracepoint_cost, program_size, wildcard,
         events, listing, stacks, fentry_cost]
