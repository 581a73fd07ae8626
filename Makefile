# SPDX-License-Identifier: GPL-2.0
# mlx5_diag out-of-tree build. KDIR defaults to the project's test kernel when
# it has been built (scripts/build-kernel), else the running kernel's.
KDIR ?= $(shell $(CURDIR)/scripts/kdir)

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean

# Build for kernel KVER (default: the running one) against its headers and
# install the way out-of-tree drivers are: under /lib/modules/$(KVER)/updates/,
# then depmod. Unsigned (CONFIG_MODULE_SIG_ALL=): a distribution's signing key
# is not at hand; under Secure Boot use DKMS, which signs with its own key.
KVER ?= $(shell uname -r)
KVER_DIR := /lib/modules/$(KVER)
install:
	$(MAKE) -C $(KVER_DIR)/build M=$(CURDIR) modules
	$(MAKE) -C $(KVER_DIR)/build M=$(CURDIR) INSTALL_MOD_DIR=updates \
		CONFIG_MODULE_SIG_ALL= modules_install
	depmod -a $(KVER)

uninstall:
	rm -rf $(KVER_DIR)/updates/drivers/perf/mlx5_diag
	[ ! -d $(KVER_DIR)/updates/drivers/perf ] || \
		rmdir -p --ignore-fail-on-non-empty $(KVER_DIR)/updates/drivers/perf
	depmod -a $(KVER)

# Warning-free W=1 builds against the test kernel and Debian's 6.1 and 6.12.
check-builds:
	scripts/check-builds

# checkpatch --strict and sparse.
check-style:
	scripts/check-style

# Every test (builds, style, KUnit and selftests in the VM).
test:
	scripts/run-tests

# The end-to-end demo in the VM.
demo:
	scripts/demo

.PHONY: modules clean install uninstall check-builds check-style test demo
