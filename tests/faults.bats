#!/usr/bin/env bats
# Faults: read, open and close errors injected with strace, write errors on
# standard output, and signals.  A checksum tool must never print a digest
# for data it did not read, nor exit 0 after an error, nor leave half a line.
#
# Faulted runs go through every path: the plain path (one file), the lanes
# path (several files, or MD5SUM_JOBS set) with one and with two workers,
# and -c.  Where GNU md5sum 9.1 is the spec they are compared with it byte
# for byte (diff_helper.bash).  Each strace run also counts the faults it
# injected, and GNU's count is pinned, so a fault that silently missed its
# target fails the test instead of passing it.
#
# strace -P matches the name that md5sum opens (and descriptors opened on
# it); -f follows the worker threads that open files in the lanes path.

bats_require_minimum_version 1.5.0

load diff_helper

setup() {
	diff_setup
	seq 1 200000 >big # 1.3 MB: many reads on every path
	HBIG=$("$GNU_MD5SUM" <big | cut -c1-32)
	printf '%s  a\n%s  h\n%s  big\n' "$HA" "$HH" "$HBIG" >list
	# a name of 200 bytes: lines of 235 bytes, so that a few hundred of
	# them are more than a pipe holds
	N200=$(printf 'n%.0s' {1..200})
	printf 'abc' >"$N200"
}

teardown() {
	diff_teardown
}

need_strace() {
	command -v strace >/dev/null 2>&1 || skip "strace is not installed (Debian: strace)"
	strace -qq -f -o /dev/null -e inject=getppid:error=EPERM true 2>/dev/null ||
		skip "strace cannot trace or inject faults here (ptrace not permitted?)"
}

# fault SPEC PATH CMD [AFTER]: a snippet that runs the shell command CMD
# (md5sum and its arguments and redirections) under strace, injecting SPEC
# (as read:error=EIO:when=5) into the system calls on PATH (a read fault
# into read and preadv2, each counted apart), as md5sum names
# it or as an absolute path; it prints CMD's stdout, then "rc=STATUS" and
# "injected=N", the number of faults injected, then runs AFTER.  strace's
# note that a relative PATH was resolved is dropped from stderr.  (In an
# ASan build, LeakSanitizer cannot work under ptrace: it is turned off.)
fault() {
	local spec=$1

	# Our first read of a file on a block device asks the page cache
	# only (preadv2): a read fault is one there too.
	# (EAGAIN there says only that the data is not in memory.)
	[[ $spec != read:* || $spec == *EAGAIN* ]] || spec=read,preadv2:${spec#read:}
	printf '{ { ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -qq -f -o "$SCRATCH/trace" -P "%s" -e inject=%s %s; } 2>&1 >&3 3>&- | grep -v "^strace: Requested path" >&2; echo "rc=${PIPESTATUS[0]}"; } 3>&1; echo "injected=$(grep -c INJECTED "$SCRATCH/trace")"; %s' \
		"$2" "$spec" "$3" "${4-}"
}

# with_jobs N CMD...: run CMD with MD5SUM_JOBS=N, or without MD5SUM_JOBS
# when N is empty.  A single file takes the plain path only without it.
# With 2, files are read as on an SSD (lanes on worker threads); with 2h
# as on a spinning disk (a reader thread per disk); otherwise as the
# machine's disk says.
with_jobs() {
	local j=$1 rc=0
	shift
	unset MD5SUM_JOBS MD5SUM_DISK
	case $j in
	2) export MD5SUM_JOBS=2 MD5SUM_DISK=ssd ;;
	2h) export MD5SUM_JOBS=2 MD5SUM_DISK=hdd ;;
	?*) export MD5SUM_JOBS=$j ;;
	esac
	"$@" || rc=$?
	unset MD5SUM_JOBS MD5SUM_DISK
	((rc == 0)) || echo "(this was with MD5SUM_JOBS=${j:-unset})" >&2
	return "$rc"
}

# ours_sh / gnu_sh SNIPPET: run the snippet with "md5sum" being one binary.
ours_sh() {
	PATH=$OUR_BIN:$PATH SCRATCH=$BATS_TEST_TMPDIR bash -c "$1"
}
gnu_sh() {
	PATH=$GNU_BIN:$PATH SCRATCH=$BATS_TEST_TMPDIR bash -c "$1"
}

# ------------------------------------------------------------ read faults

