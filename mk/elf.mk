# ELF-layer samples: real binaries for the elf/ unit tests, built from
# samples/usdt_*.c and samples/cxx_*.cpp into $(BUILD)/samples/elf/:
#   usdt_args_O0       gcc -O0: USDT arguments in frame memory (-4@-20(%rbp))
#   usdt_args_O2       gcc -O2 PIE: registers, rip-relative globals, base+index*scale
#   usdt_args_nopie    gcc -O2 -no-pie: an ET_EXEC
#   usdt_args_aarch64  aarch64-linux-gnu-gcc -O2, parsed on this host
#   usdt_args_arm      arm-linux-gnueabihf-gcc -O2 (Thumb-2, Debian's default)
#   usdt_args_a32      the same in ARM (A32) mode
#   cxx_names          C++ names to demangle, an IFUNC, a weak alias
#   usdt_args_buildid  usdt_args_O2 stripped; its debug file under debugroot/usr/lib/debug/
#                      .build-id/ (tests point the filesystem root at debugroot)
#   usdt_args_debuglink usdt_args_O2 stripped with .gnu_debuglink to .debug/<name>.debug
ELF_SAMPLES_DIR := $(BUILD)/samples/elf
ELF_SDT_INCLUDE := $(ELF_SAMPLES_DIR)/include
ELF_SAMPLE_NAMES := usdt_args_O0 usdt_args_O2 usdt_args_nopie usdt_args_aarch64 usdt_args_arm \
  usdt_args_a32 cxx_names usdt_args_buildid usdt_args_debuglink
ELF_SAMPLES := $(addprefix $(ELF_SAMPLES_DIR)/,$(ELF_SAMPLE_NAMES))

# The cross compilers have no <sys/sdt.h> of their own; the header is architecture-neutral
# (it switches on __aarch64__, __arm__, ...), so they get a copy of the host's.
$(ELF_SDT_INCLUDE)/sys/sdt.h:
	@mkdir -p $(@D)
	cp $$(printf '\043include <sys/sdt.h>\n' | gcc -x c -M - | tr ' \\' '\n\n' | grep '/sys/sdt') $(@D)/

$(ELF_SAMPLES_DIR)/usdt_args_O0: samples/usdt_args.c
	@mkdir -p $(@D)
	gcc -O0 -g $< -o $@
$(ELF_SAMPLES_DIR)/usdt_args_O2: samples/usdt_args.c
	@mkdir -p $(@D)
	gcc -O2 -g $< -o $@
$(ELF_SAMPLES_DIR)/usdt_args_nopie: samples/usdt_args.c
	@mkdir -p $(@D)
	gcc -O2 -g -fno-pie -no-pie $< -o $@
$(ELF_SAMPLES_DIR)/usdt_args_aarch64: samples/usdt_args.c $(ELF_SDT_INCLUDE)/sys/sdt.h
	aarch64-linux-gnu-gcc -O2 -I$(ELF_SDT_INCLUDE) $< -o $@
$(ELF_SAMPLES_DIR)/usdt_args_arm: samples/usdt_args.c $(ELF_SDT_INCLUDE)/sys/sdt.h
	arm-linux-gnueabihf-gcc -O2 -mthumb -I$(ELF_SDT_INCLUDE) $< -o $@
$(ELF_SAMPLES_DIR)/usdt_args_a32: samples/usdt_args.c $(ELF_SDT_INCLUDE)/sys/sdt.h
	arm-linux-gnueabihf-gcc -O2 -marm -I$(ELF_SDT_INCLUDE) $< -o $@
$(ELF_SAMPLES_DIR)/cxx_names: samples/cxx_names.cpp
	@mkdir -p $(@D)
	g++ -O0 -g $< -o $@

$(ELF_SAMPLES_DIR)/usdt_args_buildid: $(ELF_SAMPLES_DIR)/usdt_args_O2
	id=$$(readelf -n $< | sed -n 's/.*Build ID: *//p'); \
	dir=$(ELF_SAMPLES_DIR)/debugroot/usr/lib/debug/.build-id/$$(echo $$id | cut -c1-2); \
	mkdir -p $$dir && objcopy --only-keep-debug $< $$dir/$$(echo $$id | cut -c3-).debug
	objcopy --strip-all $< $@
