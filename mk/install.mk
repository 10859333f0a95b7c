# What `make install` puts beside the binary: the man page and bash completion. The "install"
# suite (tests/install-check) installs into a scratch DESTDIR and checks all of it.
MANDIR ?= $(PREFIX)/share/man
BASH_COMPLETION_DIR ?= $(PREFIX)/share/bash-completion/completions
install: install-docs
install-docs:
	install -d $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(BASH_COMPLETION_DIR)
	install -m 644 dist/man/rawprobe.8 $(DESTDIR)$(MANDIR)/man8/rawprobe.8
	install -m 644 dist/bash-completion/rawprobe $(DESTDIR)$(BASH_COMPLETION_DIR)/rawprobe

install-check: $(BUILD)/rawprobe-static.stripped
	BUILD=$(BUILD) tests/install-check
TEST_SUITES += install
.PHONY: install-docs install-check