@test "read fault EIO, one file (plain path and lanes -j1/-j2): message, no digest, exit 1" {
	need_strace
	for j in '' 1 2 2h; do
		with_jobs "$j" same_as_gnu_sh -- "$(fault read:error=EIO a 'md5sum a')"
		gnu_stdout_is $'rc=1\ninjected=1\n'
		gnu_stderr_is $'md5sum: a: Input/output error\n'
	done
}

@test "read fault EIO, several files (lanes, default/-j1/-j2): other files still hashed, exit 1" {
	need_strace
	for j in '' 1 2 2h; do
		with_jobs "$j" same_as_gnu_sh -- "$(fault read:error=EIO a 'md5sum h a big x')"
		gnu_stdout_is "$HH  h"$'\n'"$HBIG  big"$'\n'"$HX  x"$'\nrc=1\ninjected=1\n'
		gnu_stderr_is $'md5sum: a: Input/output error\n'
	done
}

@test "read fault EIO in the middle of a large file (when=5): no digest for it, every path" {
	need_strace
	for j in '' 1 2 2h; do
		with_jobs "$j" same_as_gnu_sh -- "$(fault read:error=EIO:when=5 big 'md5sum big')"
		gnu_stdout_is $'rc=1\ninjected=1\n'
		gnu_stderr_is $'md5sum: big: Input/output error\n'
		with_jobs "$j" same_as_gnu_sh -- "$(fault read:error=EIO:when=5 big 'md5sum a big h')"
		gnu_stdout_is "$HA  a"$'\n'"$HH  h"$'\nrc=1\ninjected=1\n'
		gnu_stderr_is $'md5sum: big: Input/output error\n'
	done
}

@test "read fault, other errnos: GNU's strerror text for each" {
	need_strace
	local e disk
	for e in EAGAIN ENOMEM EINVAL EISDIR ENXIO EOVERFLOW; do
		# EAGAIN from a read of memory only says "not in memory", and
		# a plain read follows: the fault is the plain read's, as on
		# an SSD.
		disk=auto
		[[ $e != EAGAIN ]] || disk=ssd
		MD5SUM_DISK=$disk same_as_gnu_sh -- "$(fault read:error=$e a 'md5sum a h')"
		gnu_stdout_is "$HH  h"$'\nrc=1\ninjected=1\n'
		MD5SUM_DISK=$disk same_as_gnu_sh -- "$(fault read:error=$e a 'md5sum a')"
		gnu_status_is 0
	done
}

@test "read fault on standard input: '-: Input/output error', alone and among files" {
	need_strace
	for j in '' 1 2 2h; do
		with_jobs "$j" same_as_gnu_sh -- "$(fault read:error=EIO a 'md5sum <a')"
		gnu_stdout_is $'rc=1\ninjected=1\n'
		gnu_stderr_is $'md5sum: -: Input/output error\n'
		with_jobs "$j" same_as_gnu_sh -- "$(fault read:error=EIO a 'md5sum h - x <a')"
		gnu_stdout_is "$HH  h"$'\n'"$HX  x"$'\nrc=1\ninjected=1\n'
	done
}

@test "read fault EIO in -c: 'FAILED open or read', counted in the summary, every path" {
	need_strace
	for j in '' 1 2 2h; do
		with_jobs "$j" same_as_gnu_sh -- "$(fault read:error=EIO a 'md5sum -c list')"
		gnu_stdout_is $'a: FAILED open or read\nh: OK\nbig: OK\nrc=1\ninjected=1\n'
		gnu_stderr_is $'md5sum: a: Input/output error\nmd5sum: WARNING: 1 listed file could not be read\n'
		with_jobs "$j" same_as_gnu_sh -- "$(fault read:error=EIO:when=5 big 'md5sum -c list')"
		gnu_stdout_is $'a: OK\nh: OK\nbig: FAILED open or read\nrc=1\ninjected=1\n'
		with_jobs "$j" same_as_gnu_sh -- "$(fault read:error=EIO a 'md5sum -c --quiet list')"
		gnu_stdout_is $'a: FAILED open or read\nrc=1\ninjected=1\n'
		with_jobs "$j" same_as_gnu_sh -- "$(fault read:error=EIO a 'md5sum -c --status list')"
		gnu_stdout_is $'rc=1\ninjected=1\n'
		gnu_stderr_is $'md5sum: a: Input/output error\n'
	done
}

