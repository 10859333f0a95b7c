# Seeds for the script preprocessor's fuzz target: bpftrace's tools where they are installed
# (Debian's bpftrace package, and shared/corpus beside the source tree) and the seed's own
# scripts, copied into the build directory, never into the source tree.
LANG_FUZZ_SEEDS = $(FUZZ_DIR)/seeds/lang_preprocess
FUZZ_SEEDS_lang_preprocess_fuzz = $(LANG_FUZZ_SEEDS)
FUZZ_ARGS_lang_preprocess_fuzz = -max_len=16384

fuzz-seeds: lang-fuzz-seeds
lang-fuzz-seeds:
	@mkdir -p $(LANG_FUZZ_SEEDS)
	@for f in /usr/sbin/*.bt ../shared/corpus/bpftrace-v0.26.1/tools/*.bt samples/*.bt; do \
	  [ -f "$$f" ] && cp "$$f" $(LANG_FUZZ_SEEDS)/$$(basename $$(dirname $$f))-$$(basename $$f); done; true

.PHONY: lang-fuzz-seeds
