# `make deb [ARCH=aarch64|arm]`: a Debian package of what `make install PREFIX=/usr` installs,
# built with dpkg-deb alone (no debian/ directory, no debhelper): the static rawprobe, its
# man page (compressed, as policy asks), bash completion and the systemd unit. bpfasm, a
# developer's tool linked against the host's shared libraries, stays out, so the package
# depends on nothing. The "deb" suite (tests/deb-check) runs lintian on it and installs it
# into an empty root with dpkg.
DEB_VERSION    := $(shell sed -n 's/.*kVersion = "rawprobe v\([^"]*\)".*/\1/p' engine/main.cpp)
DEB_MAINTAINER ?= rawprobe maintainers <maintainers@users.noreply.a-seed-4786d9b3.example>
DEB_DIR        := $(BUILD)/deb
DEB_FILE       := $(DEB_DIR)/rawprobe_$(DEB_VERSION)_$(DEB_ARCH).deb

deb: $(DEB_FILE)
	@echo $(DEB_FILE)
$(DEB_FILE): $(BUILD)/rawprobe-static.stripped dist/man/rawprobe.8 dist/bash-completion/rawprobe dist/deb/copyright dist/deb/lintian-overrides mk/deb.mk FORCE
	rm -rf $(DEB_DIR)/root && mkdir -p $(DEB_DIR)/root/DEBIAN
	$(MAKE) --no-print-directory -s install BPFASM_MAIN= DESTDIR=$(abspath $(DEB_DIR)/root) PREFIX=/usr
	gzip -9n $(DEB_DIR)/root/usr/share/man/man8/rawprobe.8
	install -d $(DEB_DIR)/root/usr/share/doc/rawprobe
	install -m 644 dist/deb/copyright $(DEB_DIR)/root/usr/share/doc/rawprobe/copyright
	install -D -m 644 dist/deb/lintian-overrides $(DEB_DIR)/root/usr/share/lintian/overrides/rawprobe
	printf 'rawprobe (%s) unstable; urgency=medium\n\n  * Package built by make deb from commit %s.\n\n -- %s  %s\n' \
	  $(DEB_VERSION) "$$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" "$(DEB_MAINTAINER)" \
	  "$$(date -R -d @$$(git log -1 --format=%ct 2>/dev/null || date +%s))" | \
	  gzip -9n > $(DEB_DIR)/root/usr/share/doc/rawprobe/changelog.gz
	chmod 644 $(DEB_DIR)/root/usr/share/doc/rawprobe/changelog.gz
	{ echo "Package: rawprobe"; echo "Version: $(DEB_VERSION)"; echo "Architecture: $(DEB_ARCH)"; \
	  echo "Maintainer: $(DEB_MAINTAINER)"; \
	  echo "Installed-Size: $$(du -sk --exclude=DEBIAN $(DEB_DIR)/root | cut -f1)"; \
	  echo "Section: utils"; echo "Priority: optional"; \
	  echo "Description: bpftrace-style tracer in one small static binary"; \
	  echo " rawprobe compiles bpftrace's script language to eBPF with its own assembler"; \
	  echo " and attaches it with raw bpf() and perf_event_open() calls: no libbpf, no"; \
	  echo " LLVM. uprobes, USDT, tracepoints, kprobes, profile, interval, software and"; \
	  echo " hardware events; text, JSON, folded stacks and Prometheus metrics."; \
	} > $(DEB_DIR)/root/DEBIAN/control
	cd $(DEB_DIR)/root && find usr -type f | LC_ALL=C sort | xargs md5sum > DEBIAN/md5sums
	dpkg-deb --root-owner-group -Zxz --build $(DEB_DIR)/root $@

deb-check: $(DEB_FILE)
	tests/deb-check $(DEB_FILE)
.PHONY: deb deb-check
TEST_SUITES += deb
TEST_BUILDS += $(DEB_FILE)
