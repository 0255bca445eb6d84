# md5sum - see README.md.  CC, CFLAGS, CPPFLAGS and LDFLAGS may be set on the
# command line; the language standard and warnings are always added.
CFLAGS = -O2 -g
WARNINGS = -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes -Wconversion
STD = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARNINGS)
LDLIBS = -lpthread

ifeq ($(SANITIZE),1)
CFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
LDFLAGS = -fsanitize=address,undefined
endif

# make install: PREFIX, and DESTDIR (a staging root), may be set.
PREFIX = /usr/local
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man
INSTALL = install

# make static: musl-gcc (Debian: musl-tools); small rather than fast, since
# -Oz costs the hash nothing measurable, and -flto lets the hooks of
# --progress vanish.  MD5_LANES_SMALL keeps the sse2 lane engine only
# (lib/lanes.c) and the portable one-stream transform (lib/md5.c: no
# AVX-512VL); MD5SUM_SMALL leaves out what os/features.h lists, and the
# modules it leaves out whole are swapped for stand-ins (SMALL_SRC).
# No jump tables, no inlining of small functions called from several
# places, and no loops made into calls of memset or memcpy: each takes the
# file a little further under its budget, as does keeping what each
# function reads and writes from shaping its callers' code
# (-fno-ipa-modref), and allocating registers over loops and the function
# together where that pays, as -O2 does, rather than over the whole
# function at once, as -Os does (-fira-region=mixed), and keeping values
# across a call in registers the call saves rather than in those it may
# clobber (-fno-caller-saves).  A common page size below the 4 KiB of
# x86-64 keeps ld from padding the file up to the next page before the
# data segment.
MUSL_CC = musl-gcc
STRIP = strip
STATIC_CFLAGS = -Oz -flto -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables \
	-fno-jump-tables -fno-inline-small-functions -fno-tree-loop-distribute-patterns \
	-fno-ipa-modref -fira-region=mixed -fno-caller-saves -DMD5_LANES_SMALL -DMD5SUM_SMALL
STATIC_LDFLAGS = -static -Wl,--gc-sections,-z,noseparate-code,-z,norelro,-z,common-page-size=64,--build-id=none

# The one list of sources every build derives from.  lib/ is the library
# that others copy: it is compiled with no include path, so it cannot
# include the command's headers.  open.c is how the command opens what it
# reads; the fuzz harness links its own instead.
LIB_SRC = lib/md5.c lib/lanes.c
CMD_SRC = md5sum.c cmd/cmdline.c cmd/opts.c cmd/sums.c cmd/check.c \
	jobs/source.c jobs/listline.c jobs/listread.c jobs/results.c run/schedule.c \
	run/budget.c run/crew.c run/hasher.c run/hasher_step.c run/feed.c \
	run/laneset.c run/queue.c run/lanecount.c \
	run/recent.c run/hasher_shelf.c run/decide_threads.c run/decide_way.c run/decide_listing.c \
	run/lister.c read/disk.c read/disk_order.c \
	read/diskplace.c read/storage.c read/devkind.c read/sysfs.c read/mountinfo.c read/stream.c read/open.c \
	window/window.c window/window_batch.c out/out.c out/msg.c out/diag.c out/errtext.c \
	out/lang.c out/format.c \
	out/quote.c out/decimal.c out/progress.c out/progress_draw.c out/statusline.c \
	out/term.c out/outbox.c os/cores.c os/fds.c os/thread.c os/monotime.c \
	os/grow.c
SRC = $(CMD_SRC) $(LIB_SRC)
# The small build's: the modules it leaves out whole (os/features.h),
# each for its stand-in.
SMALL_OUT = read/disk.c read/disk_order.c out/progress_draw.c run/lister.c \
	out/lang.c os/grow.c
SMALL_IN = read/disk_none.c out/progress_draw_none.c run/lister_none.c \
	out/lang_none.c os/grow_copy.c
SMALL_SRC = $(filter-out $(SMALL_OUT),$(CMD_SRC)) $(SMALL_IN) $(LIB_SRC)

# Everything built goes under build/: objects (and their dependency files)
# in build/obj/, beside the sources' own folders, the programs in build/,
# build/tests/, build/bench/ and build/fuzz/.  The source folders hold
# sources only.
B = build
O = $(B)/obj
MD5SUM = $(B)/md5sum
OBJ = $(SRC:%.c=$(O)/%.o)
LIB_OBJ = $(LIB_SRC:%.c=$(O)/%.o)

