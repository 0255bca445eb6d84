# md5sum - see README.md.  CC, CFLAGS, CPPFLAGS and LDFLAGS may be set on the
# command line; the language standard and warnings are always added.
CFLAGS = -O2 -g
STD = -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra
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
# -Os costs the hash nothing measurable.  MD5_LANES_SMALL keeps the sse2
# and avx2 lane engines only (lanes.c).  A common page size below the
# 4 KiB of x86-64 keeps ld from padding the file up to the next page
# before the data segment.
MUSL_CC = musl-gcc
STRIP = strip
STATIC_CFLAGS = -Os -ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables -DMD5_LANES_SMALL
STATIC_LDFLAGS = -static -Wl,--gc-sections,-z,noseparate-code,-z,norelro,-z,common-page-size=64,--build-id=none

LIB = md5.o
OBJ = md5sum.o opts.o check.o hash.o parallel.o lanes.o output.o quote.o $(LIB)
HDR = md5.h md5_steps.h md5sum.h check.h lanes.h opts.h quote.h

all: md5sum

md5sum: $(OBJ)
	$(CC) $(LDFLAGS) -o $@ $(OBJ) $(LDLIBS)

%.o: %.c $(HDR)
	$(CC) $(STD) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

TESTS = tests/unit tests/lanes_test tests/opts_test
HELPERS = tests/quote_driver

tests/unit: tests/unit.c $(LIB) $(HDR)
	$(CC) $(STD) $(CPPFLAGS) $(CFLAGS) -I. $(LDFLAGS) -o $@ tests/unit.c $(LIB) $(LDLIBS)

tests/lanes_test: tests/lanes_test.c lanes.o $(LIB) $(HDR)
	$(CC) $(STD) $(CPPFLAGS) $(CFLAGS) -I. $(LDFLAGS) -o $@ tests/lanes_test.c lanes.o $(LIB) $(LDLIBS)

tests/opts_test: tests/opts_test.c opts.o output.o quote.o $(HDR)
	$(CC) $(STD) $(CPPFLAGS) $(CFLAGS) -I. $(LDFLAGS) -o $@ tests/opts_test.c opts.o output.o quote.o

tests/quote_driver: tests/quote_driver.c quote.o quote.h
	$(CC) $(STD) $(CPPFLAGS) $(CFLAGS) -I. $(LDFLAGS) -o $@ tests/quote_driver.c quote.o

bench/micro: bench/micro.c $(LIB) $(HDR)
	$(CC) $(STD) $(CPPFLAGS) $(CFLAGS) -I. $(LDFLAGS) -o $@ bench/micro.c $(LIB)

bench/lanes_bench: bench/lanes_bench.c lanes.o $(LIB) $(HDR)
	$(CC) $(STD) $(CPPFLAGS) $(CFLAGS) -I. $(LDFLAGS) -o $@ bench/lanes_bench.c lanes.o $(LIB)

# Timings against GNU, OpenSSL, busybox and toybox; see bench/run.
bench: md5sum bench/micro bench/lanes_bench
	bench/run
	bench/lanes_bench

check: md5sum $(TESTS) $(HELPERS)
	TEST_PROGRAMS="$(TESTS)" tests/run

install: md5sum
	$(INSTALL) -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)/man1"
	$(INSTALL) -m 755 md5sum "$(DESTDIR)$(BINDIR)/md5sum"
	$(INSTALL) -m 644 md5sum.1 "$(DESTDIR)$(MANDIR)/man1/md5sum.1"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/md5sum" "$(DESTDIR)$(MANDIR)/man1/md5sum.1"

# One compiler run over the sources: no musl object mixes with the others.
static: md5sum-static

md5sum-static: $(OBJ:.o=.c) $(HDR)
	@command -v $(MUSL_CC) >/dev/null || { echo "$(MUSL_CC) not found (Debian: apt-get install musl-tools)" >&2; exit 1; }
	$(MUSL_CC) $(STD) $(CPPFLAGS) $(STATIC_CFLAGS) $(STATIC_LDFLAGS) -o $@ $(OBJ:.o=.c) $(LDLIBS)
	$(STRIP) $@

# The whole differential suite against the static binary: slow.
check-static: md5sum-static
	MD5SUM=$(CURDIR)/md5sum-static bats tests/diff_hash.bats tests/diff_check.bats

clean:
	rm -f md5sum md5sum-static $(TESTS) $(HELPERS) bench/micro bench/lanes_bench fuzz/fuzz_check *.o

.PHONY: all bench check clean install uninstall static check-static

# make fuzz: the libFuzzer harness for -c (fuzz/README.md); needs clang.
FUZZ_CC = clang
FUZZ_FLAGS = -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_SRC = check.c hash.c parallel.c lanes.c output.c quote.c md5.c

fuzz: fuzz/fuzz_check

fuzz/fuzz_check: fuzz/fuzz_check.c fuzz/sandbox.h $(FUZZ_SRC) $(HDR)
	$(FUZZ_CC) $(STD) $(FUZZ_FLAGS) -I. -include fuzz/sandbox.h -o $@ fuzz/fuzz_check.c $(FUZZ_SRC) $(LDLIBS)

.PHONY: fuzz
