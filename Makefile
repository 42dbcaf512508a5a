# SPDX-License-Identifier: GPL-2.0
#
# The rhashtable build lab: builds and tests this repo's rhashtable patch
# series on Linux 6.12.  "make help" lists the targets; the work happens
# in lab/*.sh and the kernel tree and builds live under $(RHT_WORK).

RHT_WORK ?= $(HOME)/.cache/rhashtable
JOBS ?= $(shell nproc)
export RHT_WORK JOBS

# What "make check" runs, in order.  Add new test targets here.
CHECK_TARGETS := lint model harness kunit kunit-smp kunit-kcsan compat

TREE := $(RHT_WORK)/linux

.PHONY: help tree patches kunit kunit-smp kunit-kcsan lint model mutate compat api-users harness fuzz bench bench-profile bench-kernel run check clean

help:
	@echo 'make run          tree + kunit, then a short summary (start here)'
	@echo 'make check        everything CI runs: $(CHECK_TARGETS)'
	@echo 'make tree         Linux 6.12 + lab/series as git branch rht in $(TREE)'
	@echo 'make patches      the series as patches in out/patches/'
	@echo 'make kunit        KUnit on UML with lockdep'
	@echo 'make kunit-smp    KUnit on x86_64, 2 CPUs under QEMU, KASAN + lockdep'
	@echo 'make kunit-kcsan  KUnit on x86_64, 2 CPUs under QEMU, KCSAN'
	@echo 'make lint         sparse, checkpatch, kernel-doc and git am on our files'
	@echo 'make model        spin: the reader protocol, and that its known bugs are found'
	@echo 'make mutate       mutation testing: which test kills each planted bug (~1 h)'
	@echo 'make compat       compile every in-tree rhashtable user (x86_64 allmodconfig)'
	@echo 'make api-users    regenerate lab/compat/{api,users}.txt from the 6.12 tree'
	@echo 'make harness      userspace: ASAN+UBSAN and TSAN stress, 60 s of fuzzing'
	@echo 'make fuzz         userspace: a long fuzzing run'
	@echo 'make bench        userspace: ours, stock 6.12, cds_lfht, plain table'
	@echo 'make bench-profile userspace: instructions and cache misses per lookup (callgrind)'
	@echo 'make bench-kernel in-kernel benchmark, stock vs ours (UML, x86_64 -smp 2)'
	@echo 'make clean        remove out/ (not $(RHT_WORK))'
	@echo 'Variables: RHT_WORK=$(RHT_WORK) JOBS=$(JOBS)'

tree:
	lab/tree.sh

patches: tree
	rm -rf out/patches
	mkdir -p out/patches
	git -C $(TREE) format-patch -q --cover-letter -o $(CURDIR)/out/patches rht-base..rht
	lab/cover.py out/patches/0000-cover-letter.patch lab/series/cover-letter.txt
	@ls out/patches

kunit: tree
	lab/kunit.sh um

kunit-smp: tree
	lab/kunit.sh x86_64-kasan

kunit-kcsan: tree
	lab/kunit.sh x86_64-kcsan

lint: patches
	lab/lint.sh

model:
	lab/packages.sh
	lab/model/run.sh

mutate: tree
	lab/mutate/mutate.py

compat: tree
	lab/api-users.sh --check
	lab/compat.sh

api-users: tree
	lab/api-users.sh

# The harness as the series carries it, run inside the tree with no lab
# variables: what a kernel developer would run.
HARNESS := $(MAKE) -C $(TREE)/tools/testing/rhashtable O=$(CURDIR)/out

harness: tree
	$(HARNESS) check

fuzz: tree
	$(HARNESS) fuzz

bench: tree
	$(MAKE) -C lab/bench KSRC=$(TREE) O=$(CURDIR)/out

bench-profile: tree
	mkdir -p out/bench
	$(MAKE) -C lab/bench KSRC=$(TREE) O=$(CURDIR)/out profile

bench-kernel: tree
	lab/kbench.sh um
	lab/kbench.sh x86_64

run: kunit
	@echo
	@echo '== Summary (full log: $(RHT_WORK)/build-um/test.log) =='
	@lab/checklog.py --summary $(RHT_WORK)/build-um/test.log

check: $(CHECK_TARGETS)

clean:
	rm -rf out