all: $(MD5SUM)

$(MD5SUM): $(OBJ)
	$(CC) $(LDFLAGS) -o $@ $(OBJ) $(LDLIBS)

$(O)/lib/%.o: lib/%.c
	@mkdir -p $(@D)
	$(CC) $(STD) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(O)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(STD) -I. $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# Test programs and benchmarks: each links only the objects it tests.
TESTS = $(B)/tests/unit $(B)/tests/lanes_test $(B)/tests/opts_test $(B)/tests/decide_way_test \
	$(B)/tests/decide_threads_test $(B)/tests/decide_device_test $(B)/tests/statusline_test \
	$(B)/tests/listline_test $(B)/tests/diskplace_test $(B)/tests/decide_listing_test \
	$(B)/tests/lang_test
HELPERS = $(B)/tests/quote_driver $(B)/tests/device_probe $(B)/tests/hold_fds \
	$(B)/tests/short_reads.so $(B)/tests/count_threads.so $(B)/tests/deny_lister.so
BENCHES = $(B)/bench/micro $(B)/bench/lanes_bench $(B)/bench/floor
DIFF_FUZZ = $(B)/fuzz/diff_fuzz
TEST_CFLAGS = $(STD) -I. -Itests $(CPPFLAGS) $(CFLAGS) -MMD -MP
TAP = $(O)/tests/tap.o

$(B)/tests/unit: $(O)/tests/unit.o $(TAP)
$(B)/tests/lanes_test: $(O)/tests/lanes_test.o $(TAP) $(O)/run/lanecount.o $(LIB_OBJ)
$(B)/tests/opts_test: $(O)/tests/opts_test.o $(TAP) $(O)/cmd/opts.o $(O)/out/msg.o $(O)/out/term.o \
	$(O)/out/lang.o $(O)/out/format.o $(O)/out/quote.o
$(B)/tests/lang_test: $(O)/tests/lang_test.o $(TAP) $(O)/out/lang.o $(O)/out/format.o \
	$(O)/out/msg.o $(O)/out/term.o $(O)/out/quote.o
$(B)/tests/decide_way_test: $(O)/tests/decide_way_test.o $(TAP) $(O)/run/decide_way.o
$(B)/tests/decide_listing_test: $(O)/tests/decide_listing_test.o $(TAP) $(O)/run/decide_listing.o
$(B)/tests/decide_threads_test: $(O)/tests/decide_threads_test.o $(TAP) $(O)/run/decide_threads.o \
	$(O)/read/devkind.o
$(B)/tests/decide_device_test: $(O)/tests/decide_device_test.o $(TAP) \
	$(O)/run/decide_threads.o $(O)/read/devkind.o
$(B)/tests/statusline_test: $(O)/tests/statusline_test.o $(TAP) $(O)/out/statusline.o
$(B)/tests/listline_test: $(O)/tests/listline_test.o $(TAP) $(O)/jobs/listline.o
$(B)/tests/diskplace_test: $(O)/tests/diskplace_test.o $(TAP) $(O)/read/diskplace.o
$(B)/tests/quote_driver: $(O)/tests/quote_driver.o $(O)/out/quote.o
$(B)/tests/device_probe: $(O)/tests/device_probe.o $(O)/read/sysfs.o $(O)/out/decimal.o
$(B)/tests/hold_fds: $(O)/tests/hold_fds.o
$(B)/bench/micro: $(O)/bench/micro.o
$(B)/bench/lanes_bench: $(O)/bench/lanes_bench.o $(O)/lib/lanes.o
$(B)/bench/floor: $(O)/bench/floor.o
$(DIFF_FUZZ): $(O)/fuzz/diff_fuzz.o $(O)/lib/md5.o

$(TESTS) $(filter-out %.so,$(HELPERS)) $(BENCHES) $(DIFF_FUZZ):
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Preloaded by tests (LD_PRELOAD), so built as shared objects.
$(B)/tests/short_reads.so: tests/short_reads.c
	@mkdir -p $(@D)
	$(CC) $(STD) $(CPPFLAGS) $(CFLAGS) -fPIC -shared -o $@ $<

$(B)/tests/count_threads.so: tests/count_threads.c
	@mkdir -p $(@D)
	$(CC) $(STD) $(CPPFLAGS) $(CFLAGS) -fPIC -shared -o $@ $< -ldl