@test "read fault EIO in -c: a listed '-' read from standard input" {
	need_strace
	printf '%s  -\n%s  h\n' "$HA" "$HH" >slist
	for j in '' 2 2h; do
		with_jobs "$j" same_as_gnu_sh -- "$(fault read:error=EIO a 'md5sum -c slist <a')"
		gnu_stdout_is $'-: FAILED open or read\nh: OK\nrc=1\ninjected=1\n'
	done
}

@test "read fault EINTR: retried, the digest is right, exit 0 (GNU gives up), every path" {
	need_strace
	for j in '' 1 2 2h; do
		with_jobs "$j" run -0 --separate-stderr ours_sh "$(fault read:error=EINTR:when=1 a 'md5sum a')"
		assert_output "$HA  a"$'\nrc=0\ninjected=1'
		assert_equal "$stderr" ''
		with_jobs "$j" run -0 --separate-stderr ours_sh "$(fault read:error=EINTR:when=1 a 'md5sum a h')"
		assert_output "$HA  a"$'\n'"$HH  h"$'\nrc=0\ninjected=1'
		assert_equal "$stderr" ''
		with_jobs "$j" run -0 --separate-stderr ours_sh "$(fault read:error=EINTR:when=1 a 'md5sum -c list')"
		assert_output $'a: OK\nh: OK\nbig: OK\nrc=0\ninjected=1'
		assert_equal "$stderr" ''
	done
	# GNU reports the interrupted read instead: the fault did take effect.
	run -0 --separate-stderr gnu_sh "$(fault read:error=EINTR:when=1 a 'md5sum a h')"
	assert_output "$HH  h"$'\nrc=1\ninjected=1'
	assert_equal "$stderr" 'md5sum: a: Interrupted system call'
}

@test "read fault EINTR in the middle of a large file, and on standard input: retried" {
	need_strace
	for j in '' 1 2 2h; do
		with_jobs "$j" run -0 --separate-stderr ours_sh "$(fault read:error=EINTR:when=5 big 'md5sum big a')"
		assert_output "$HBIG  big"$'\n'"$HA  a"$'\nrc=0\ninjected=1'
		assert_equal "$stderr" ''
		with_jobs "$j" run -0 --separate-stderr ours_sh "$(fault read:error=EINTR:when=5 big 'md5sum - <big')"
		assert_output "$HBIG  -"$'\nrc=0\ninjected=1'
		assert_equal "$stderr" ''
	done
	run -0 --separate-stderr gnu_sh "$(fault read:error=EINTR:when=5 big 'md5sum big a')"
	assert_output "$HA  a"$'\nrc=1\ninjected=1'
	assert_equal "$stderr" 'md5sum: big: Interrupted system call'
}

# ------------------------------------------------------ open, close, fstat

@test "open fault (EACCES, EMFILE, ENFILE, EIO): GNU's message, the rest hashed, every path" {
	need_strace
	local e
	for e in EACCES EMFILE ENFILE EIO; do
		for j in '' 1 2 2h; do
			with_jobs "$j" same_as_gnu_sh -- "$(fault openat:error=$e a 'md5sum a')"
			gnu_stdout_is $'rc=1\ninjected=1\n'
		done
		case $e in
		EMFILE | ENFILE)
			# Ours opens it again once a file it holds is closed.
			run -0 --separate-stderr ours_sh "$(fault openat:error=$e a 'md5sum h a x')"
			[[ $output =~ ^"$HH  h"$'\n'"$HX  x"$'\n''rc=1'$'\n''injected='[1-9][0-9]*$ ]] ||
				fail "stdout: $output"
			;;
		*)
			same_as_gnu_sh -- "$(fault openat:error=$e a 'md5sum h a x')"
			gnu_stdout_is "$HH  h"$'\n'"$HX  x"$'\nrc=1\ninjected=1\n'
			;;
		esac
	done
	gnu_stderr_is $'md5sum: a: Input/output error\n'
}

