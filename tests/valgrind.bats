#!/usr/bin/env bats
# Valgrind (memcheck, full leak check): the C unit test, and a sample of
# md5sum runs covering the plain path, the lanes path with worker threads,
# -c, standard input and write errors.  Each run must give GNU's output and
# leave valgrind nothing to report.

bats_require_minimum_version 1.5.0

load diff_helper

VG_OPTS=(-q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect
	--errors-for-leak-kinds=definite,indirect)

setup() {
	command -v valgrind >/dev/null 2>&1 || skip "valgrind is not installed (Debian: valgrind)"
	diff_setup
	grep -q __asan_init "$OURS" && skip "an ASan build does not run under valgrind"
	VG_LOGS=$BATS_TEST_TMPDIR/vg
	mkdir -p "$VG_LOGS" "$BATS_TEST_TMPDIR/real"
	ln -s "$OURS" "$BATS_TEST_TMPDIR/real/md5sum"
	# "md5sum" for the diff helper: ours under valgrind, still called
	# md5sum (valgrind finds it in PATH), each run logging to its own file
	rm -f "$OUR_BIN/md5sum"
	cat >"$OUR_BIN/md5sum" <<-EOF
		#!/bin/sh
		PATH="$BATS_TEST_TMPDIR/real:\$PATH" exec valgrind ${VG_OPTS[*]} --log-file="$VG_LOGS/vg.%p" md5sum "\$@"
	EOF
	chmod +x "$OUR_BIN/md5sum"
}

teardown() {
	diff_teardown
}

# no_report: valgrind logged nothing for any run
no_report() {
	local f n=0
	for f in "$VG_LOGS"/vg.*; do
		[[ -e $f ]] || continue
		n=$((n + 1))
		# Valgrind 3.19 does not know cachestat(2) (storage.c), and
		# says so; the call then fails with ENOSYS, which ours handles.
		sed -i '/WARNING: unhandled .* syscall: 451$/,+3d' "$f"
		[[ ! -s $f ]] || fail "valgrind reported: $(head -n 40 "$f")"
	done
	((n > 0)) || fail "valgrind did not run"
}

@test "valgrind: the C unit test" {
	[[ -x $BATS_TEST_DIRNAME/../build/tests/unit ]] || skip "tests/unit is not built"
	run -0 valgrind "${VG_OPTS[@]}" --log-file="$VG_LOGS/vg.unit" "$BATS_TEST_DIRNAME/../build/tests/unit"
	refute_line --partial 'not ok'
	no_report
}

@test "valgrind: hashing, plain and lanes paths, errors, stdin, --tag -z" {
	mkdir d
	same_as_gnu -- a
	MD5SUM_JOBS=2 same_as_gnu -- a h nope d x
	gnu_status_is 1
	MD5SUM_JOBS=1 same_as_gnu -- --tag -z a e
	same_as_gnu --stdin h -- - a
	no_report
}

@test "valgrind: -c with every kind of line, list on stdin, write error" {
	printf '%s  a\n%s  h\n%s  nope\nbad line\n\\%s  b\\\\s\n' "$HA" "$HA" "$HE" "$HE" >list
	: >'b\s'
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\nh: FAILED\nnope: FAILED open or read\nb\\s: OK\n'
	MD5SUM_JOBS=2 same_as_gnu --stdin list -- -c --warn -
	need_dev_full
	same_as_gnu_sh -- 'md5sum -c list >/dev/full; echo "rc=$?"'
	gnu_stderr_has 'md5sum: write error'
	no_report
}
