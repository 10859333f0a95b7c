# The test programs' own objects at -O1 with line tables only (-g1). Every clean build compiles
# them again, and at the project's -O2 -g a doctest file takes about 2.4 times as long
# (cli_run_test.cpp: 25.3 s against 10.5 s under load); they run once, on inputs where
# optimization buys nothing, and -g1 still gives file:line in a failure's backtrace. The
# engine they link stays at the shipped flags, so what is tested is what ships. An OPT given
# on the command line (the sanitizer builds) still wins.
TEST_OBJS := $(patsubst %.cpp,$(BUILD)/obj/%.o,$(wildcard tests/unit/*.cpp tests/kernel/*.cpp))
$(TEST_OBJS): OPT := -O1 $(if $(DEBUG_INFO),-g1)
# Objects made before this fragment (or a change to it) were compiled with other flags.
$(TEST_OBJS): mk/test_objects.mk
