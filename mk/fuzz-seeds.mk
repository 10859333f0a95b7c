# Libraries and seeds of the fuzz targets for the bpfasm assembler and disassembler, the
# tracefs format parser, /etc/ld.so.cache, /proc/kallsyms and /proc/PID/maps, and the script
# front end with code generation (mk/fuzz.mk runs them). Seeds are this machine's real
# files where readable, copied into the build directory, never into the source tree.
# Named to sort before fuzz.mk, which reads FUZZ_LIBS_* when it defines the link rules.
# The script front end reaches the C types (engine/ctypes) too, which UNIT_LIBS_lang leaves out.
FUZZ_LIBS_lang_parser_fuzz = $(LIB_DIRS)
FUZZ_LIBS_lang_preprocess_fuzz = $(LIB_DIRS)
FUZZ_LIBS_lang_tracepoint_format_fuzz = $(LIB_DIRS)
FUZZ_LIBS_symbols_kallsyms_fuzz = engine/symbols engine/sys elf arch bpfasm engine/base
FUZZ_LIBS_symbols_maps_fuzz = engine/symbols engine/base
SEEDS = $(FUZZ_DIR)/seeds
FUZZ_SEEDS_lang_parser_fuzz = $(LANG_FUZZ_SEEDS)
FUZZ_ARGS_lang_parser_fuzz = -max_len=16384
FUZZ_SEEDS_bpfasm_text_fuzz = $(SEEDS)/bpfasm_text
FUZZ_SEEDS_bpfasm_binary_fuzz = $(SEEDS)/bpfasm_binary
FUZZ_SEEDS_lang_tracepoint_format_fuzz = $(SEEDS)/tracepoint_format
FUZZ_SEEDS_elf_ld_cache_fuzz = $(SEEDS)/ld_cache
FUZZ_ARGS_elf_ld_cache_fuzz = -max_len=262144
FUZZ_SEEDS_symbols_kallsyms_fuzz = $(SEEDS)/kallsyms
FUZZ_SEEDS_symbols_maps_fuzz = $(SEEDS)/maps
FUZZ_SEEDS_output_printf_fuzz = $(SEEDS)/printf

fuzz-seeds: parser-fuzz-seeds printf-fuzz-seeds
# printf's seeds: each format string the seed's scripts and bpftrace's tools write (escapes
# read as printf reads them), its NUL, a type byte for each of the first eight conversions,
# and 64 bytes of arguments.
printf-fuzz-seeds:
	@mkdir -p $(SEEDS)/printf
	@grep -ho 'printf("[^"]*"' samples/*.bt /usr/sbin/*.bt ../shared/corpus/bpftrace-v0.26.1/tools/*.bt 2>/dev/null | \
	  sort -u | { n=0; while IFS= read -r call; do \
	    n=$$((n + 1)); format=$${call#printf(\"}; format=$${format%\"}; \
	    { printf '%b\000' "$$format"; printf '\001\002\003\004\005\006\007\010'; \
	      printf '%s' 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef; } >$(SEEDS)/printf/$$n; \
	  done; }
# The assembler's seeds: every instruction form's example, the sample program, and the
# listings rawprobe -d prints; the disassembler's: those assembled.
parser-fuzz-seeds: $(BUILD)/bpfasm $(BUILD)/rawprobe
	@mkdir -p $(SEEDS)/bpfasm_text $(SEEDS)/bpfasm_binary $(SEEDS)/tracepoint_format $(SEEDS)/ld_cache \
	  $(SEEDS)/kallsyms $(SEEDS)/maps
	@$(BUILD)/bpfasm --forms | sed -n 's/.*e\.g\. //p' >$(SEEDS)/bpfasm_text/forms.s
	@cp samples/count.s $(SEEDS)/bpfasm_text/
	@$(BUILD)/rawprobe -d -e 'BEGIN { @a[1, "k"] = count(); @h = hist(5); printf("%d %s\n", 1, "x"); exit(); }' \
	  >$(SEEDS)/bpfasm_text/maps.s 2>/dev/null || true
	@$(BUILD)/rawprobe -d -e 'interval:ms:10 { $$i = 0; while ($$i < 3) { @s = sum($$i); $$i++; } if (@s > 1) { print(@s); } }' \
	  >$(SEEDS)/bpfasm_text/loops.s 2>/dev/null || true
	@for s in $(SEEDS)/bpfasm_text/*.s; do \
	  $(BUILD)/bpfasm $$s -o $(SEEDS)/bpfasm_binary/$$(basename $$s .s).bin >/dev/null 2>&1 || true; done
	@for f in $$(ls -d /sys/kernel/tracing/events/syscalls/sys_enter_read* /sys/kernel/tracing/events/sched/sched_switch \
	             /sys/kernel/tracing/events/*/*_*process* 2>/dev/null | head -n 20); do \
	  cp $$f/format $(SEEDS)/tracepoint_format/$$(basename $$f) 2>/dev/null || true; done
	@cp /etc/ld.so.cache $(SEEDS)/ld_cache/ 2>/dev/null || true
	@{ head -n 300 /proc/kallsyms; grep -m 200 '\[' /proc/kallsyms; } >$(SEEDS)/kallsyms/kallsyms 2>/dev/null || true
	@cat /proc/self/maps >$(SEEDS)/maps/self; cat /proc/1/maps >$(SEEDS)/maps/init 2>/dev/null || true

.PHONY: printf-fuzz-seeds parser-fuzz-seeds