@test "open fault in -c: 'FAILED open or read'; an injected ENOENT is skipped by --ignore-missing" {
	need_strace
	for j in '' 1 2 2h; do
		with_jobs "$j" same_as_gnu_sh -- "$(fault openat:error=EACCES big 'md5sum -c list')"
		gnu_stdout_is $'a: OK\nh: OK\nbig: FAILED open or read\nrc=1\ninjected=1\n'
		gnu_stderr_is $'md5sum: big: Permission denied\nmd5sum: WARNING: 1 listed file could not be read\n'
		with_jobs "$j" same_as_gnu_sh -- "$(fault openat:error=ENOENT big 'md5sum -c --ignore-missing list')"
		gnu_stdout_is $'a: OK\nh: OK\nrc=0\ninjected=1\n'
		# For want of descriptors, ours opens the file again once the
		# files it holds are closed, or while other threads hold some
		# (limits.bats); when it still cannot, it says what GNU says.
		with_jobs "$j" run -0 --separate-stderr ours_sh "$(fault openat:error=EMFILE big 'md5sum -c list')"
		[[ $output =~ ^'a: OK'$'\n''h: OK'$'\n''big: FAILED open or read'$'\n''rc=1'$'\n''injected='[1-9][0-9]*$ ]] ||
			fail "stdout: $output"
		assert_equal "$stderr" $'md5sum: big: Too many open files\nmd5sum: WARNING: 1 listed file could not be read'
	done
}

@test "close fault on an input file: reported, no digest for it, exit 1, every path" {
	need_strace
	for j in '' 1 2 2h; do
		with_jobs "$j" same_as_gnu_sh -- "$(fault close:error=EIO a 'md5sum a')"
		gnu_stdout_is $'rc=1\ninjected=1\n'
		gnu_stderr_is $'md5sum: a: Input/output error\n'
		with_jobs "$j" same_as_gnu_sh -- "$(fault close:error=EIO a 'md5sum a h')"
		gnu_stdout_is "$HH  h"$'\nrc=1\ninjected=1\n'
		with_jobs "$j" same_as_gnu_sh -- "$(fault close:error=EIO a 'md5sum -c list')"
		gnu_stdout_is $'a: FAILED open or read\nh: OK\nbig: OK\nrc=1\ninjected=1\n'
	done
}

@test "fstat fault on an input file: still hashed right (the lanes path falls back to plain reads)" {
	need_strace
	for j in '' 1 2 2h; do
		with_jobs "$j" same_as_gnu_sh -- "$(fault %fstat:error=EIO big 'md5sum big a')"
		gnu_stdout_is "$HBIG  big"$'\n'"$HA  a"$'\nrc=0\ninjected=1\n'
	done
}

# -------------------------------------------------------- the list itself

@test "list faults: open fault on the list is GNU's message, exit 1" {
	need_strace
	for j in '' 1 2 2h; do
		with_jobs "$j" same_as_gnu_sh -- "$(fault openat:error=EIO list 'md5sum -c list')"
		gnu_stdout_is $'rc=1\ninjected=1\n'
		gnu_stderr_is $'md5sum: list: Input/output error\n'
		with_jobs "$j" same_as_gnu_sh -- "$(fault openat:error=EACCES list 'md5sum -c list list')"
		gnu_stdout_is $'rc=1\ninjected=2\n'
	done
}

@test "list faults: read fault at once, or after some lines, is 'read error', exit 1" {
	need_strace
	local i
	# 300 lines, 12 kB: more than one read of the list
	for i in $(seq 300); do printf '%s  a\n' "$HA"; done >long
	for j in '' 1 2 2h; do
		with_jobs "$j" same_as_gnu_sh -- "$(fault read:error=EIO list 'md5sum -c list')"
		gnu_stdout_is $'rc=1\ninjected=1\n'
		gnu_stderr_is $'md5sum: list: read error\n'
	done
	# A fault at the list's second read: strace counts each thread's
	# reads apart, and with threads the list is read by whichever needs
	# jobs, so only one thread is sure to meet it where GNU does.
	with_jobs 1 same_as_gnu_sh -- "$(fault read:error=EIO:when=2 long 'md5sum -c long list')"
	gnu_stdout_has $'a: OK\na: OK\n'
	gnu_stdout_has $'a: OK\nh: OK\nbig: OK\nrc=1\ninjected=1\n'
	gnu_stderr_is $'md5sum: long: read error\n'
	local gnu_ok	# of long's lines; list has one more
	gnu_ok=$(($(grep -c '^a: OK$' "$GNU_OUT") - 1))
	with_jobs 1 same_as_gnu_sh -- "$(fault read:error=EIO:when=2 long 'md5sum -c <long')"
	gnu_stderr_is $'md5sum: \'standard input\': read error\n'
	for j in '' 2 2h; do
		# With threads: the lines of whole reads before the fault are
		# checked (GNU's, or more), the fault ends the list, the next
		# list is checked.
		with_jobs "$j" ours_sh "$(fault read:error=EIO:when=2 long 'md5sum -c long list')" >out 2>err
		assert_equal "$(<err)" 'md5sum: long: read error'
		assert_equal "$(tail -n 5 out)" $'a: OK\nh: OK\nbig: OK\nrc=1\ninjected=1'
		assert_equal "$(head -n -5 out | sort -u)" 'a: OK'
		local n
		n=$(head -n -5 out | grep -c '^a: OK$')
		((n >= gnu_ok && n < 300)) || fail "$n lines checked, GNU checks $gnu_ok: $(<out)"
	done
}

