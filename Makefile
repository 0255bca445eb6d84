# md5sum - see README.md.  CC, CFLAGS, CPPFLAGS and LDFLAGS may be set on the
# command line; the language standard and warnings are always added.
CFLAGS = -O2 -g
STD = -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra
LDLIBS = -lpthread

ifeq ($(SANITIZE),1)
CFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
LDFLAGS = -fsanitize=address,undefined
endif

LIB = md5.o
OBJ = md5sum.o check.o hash.o parallel.o lanes.o output.o quote.o $(LIB)
HDR = md5.h md5_steps.h md5sum.h check.h lanes.h quote.h

all: md5sum

md5sum: $(OBJ)
	$(CC) $(LDFLAGS) -o $@ $(OBJ) $(LDLIBS)

%.o: %.c $(HDR)
	$(CC) $(STD) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

TESTS = tests/unit tests/lanes_test
HELPERS = tests/quote_driver

tests/unit: tests/unit.c $(LIB) $(HDR)
	$(CC) $(STD) $(CPPFLAGS) $(CFLAGS) -I. $(LDFLAGS) -o $@ tests/unit.c $(LIB) $(LDLIBS)

tests/lanes_test: tests/lanes_test.c lanes.o $(LIB) $(HDR)
	$(CC) $(STD) $(CPPFLAGS) $(CFLAGS) -I. $(LDFLAGS) -o $@ tests/lanes_test.c lanes.o $(LIB) $(LDLIBS)

tests/quote_driver: tests/quote_driver.c quote.o quote.h
	$(CC) $(STD) $(CPPFLAGS) $(CFLAGS) -I. $(LDFLAGS) -o $@ tests/quote_driver.c quote.o

check: md5sum $(TESTS) $(HELPERS)
	TEST_PROGRAMS="$(TESTS)" tests/run

clean:
	rm -f md5sum $(TESTS) $(HELPERS) *.o

.PHONY: all check clean