$(B)/tests/deny_lister.so: tests/deny_lister.c
	@mkdir -p $(@D)
	$(CC) $(STD) $(CPPFLAGS) $(CFLAGS) -fPIC -shared -o $@ $< -ldl

$(O)/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -c -o $@ $<

$(O)/bench/%.o: bench/%.c
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -c -o $@ $<

$(O)/fuzz/%.o: fuzz/%.c
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -c -o $@ $<

# lanes_bench --table says how the engines were built.
$(O)/bench/lanes_bench.o: TEST_CFLAGS += -DBUILD_CFLAGS='"$(CFLAGS)"'

# Timings against GNU, OpenSSL, busybox and toybox, in the page cache
# (bench/run), then against GNU on real storage, cold (bench/cold: root
# only; it says so and skips without), then ours five ways (default,
# --disk=ssd, --disk=hdd, -j1) and GNU on real storage, warm and cold
# (bench/storage: the loop devices and the model as root only).
bench: $(MD5SUM) $(BENCHES)
	bench/run
	$(B)/bench/lanes_bench
	bench/cold
	bench/storage

# Ours at its default and at -j1 ... -j64, and GNU, cold on a model of a
# network file system where every request costs a round trip (bench/net:
# root only; it says so and skips without).  The model is the C one,
# bench/netmodel.c, where pkg-config finds libfuse 3.12 or later (Debian:
# libfuse3-dev and pkg-config), else bench/netmodel.py: nothing else needs
# libfuse, so only this target and check-all (tests/net.bats tests both
# models) build it, and only where they can.
NETMODEL = $(B)/bench/netmodel
FUSE3 = fuse3 >= 3.12

bench-net: $(MD5SUM) netmodel-if-fuse
	MD5SUM=$(MD5SUM) bench/net

netmodel-if-fuse:
	@if pkg-config --exists '$(FUSE3)' 2>/dev/null; then \
		$(MAKE) --no-print-directory $(NETMODEL); \
	else \
		echo "no libfuse3-dev 3.12 or later (or no pkg-config): the network model is bench/netmodel.py alone"; \
	fi

$(NETMODEL): bench/netmodel.c
	@mkdir -p $(@D)
	$(CC) $(STD) $$(pkg-config --cflags '$(FUSE3)') $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< \
		$$(pkg-config --libs '$(FUSE3)')

# make check: the quick tests, for every change (tests/run says which);
# make check-all: every test, which CI runs.
check: $(MD5SUM) $(TESTS) $(HELPERS) $(DIFF_FUZZ) $(B)/asan/md5sum
	TEST_PROGRAMS="$(TESTS)" tests/run quick

check-all: $(MD5SUM) $(TESTS) $(HELPERS) $(DIFF_FUZZ) sanitizers netmodel-if-fuse
	TEST_PROGRAMS="$(TESTS)" tests/run all

# The differential fuzzer against GNU (fuzz/diff_fuzz.c): N cases from
# SEED, each in a locale this machine has (LOCALES=C,de_DE.UTF-8,...
# narrows them), each that differs kept as a script in build/diff-fuzz/.
N = 10000
SEED = 1
GNU = /usr/bin/md5sum
LOCALES =
diff-fuzz: $(MD5SUM) $(DIFF_FUZZ)
	@mkdir -p $(B)/diff-fuzz
	$(DIFF_FUZZ) -n $(N) -s $(SEED) $(if $(LOCALES),--locales $(LOCALES)) -o $(B)/diff-fuzz $(MD5SUM) $(GNU)

# Our lane engines against isa-l_crypto's multi-buffer MD5 of the same
# widths (bench/isal_bench.c), linked into that program only: ISAL is a
# tree of intel/isa-l_crypto built with make -f Makefile.unx lib (nasm).
ISAL =
ISAL_BENCH = $(B)/bench/isal_bench
bench-isal:
	@if [ -z "$(ISAL)" ]; then \
		echo "make bench-isal ISAL=<a built isa-l_crypto tree>: it is not a Debian package;"; \
		echo "  git clone https://github.com/intel/isa-l_crypto && cd isa-l_crypto &&"; \
		echo "  make -f Makefile.unx lib   (needs nasm: apt-get install nasm)"; \
	else \
		$(MAKE) --no-print-directory $(ISAL_BENCH) ISAL="$(ISAL)" && taskset -c 0 $(ISAL_BENCH); \
	fi

