# SPDX-License-Identifier: GPL-2.0
# mlx5_diag out-of-tree build. KDIR defaults to the project's test kernel when
# it has been built (scripts/build-kernel), else the running kernel's.
KDIR ?= $(shell $(CURDIR)/scripts/kdir)

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean

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

.PHONY: modules clean check-builds check-style test demo
