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
# -Os costs the hash nothing measurable, and -flto lets the hooks of
# --progress vanish.  MD5_LANES_SMALL keeps the sse2 lane engine only
# (lib/lanes.c) and the portable one-stream transform (lib/md5.c: no
# AVX-512VL); MD5SUM_SMALL leaves out the drawing of --progress
# (progress.c), which would take the file over its budget, asking the page
# cache with cachestat (storage.c), the disk readers (disk.c), the
# files that threads give each other at the end of a run (schedule.c) and
# the coarse clock (monotime.c); the lanes are compressed through a copy
# of their chaining words (lane.c).  No
# jump tables, no inlining of small functions called from several places,
# and no loops made into calls of memset or memcpy: each takes the file a
# little further under its budget, as does keeping what each function
# reads and writes from shaping its callers' code (-fno-ipa-modref).  A
# common page size
# below the 4 KiB of x86-64 keeps ld from padding the file up to the next
# page before the data segment.
MUSL_CC = musl-gcc
STRIP = strip
STATIC_CFLAGS = -Os -flto -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables \
	-fno-jump-tables -fno-inline-small-functions -fno-tree-loop-distribute-patterns \
	-fno-ipa-modref -DMD5_LANES_SMALL -DMD5SUM_SMALL
STATIC_LDFLAGS = -static -Wl,--gc-sections,-z,noseparate-code,-z,norelro,-z,common-page-size=64,--build-id=none

# The one list of sources every build derives from.  lib/ is the library
# that others copy: it is compiled with no include path, so it cannot
# include the command's headers.  open.c is how the command opens what it
# reads; the fuzz harness links its own instead.
LIB_SRC = lib/md5.c lib/lanes.c
CMD_SRC = md5sum.c opts.c sums.c check.c schedule.c pace.c hasher.c lane.c route.c seen.c storage.c \
	batches.c cores.c disk.c sysfs.c stream.c listread.c open.c out.c record.c \
	decimal.c grow.c monotime.c thread.c fds.c msg.c diag.c errtext.c quote.c progress.c \
	statusline.c term.c
SRC = $(CMD_SRC) $(LIB_SRC)
OBJ = $(SRC:.c=.o)
LIB_OBJ = $(LIB_SRC:.c=.o)

all: md5sum

md5sum: $(OBJ)
	$(CC) $(LDFLAGS) -o $@ $(OBJ) $(LDLIBS)

lib/%.o: lib/%.c
	$(CC) $(STD) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

%.o: %.c
	$(CC) $(STD) -Ilib $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# Test programs and benchmarks: each links only the objects it tests.
TESTS = tests/unit tests/lanes_test tests/opts_test tests/route_test tests/pace_test \
	tests/statusline_test
HELPERS = tests/quote_driver tests/device_probe tests/hold_fds tests/short_reads.so
TEST_CFLAGS = $(STD) -I. -Ilib -Itests $(CPPFLAGS) $(CFLAGS) -MMD -MP

tests/unit: tests/unit.o tests/tap.o
tests/lanes_test: tests/lanes_test.o tests/tap.o lane.o $(LIB_OBJ)
tests/opts_test: tests/opts_test.o tests/tap.o opts.o msg.o term.o
tests/route_test: tests/route_test.o tests/tap.o route.o storage.o sysfs.o decimal.o
tests/pace_test: tests/pace_test.o tests/tap.o pace.o
tests/statusline_test: tests/statusline_test.o tests/tap.o statusline.o
tests/quote_driver: tests/quote_driver.o quote.o
tests/device_probe: tests/device_probe.o sysfs.o decimal.o
tests/hold_fds: tests/hold_fds.o
bench/micro: bench/micro.o
bench/lanes_bench: bench/lanes_bench.o lib/lanes.o
bench/floor: bench/floor.o
fuzz/diff_fuzz: fuzz/diff_fuzz.o lib/md5.o

$(TESTS) $(filter-out %.so,$(HELPERS)) bench/micro bench/lanes_bench bench/floor fuzz/diff_fuzz:
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Preloaded by tests (LD_PRELOAD), so built as a shared object.
tests/short_reads.so: tests/short_reads.c
	$(CC) $(STD) $(CPPFLAGS) $(CFLAGS) -fPIC -shared -o $@ $<

tests/%.o: tests/%.c
	$(CC) $(TEST_CFLAGS) -c -o $@ $<

bench/%.o: bench/%.c
	$(CC) $(TEST_CFLAGS) -c -o $@ $<

fuzz/diff_fuzz.o: fuzz/diff_fuzz.c
	$(CC) $(TEST_CFLAGS) -c -o $@ $<

# lanes_bench --table says how the engines were built.
bench/lanes_bench.o: TEST_CFLAGS += -DBUILD_CFLAGS='"$(CFLAGS)"'

