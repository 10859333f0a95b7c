# Cold code at -Os. These directories run once per invocation, on a few hundred bytes of
# script: lexing, parsing, checking, code generation, assembly, probe expansion, option
# parsing, C type layout, the metrics plan. At -O2 g++ inlines and unrolls their template-heavy
# C++ (std::string, std::vector, std::variant) into about twice the bytes; at -Os they are
# smaller and compile faster, and a script still reaches 'Attaching' in the same time (README,
# "Size, speed and memory"). What runs per event or over big inputs stays at -O2: the event
# loop and map reads (engine/runtime), output (engine/output), the syscall layer (engine/sys),
# ELF and BTF parsing (elf, engine/btf: libc's symbol tables, the kernel's BTF), stack
# symbolization (engine/symbols).
# An OPT given on the command line (the sanitizer and fuzz builds) still wins.
COLD_DIRS := engine/lang engine/codegen engine/probes engine/driver engine/ctypes engine/metrics \
             bpfasm arch
COLD_OBJS := $(patsubst %.cpp,$(BUILD)/obj/%.o,$(foreach d,$(COLD_DIRS),$(wildcard $(d)/*.cpp)))
$(COLD_OBJS): OPT := $(patsubst -O%,-Os,$(OPT))
# Objects made before this fragment (or a change to it) were compiled with other flags.
$(COLD_OBJS): mk/cold.mk
