# Dynamic USDT samples (tests/kernel/usdt_dynamic_test.cpp): a library with a USDT probe and a
# program that maps it from a memfd and from a deleted file.
$(BUILD)/samples/libusdt_lib.so: samples/usdt_lib.c
	@mkdir -p $(@D)
	$(SAMPLES_CC) $(SAMPLES_CFLAGS) -shared -fPIC $< -o $@

$(BUILD)/samples/dynamic_usdt: samples/dynamic_usdt.c
	@mkdir -p $(@D)
	$(SAMPLES_CC) $(SAMPLES_CFLAGS) $< -o $@ -ldl

DYNAMIC_USDT_SAMPLES := $(BUILD)/samples/libusdt_lib.so $(BUILD)/samples/dynamic_usdt
samples: $(DYNAMIC_USDT_SAMPLES)