# Timings against GNU, OpenSSL, busybox and toybox, in the page cache
# (bench/run), then against GNU on real storage, cold (bench/cold: root
# only; it says so and skips without), then ours five ways (default,
# --disk=ssd, --disk=hdd, -j1) and GNU on real storage, warm and cold
# (bench/storage: the loop devices and the model as root only).
bench: md5sum bench/micro bench/lanes_bench bench/floor
	bench/run
	bench/lanes_bench
	bench/cold
	bench/storage

check: md5sum $(TESTS) $(HELPERS) fuzz/diff_fuzz sanitizers
	TEST_PROGRAMS="$(TESTS)" tests/run

# The differential fuzzer against GNU (fuzz/diff_fuzz.c): N cases from
# SEED, each that differs kept as a script in build/diff-fuzz/.
N = 10000
SEED = 1
GNU = /usr/bin/md5sum
diff-fuzz: md5sum fuzz/diff_fuzz
	@mkdir -p build/diff-fuzz
	fuzz/diff_fuzz -n $(N) -s $(SEED) -o build/diff-fuzz ./md5sum $(GNU)

install: md5sum
	$(INSTALL) -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)/man1"
	$(INSTALL) -m 755 md5sum "$(DESTDIR)$(BINDIR)/md5sum"
	$(INSTALL) -m 644 md5sum.1 "$(DESTDIR)$(MANDIR)/man1/md5sum.1"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/md5sum" "$(DESTDIR)$(MANDIR)/man1/md5sum.1"

# One compiler run over the sources: no musl object mixes with the others.
static: md5sum-static

md5sum-static: $(SRC)
	@command -v $(MUSL_CC) >/dev/null || { echo "$(MUSL_CC) not found (Debian: apt-get install musl-tools)" >&2; exit 1; }
	$(MUSL_CC) $(STD) -Ilib $(CPPFLAGS) $(STATIC_CFLAGS) $(STATIC_LDFLAGS) -o $@ $(SRC) $(LDLIBS)
	$(STRIP) -R .comment $@

# The whole differential suite against the static binary: slow.
check-static: md5sum-static
	MD5SUM=$(CURDIR)/md5sum-static bats tests/diff_hash.bats tests/diff_check.bats

# The sanitizer builds that make check runs suites against (tests/run):
# each one compiler run over the sources into build/, so that no
# sanitized object mixes with the normal ones.  A compiler without the
# runtime leaves a note in build/*/why instead, and the suites say so and
# skip.
SAN_CC = $(CC)
SAN_CFLAGS = -O1 -g -fno-omit-frame-pointer
ASAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all
TSAN_FLAGS = -fsanitize=thread
SAN_DEPS = $(SRC) $(wildcard *.h lib/*.h) Makefile

sanitizers: build/asan/md5sum build/tsan/md5sum

build/asan/md5sum: $(SAN_DEPS)
	@mkdir -p $(@D) && rm -f $(@D)/why
	$(SAN_CC) $(STD) -Ilib $(CPPFLAGS) $(SAN_CFLAGS) $(ASAN_FLAGS) -o $@ $(SRC) $(LDLIBS) 2>$(@D)/err || \
		{ rm -f $@; echo "$(SAN_CC) cannot build with ASan+UBSan (Debian 12: gcc brings libasan8 and libubsan1): $$(head -n 1 $(@D)/err)" >$(@D)/why; }
	@cat $(@D)/err >&2; rm -f $(@D)/err

build/tsan/md5sum: $(SAN_DEPS)
	@mkdir -p $(@D) && rm -f $(@D)/why
	$(SAN_CC) $(STD) -Ilib $(CPPFLAGS) $(SAN_CFLAGS) $(TSAN_FLAGS) -o $@ $(SRC) $(LDLIBS) 2>$(@D)/err || \
		{ rm -f $@; echo "$(SAN_CC) cannot build with TSan (Debian 12: gcc brings libtsan2): $$(head -n 1 $(@D)/err)" >$(@D)/why; }
	@cat $(@D)/err >&2; rm -f $(@D)/err

# make fuzz: the libFuzzer harness for -c (fuzz/README.md); needs clang.
# It takes every source but main's and open.c, whose seam it fills.
FUZZ_CC = clang
FUZZ_FLAGS = -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_SRC = $(filter-out md5sum.c open.c,$(SRC))

fuzz: fuzz/fuzz_check

fuzz/fuzz_check: fuzz/fuzz_check.c $(FUZZ_SRC)
	$(FUZZ_CC) $(STD) -I. -Ilib $(FUZZ_FLAGS) -o $@ fuzz/fuzz_check.c $(FUZZ_SRC) $(LDLIBS)

clean:
	rm -f md5sum md5sum-static $(TESTS) $(HELPERS) bench/micro bench/lanes_bench bench/floor \
		fuzz/fuzz_check fuzz/diff_fuzz *.o *.d lib/*.o lib/*.d tests/*.o tests/*.d bench/*.o \
		bench/*.d fuzz/*.o fuzz/*.d
	rm -rf build

-include $(wildcard *.d lib/*.d tests/*.d bench/*.d fuzz/*.d)

.PHONY: all bench check clean install uninstall static check-static fuzz sanitizers diff-fuzz
