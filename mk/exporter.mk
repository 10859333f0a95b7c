# The metrics endpoint (engine/metrics): its fuzz target's libraries and seeds, and the systemd
# template unit `make install` puts beside the binary.
UNIT_LIBS_metrics := engine/metrics engine/output engine/base
FUZZ_SEEDS_metrics_request_fuzz := tests/fuzz/metrics_request_seeds
FUZZ_ARGS_metrics_request_fuzz := -max_len=9000

SYSTEMD_UNIT_DIR ?= $(PREFIX)/lib/systemd/system
install: install-systemd-unit
install-systemd-unit:
	install -d $(DESTDIR)$(SYSTEMD_UNIT_DIR)
	sed 's|@BINDIR@|$(PREFIX)/bin|g' dist/systemd/rawprobe@.service.in > $(DESTDIR)$(SYSTEMD_UNIT_DIR)/rawprobe@.service
	chmod 644 $(DESTDIR)$(SYSTEMD_UNIT_DIR)/rawprobe@.service
.PHONY: install-systemd-unit

# Scrape time and memory of --metrics at about 1,000, 10,000 and 100,000 series (root).
bench-metrics: $(BUILD)/rawprobe
	tests/bench/metrics-scrape $(BUILD)/rawprobe
.PHONY: bench-metrics