@test "list faults: EINTR reading the list is a read error, as GNU's (a line could be cut)" {
	need_strace
	for j in '' 2 2h; do
		with_jobs "$j" same_as_gnu_sh -- "$(fault read:error=EINTR:when=1 list 'md5sum -c list')"
		gnu_stdout_is $'rc=1\ninjected=1\n'
		gnu_stderr_is $'md5sum: list: read error\n'
	done
}

# ----------------------------------------------------------- write faults

@test "write: stdout is /dev/full: 'write error', exit 1, every path" {
	need_dev_full
	for j in '' 1 2 2h; do
		with_jobs "$j" same_as_gnu_sh -- 'md5sum a >/dev/full; echo "rc=$?"'
		gnu_stdout_is $'rc=1\n'
		gnu_stderr_is $'md5sum: write error\n'
		with_jobs "$j" same_as_gnu_sh -- 'md5sum a nope big >/dev/full; echo "rc=$?"'
		gnu_stderr_is $'md5sum: nope: No such file or directory\nmd5sum: write error\n'
		with_jobs "$j" same_as_gnu_sh -- 'md5sum -c list >/dev/full; echo "rc=$?"'
		gnu_stdout_is $'rc=1\n'
		with_jobs "$j" same_as_gnu_sh -- 'md5sum -z a h >/dev/full; echo "rc=$?"'
		gnu_stdout_is $'rc=1\n'
	done
}

@test "write: stdout closed: 'write error: Bad file descriptor', exit 1, every path" {
	for j in '' 1 2 2h; do
		with_jobs "$j" same_as_gnu_sh -- 'md5sum a >&-; echo "rc=$?"'
		gnu_stdout_is $'rc=1\n'
		gnu_stderr_is $'md5sum: write error: Bad file descriptor\n'
		with_jobs "$j" same_as_gnu_sh -- 'md5sum a h big >&-; echo "rc=$?"'
		gnu_stdout_is $'rc=1\n'
		with_jobs "$j" same_as_gnu_sh -- 'md5sum -c list >&-; echo "rc=$?"'
		gnu_stdout_is $'rc=1\n'
		gnu_stderr_is $'md5sum: write error: Bad file descriptor\n'
	done
}

# many: "names", 1000 lines of the 200-byte name, for md5sum's arguments; "long": a
# list of as many lines naming it.  Their output (over 200 kB) is more than
# a pipe holds, so md5sum cannot write it all before head -n1 goes away.
many() {
	local i
	for ((i = 0; i < 1000; i++)); do printf '%s\n' "$N200"; done >names
	sed "s/^/$HA  /" names >long
}

@test "write: reader of the pipe goes away, default SIGPIPE: killed by it (141), every path" {
	many
	for j in '' 1 2 2h; do
		with_jobs "$j" same_as_gnu_sh -- 'env --default-signal=PIPE md5sum $(cat names) | head -n1; echo "md5sum=${PIPESTATUS[0]} head=${PIPESTATUS[1]}"'
		gnu_stdout_is "$HA  $N200"$'\nmd5sum=141 head=0\n'
		gnu_stderr_empty
		with_jobs "$j" same_as_gnu_sh -- 'env --default-signal=PIPE md5sum -c long | head -n1; echo "md5sum=${PIPESTATUS[0]} head=${PIPESTATUS[1]}"'
		gnu_stdout_is "$N200: OK"$'\nmd5sum=141 head=0\n'
	done
}