$(ISAL_BENCH): bench/isal_bench.c $(LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) $(STD) -I. -I"$(ISAL)/include" $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ \
		bench/isal_bench.c $(LIB_OBJ) "$(ISAL)/bin/isa-l_crypto.a" $(LDLIBS)

install: $(MD5SUM)
	$(INSTALL) -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)/man1"
	$(INSTALL) -m 755 $(MD5SUM) "$(DESTDIR)$(BINDIR)/md5sum"
	$(INSTALL) -m 644 md5sum.1 "$(DESTDIR)$(MANDIR)/man1/md5sum.1"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/md5sum" "$(DESTDIR)$(MANDIR)/man1/md5sum.1"

# One compiler run over the sources: no musl object mixes with the others.
static: $(B)/md5sum-static

$(B)/md5sum-static: $(SMALL_SRC) $(wildcard */*.h) Makefile
	@mkdir -p $(@D)
	@command -v $(MUSL_CC) >/dev/null || { echo "$(MUSL_CC) not found (Debian: apt-get install musl-tools)" >&2; exit 1; }
	$(MUSL_CC) $(STD) -I. $(CPPFLAGS) $(STATIC_CFLAGS) $(STATIC_LDFLAGS) -o $@ $(SMALL_SRC) $(LDLIBS)
	$(STRIP) -R .comment $@

# The whole differential suite against the static binary: slow.
check-static: $(B)/md5sum-static
	MD5SUM=$(CURDIR)/$(B)/md5sum-static bats tests/diff_hash.bats tests/diff_check.bats

# The sanitizer builds that make check runs suites against (tests/run):
# each one compiler run over the sources into build/, so that no
# sanitized object mixes with the normal ones.  A compiler without the
# runtime leaves a note in build/*/why instead, and the suites say so and
# skip.
SAN_CC = $(CC)
SAN_CFLAGS = -O1 -g -fno-omit-frame-pointer
ASAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all
TSAN_FLAGS = -fsanitize=thread
SAN_DEPS = $(SRC) $(wildcard */*.h) Makefile

sanitizers: $(B)/asan/md5sum $(B)/tsan/md5sum

$(B)/asan/md5sum: $(SAN_DEPS)
	@mkdir -p $(@D) && rm -f $(@D)/why
	$(SAN_CC) $(STD) -I. $(CPPFLAGS) $(SAN_CFLAGS) $(ASAN_FLAGS) -o $@ $(SRC) $(LDLIBS) 2>$(@D)/err || \
		{ rm -f $@; echo "$(SAN_CC) cannot build with ASan+UBSan (Debian 12: gcc brings libasan8 and libubsan1): $$(head -n 1 $(@D)/err)" >$(@D)/why; }
	@cat $(@D)/err >&2; rm -f $(@D)/err

$(B)/tsan/md5sum: $(SAN_DEPS)
	@mkdir -p $(@D) && rm -f $(@D)/why
	$(SAN_CC) $(STD) -I. $(CPPFLAGS) $(SAN_CFLAGS) $(TSAN_FLAGS) -o $@ $(SRC) $(LDLIBS) 2>$(@D)/err || \
		{ rm -f $@; echo "$(SAN_CC) cannot build with TSan (Debian 12: gcc brings libtsan2): $$(head -n 1 $(@D)/err)" >$(@D)/why; }
	@cat $(@D)/err >&2; rm -f $(@D)/err

# make fuzz: the libFuzzer harness for -c (fuzz/README.md); needs clang.
# It takes every source but main's and open.c, whose seam it fills.
FUZZ_CC = clang
FUZZ_FLAGS = -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_SRC = $(filter-out md5sum.c read/open.c,$(SRC))

fuzz: $(B)/fuzz/fuzz_check

$(B)/fuzz/fuzz_check: fuzz/fuzz_check.c $(FUZZ_SRC)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(STD) -I. $(FUZZ_FLAGS) -o $@ fuzz/fuzz_check.c $(FUZZ_SRC) $(LDLIBS)

clean:
	rm -rf $(B)

-include $(shell find $(O) -name '*.d' 2>/dev/null)

.PHONY: all bench bench-isal bench-net netmodel-if-fuse check check-all clean install uninstall static check-static fuzz sanitizers diff-fuzz
