# Target architecture, read by the Makefile before anything else (so it lives outside mk/*.mk,
# which are read at the end). ARCH is spelled as `uname -m` spells it: the host's by default,
# or aarch64 / arm (armhf) for a cross build with Debian's cross compilers:
#   make deps ARCH=aarch64     cross compiler, qemu-user-static, the target's static libraries
#   make static ARCH=aarch64   -> build/aarch64/rawprobe-static
#   make size ARCH=aarch64     stripped and unstripped sizes, and where the bytes go
#   make cross-test ARCH=aarch64   the unit tests, built for the target, run under qemu-user
# A cross build links everything statically: its programs run on a target that has none of
# the host's shared libraries, and under qemu-user without a sysroot.
HOST_ARCH := $(shell uname -m)
ARCH      ?= $(HOST_ARCH)
override ARCH := $(patsubst arm64,aarch64,$(patsubst armhf,arm,$(patsubst amd64,x86_64,$(ARCH))))

# Per architecture: GNU triplet, Debian architecture, qemu's name for it.
TRIPLET_x86_64  := x86_64-linux-gnu
TRIPLET_aarch64 := aarch64-linux-gnu
TRIPLET_arm     := arm-linux-gnueabihf
DEB_ARCH_x86_64  := amd64
DEB_ARCH_aarch64 := arm64
DEB_ARCH_arm     := armhf
QEMU_ARCH_x86_64  := x86_64
QEMU_ARCH_aarch64 := aarch64
QEMU_ARCH_arm     := arm

ifeq ($(TRIPLET_$(ARCH)),)
$(error ARCH=$(ARCH): the build knows x86_64, aarch64 and arm (armhf))
endif
TRIPLET  := $(TRIPLET_$(ARCH))
DEB_ARCH := $(DEB_ARCH_$(ARCH))
STRIP    := strip
NM       := nm

ifneq ($(ARCH),$(HOST_ARCH))
CROSS      := 1
BUILD      ?= build/$(ARCH)
CXX        := $(TRIPLET)-g++
SAMPLES_CC := $(TRIPLET)-gcc
STRIP      := $(TRIPLET)-strip
NM         := $(TRIPLET)-nm
# The target's -dev packages unpacked by `make deps ARCH=...` (tests/install-packages cross).
SYSROOT    := $(BUILD)/sysroot
CPPFLAGS   += -isystem $(SYSROOT)/usr/include
LDFLAGS    += -static -L$(SYSROOT)/usr/lib/$(TRIPLET)
QEMU_USER  := qemu-$(QEMU_ARCH_$(ARCH))-static
endif
# g++ notes on arm that passing some iterators changed ABI in GCC 7.1: everything here is
# built by one compiler, so the note says nothing about this build.
# 32-bit arm: off_t and ino_t are 32 bits unless asked for 64, and readdir() then fails with
# EOVERFLOW on a filesystem with 64-bit inode numbers (xfs, btrfs, overlayfs), so path
# wildcards found nothing. time_t stays as Debian's armhf libraries were built (libelf's
# Elf_Arhdr holds one).
ifeq ($(ARCH),arm)
CXXFLAGS   += -Wno-psabi
CPPFLAGS   += -D_FILE_OFFSET_BITS=64
endif