@test "write: reader of the pipe goes away, SIGPIPE ignored: 'write error', exit 1, every path" {
	many
	for j in '' 1 2 2h; do
		with_jobs "$j" same_as_gnu_sh -- 'trap "" PIPE; md5sum $(cat names) nope | head -n1; echo "md5sum=${PIPESTATUS[0]}"'
		gnu_stdout_is "$HA  $N200"$'\nmd5sum=1\n'
		gnu_stderr_is $'md5sum: nope: No such file or directory\nmd5sum: write error\n'
		with_jobs "$j" same_as_gnu_sh -- 'trap "" PIPE; md5sum -c long | head -n1; echo "md5sum=${PIPESTATUS[0]}"'
		gnu_stdout_is "$N200: OK"$'\nmd5sum=1\n'
		gnu_stderr_is $'md5sum: write error\n'
	done
}

@test "write fault (EIO, ENOSPC, EPIPE) on stdout, injected: 'write error', exit 1, every path" {
	need_strace
	local e
	for e in EIO ENOSPC EPIPE; do
		for j in '' 2 2h; do
			with_jobs "$j" same_as_gnu_sh -- "$(fault write:error=$e '$SCRATCH/out' 'md5sum a >"$SCRATCH/out"')"
			gnu_stdout_is $'rc=1\ninjected=1\n'
			gnu_stderr_is $'md5sum: write error\n'
			# the first write only: GNU makes one per line, we may make fewer
			with_jobs "$j" same_as_gnu_sh -- "$(fault write:error=$e:when=1 '$SCRATCH/out' 'md5sum a h >"$SCRATCH/out"')"
			gnu_stdout_is $'rc=1\ninjected=1\n'
			with_jobs "$j" same_as_gnu_sh -- "$(fault write:error=$e:when=1 '$SCRATCH/out' 'md5sum -c list >"$SCRATCH/out"')"
			gnu_stdout_is $'rc=1\ninjected=1\n'
			gnu_stderr_is $'md5sum: write error\n'
		done
	done
}

@test "write fault on a later write of a long output: 'write error', exit 1 (lines lost may differ)" {
	need_strace
	# GNU writes line by line, we write up to 4 kB of whole lines at once:
	# what is lost differs, the message and the status do not.
	local snippet
	snippet=$(fault write:error=EIO:when=3 '$SCRATCH/out' 'md5sum $(seq 1000 | sed "s/.*/a/") >"$SCRATCH/out"')
	with_jobs 1 same_as_gnu_sh -- "$snippet"
	gnu_stdout_is $'rc=1\ninjected=1\n'
	gnu_stderr_is $'md5sum: write error\n'
	# With threads, whichever finishes the oldest lines writes them, and
	# strace counts each thread's writes apart: the fault may come more
	# than once.
	for j in '' 2 2h; do
		with_jobs "$j" run -0 --separate-stderr ours_sh "$snippet"
		[[ $output =~ ^rc=1$'\n'injected=[1-9][0-9]*$ ]] || fail "stdout: $output"
		assert_equal "$stderr" 'md5sum: write error'
	done
}

@test "write fault EINTR on stdout: retried, all the output is there, exit 0 (GNU gives up)" {
	need_strace
	for j in '' 2 2h; do
		with_jobs "$j" run -0 --separate-stderr ours_sh "$(fault write:error=EINTR:when=1 '$SCRATCH/out' 'md5sum a h >"$SCRATCH/out"' 'cat "$SCRATCH/out"')"
		assert_output $'rc=0\ninjected=1\n'"$HA  a"$'\n'"$HH  h"
		assert_equal "$stderr" ''
	done
	run -0 --separate-stderr gnu_sh "$(fault write:error=EINTR:when=1 '$SCRATCH/out' 'md5sum a >"$SCRATCH/out"')"
	assert_output $'rc=1\ninjected=1'
	assert_equal "$stderr" 'md5sum: write error'
}

@test "close fault on stdout: 'write error: Input/output error', exit 1" {
	need_strace
	for j in '' 2 2h; do
		with_jobs "$j" same_as_gnu_sh -- "$(fault close:error=EIO '$SCRATCH/out' 'md5sum a h >"$SCRATCH/out"' 'cat "$SCRATCH/out"')"
		gnu_stdout_is $'rc=1\ninjected=1\n'"$HA  a"$'\n'"$HH  h"$'\n'
		gnu_stderr_is $'md5sum: write error: Input/output error\n'
	done
}

# ---------------------------------------------------------------- signals