$(ELF_SAMPLES_DIR)/usdt_args_debuglink: $(ELF_SAMPLES_DIR)/usdt_args_O2
	@mkdir -p $(@D)/.debug
	objcopy --only-keep-debug $< $(@D)/.debug/usdt_args_debuglink.debug
	objcopy --strip-all --add-gnu-debuglink=$(@D)/.debug/usdt_args_debuglink.debug $< $@

# hello_usdt is the seed sample (mk/samples.mk, read after this fragment, has its rule).
elf-samples: $(ELF_SAMPLES) $(BUILD)/samples/hello_usdt $(BUILD)/samples/hello
.PHONY: elf-samples
TEST_BUILDS += elf-samples
# The unit tests read the samples: build them first (and tell the tests where they are).
unit-elf: elf-samples
ELF_TEST_OBJS := $(patsubst %.cpp,$(BUILD)/obj/%.o,$(wildcard tests/unit/elf_*_test.cpp))
$(ELF_TEST_OBJS): CPPFLAGS += -DRAWPROBE_TEST_BUILD_DIR='"$(BUILD)"'

# A shared library linked at a nonzero base, as prelink leaves them (PT_LOAD p_vaddr != 0 in
# an ET_DYN), carrying the same USDT probes: "probes inside shared libraries" and the
# vaddr -> file offset formula for based objects.
$(ELF_SAMPLES_DIR)/libusdt_based.so: samples/usdt_args.c
	@mkdir -p $(@D)
	gcc -O2 -g -shared -fPIC -Wl,-Ttext-segment=0x7000000 $< -o $@
elf-samples: $(ELF_SAMPLES_DIR)/libusdt_based.so

# Seeds for the elf fuzzers (mk/fuzz.mk): real binaries, their .note.stapsdt sections (with
# the layout byte elf_notes_fuzz reads first), and their argument strings (with the arch/
# table index elf_usdt_spec_fuzz reads first: all() order, x86_64 0, aarch64 2, arm 3).
# (Deferred '=': FUZZ_DIR is set by mk/fuzz.mk, read after this file.)
ELF_FUZZ_SEEDS = $(FUZZ_DIR)/seeds
FUZZ_SEEDS_elf_loader_fuzz = $(ELF_FUZZ_SEEDS)/elf_loader
FUZZ_SEEDS_elf_notes_fuzz = $(ELF_FUZZ_SEEDS)/elf_notes
FUZZ_SEEDS_elf_usdt_spec_fuzz = $(ELF_FUZZ_SEEDS)/elf_usdt_spec
FUZZ_ARGS_elf_loader_fuzz := -max_len=262144
fuzz-seeds: elf-fuzz-seeds
elf-fuzz-seeds: elf-samples
	@mkdir -p $(ELF_FUZZ_SEEDS)/elf_loader $(ELF_FUZZ_SEEDS)/elf_notes $(ELF_FUZZ_SEEDS)/elf_usdt_spec
	cp $(BUILD)/samples/hello_usdt $(ELF_SAMPLES_DIR)/usdt_args_arm $(ELF_SAMPLES_DIR)/usdt_args_aarch64 \
	  $(ELF_FUZZ_SEEDS)/elf_loader/
	set -e; for s in usdt_args_O2:'\000':0:objcopy usdt_args_aarch64:'\000':2:aarch64-linux-gnu-objcopy \
	    usdt_args_arm:'\002':3:arm-linux-gnueabihf-objcopy; do \
	  name=$${s%%:*}; rest=$${s#*:}; layout=$${rest%%:*}; rest=$${rest#*:}; arch=$${rest%%:*}; \
	  objcopy=$${rest#*:}; \
	  $$objcopy --dump-section .note.stapsdt=/tmp/rawprobe-notes.$$$$ $(ELF_SAMPLES_DIR)/$$name /tmp/rawprobe-copy.$$$$; \
	  { printf "$$layout"; cat /tmp/rawprobe-notes.$$$$; } > $(ELF_FUZZ_SEEDS)/elf_notes/$$name; \
	  rm -f /tmp/rawprobe-notes.$$$$ /tmp/rawprobe-copy.$$$$; \
	  readelf -n $(ELF_SAMPLES_DIR)/$$name | sed -n 's/^ *Arguments: //p' | sort -u | \
	    while read -r args; do n=$$((n+1)); \
	      { printf "\\$$(printf %03o $$arch)"; printf '%s' "$$args"; } \
	        > $(ELF_FUZZ_SEEDS)/elf_usdt_spec/$$name.$$(printf '%s' "$$args" | cksum | cut -d' ' -f1); \
	    done; \
	done
.PHONY: elf-fuzz-seeds