# killed_mid_pipe SIGNAL ARGS...: run md5sum ARGS (ours or GNU per $BIN)
# into a pipe that is read slowly, so that it blocks in write(2); read a
# little, kill it with SIGNAL while it is blocked, then read the rest.
# Sets $got (a file: all that came through the pipe) and $killed_rc.
killed_mid_pipe() {
	local sig=$1 pid
	shift
	rm -f fifo got
	mkfifo fifo
	exec 5<>fifo # a reader from the start, so md5sum's open does not wait
	env --default-signal=INT,TERM "$BIN" "$@" >fifo &
	pid=$!
	sleep 0.5 # the pipe fills up; md5sum blocks writing
	exec 6<fifo
	exec 5>&-
	# make room for part of a write, which md5sum makes, and blocks again
	dd bs=5000 count=2 iflag=fullblock status=none <&6 >got
	sleep 0.3
	kill "-$sig" "$pid"
	killed_rc=0
	wait "$pid" || killed_rc=$?
	timeout 10 cat <&6 >>got
	exec 6<&-
	got=$PWD/got
}

# only_whole_lines FILE REGEX [SEP]: FILE is not empty and every record in it
# (ended by SEP: newline, or NUL with -z) matches REGEX, the last one ended.
only_whole_lines() {
	local f=$1 re=$2 sep=${3:-nl} n bad
	if [[ $sep == nul ]]; then
		[[ $(tail -c 1 "$f" | od -An -c | tr -d ' ') == '\0' ]] || fail "$f does not end with NUL"
		tr '\0\n' '\n\0' <"$f" >"$f.nl"
		f=$f.nl
	fi
	n=$(wc -l <"$f")
	((n > 100)) || fail "too little output to test: $n lines"
	[[ $(tail -c 1 "$f" | od -An -c | tr -d ' ') == '\n' ]] || fail "the output ends in part of a line: $(tail -c 40 "$f" | od -An -c)"
	bad=$(grep -cvE "$re" "$f" || true)
	((bad == 0)) || fail "$bad lines are not whole: $(grep -vE "$re" "$f" | head -n 3)"
}

@test "signals: SIGTERM / SIGINT while blocked writing to a pipe leave no part of a line (every path)" {
	env --default-signal=TERM true 2>/dev/null || skip "env --default-signal unavailable"
	many
	local names
	mapfile -t names <names
	BIN=$OURS
	killed_mid_pipe TERM "${names[@]}"
	assert_equal "$killed_rc" 143
	only_whole_lines "$got" "^$HA  $N200\$"
	with_jobs 1 killed_mid_pipe INT "${names[@]}"
	assert_equal "$killed_rc" 130
	only_whole_lines "$got" "^$HA  $N200\$"
	killed_mid_pipe INT -c long
	assert_equal "$killed_rc" 130
	only_whole_lines "$got" "^$N200: OK\$"
	killed_mid_pipe TERM -z "${names[@]}"
	assert_equal "$killed_rc" 143
	only_whole_lines "$got" "^$HA  $N200\$" nul
	# GNU: the same (a line per write)
	BIN=$GNU_MD5SUM
	killed_mid_pipe TERM "${names[@]}"
	assert_equal "$killed_rc" 143
	only_whole_lines "$got" "^$HA  $N200\$"
}

@test "signals: SIGTERM / SIGINT while reading a file: the lines of files done, nothing more" {
	mkfifo slow
	exec 7<>slow # a writer that never ends: md5sum waits in read(2)
	printf 'some data' >&7
	printf '%s  a\n%s  slow\n' "$HA" "$HH" >list2
	for j in '' 1; do
		with_jobs "$j" same_as_gnu_sh -- 'md5sum a h slow >"$SCRATCH/o" & sleep 0.5; kill -TERM $!; wait $!; echo "rc=$?"; cat "$SCRATCH/o"'
		gnu_stdout_is "rc=143"$'\n'"$HA  a"$'\n'"$HH  h"$'\n'
		gnu_stderr_empty
	done
	same_as_gnu_sh -- 'env --default-signal=INT md5sum -c list2 >"$SCRATCH/o" & sleep 0.5; kill -INT $!; wait $!; echo "rc=$?"; cat "$SCRATCH/o"'
	gnu_stdout_is $'rc=130\na: OK\n'
	# one file, the plain path: nothing
	same_as_gnu_sh -- 'md5sum slow >"$SCRATCH/o" & sleep 0.5; kill -TERM $!; wait $!; echo "rc=$?"; cat "$SCRATCH/o"'
	gnu_stdout_is $'rc=143\n'
	exec 7>&-
}
