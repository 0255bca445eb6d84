#!/usr/bin/env bats
# Huge data: lengths past 2^32 bytes, checksum lists of a million lines and
# lines of 100 MB, in bounded memory.
#
# Always run: a sparse file of 2^32 + 1 bytes, through the plain path and
# the lanes path, against GNU md5sum run on it at the same time, and as
# many bytes through a pipe and a FIFO, held to the digest GNU gave for
# the file; HUGE=0 leaves the pipe and the FIFO out.
#
# Peak memory (RSS) comes from /usr/bin/time -f %M when it is there, else
# from polling VmHWM in /proc (which may miss the last few milliseconds).

bats_require_minimum_version 1.5.0

load diff_helper

setup() {
	diff_setup
}

teardown() {
	diff_teardown
}

# ours ARGS...: our md5sum, called md5sum in messages
ours() {
	PATH=$OUR_BIN:$PATH md5sum "$@"
}

# peak_kb OUTFILE ours ARGS...: run our md5sum ARGS with stdout into
# OUTFILE (stderr into OUTFILE.err); set $rss to its peak resident memory
# in KiB and $rc to its exit status, and report $rss in the TAP output.
peak_kb() {
	local out=$1 pid hwm
	shift
	local shown="md5sum ${*:2}"
	# "ours" is a function: time needs the program, found first in PATH
	[[ $1 == ours ]] && set -- env PATH="$OUR_BIN:$PATH" md5sum "${@:2}"
	rc=0
	if [[ -x /usr/bin/time ]]; then
		/usr/bin/time -f %M -o "$BATS_TEST_TMPDIR/rss" "$@" >"$out" 2>"$out.err" || rc=$?
		rss=$(tail -n 1 "$BATS_TEST_TMPDIR/rss")
	else
		"$@" >"$out" 2>"$out.err" &
		pid=$!
		rss=0
		while hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null) && [[ -n $hwm ]]; do
			((hwm > rss)) && rss=$hwm
			sleep 0.01
		done
		wait "$pid" || rc=$?
	fi
	[[ $rss =~ ^[0-9]+$ ]] || fail "no peak RSS measured: '$rss'"
	echo "# peak RSS of ours, $shown: $rss KiB" >&3
}

# bound VALUE_KB LIMIT_KB WHAT: fail unless VALUE_KB < LIMIT_KB.  Not in
# an ASan build, whose shadow memory and quarantine of freed blocks make
# its peak memory a measure of something else.
bound() {
	if grep -q __asan_init "$OURS"; then
		echo "# ASan build: $3 took $1 KiB; the bound of $2 KiB is not checked" >&3
		return 0
	fi
	(($1 < $2)) || fail "$3 took $1 KiB (limit $2 KiB)"
}

# GNU's digest of 2^32 + 1 zero bytes: the sparse file's test holds GNU to
# it each run, the pipe's holds ours.
ZEROS_2_32_1=f18c798ff5d450dfe4d3acdc12b621ff

@test "huge: a sparse file of 2^32 + 1 bytes has GNU's digest, plain path and lanes path" {
	truncate -s $((2 ** 32 + 1)) sparse || skip "cannot make a sparse file here"
	"$GNU_MD5SUM" sparse >gnu.out &
	local gnu=$!
	ours sparse >plain.out &
	local plain=$!
	MD5SUM_JOBS=1 run -0 --separate-stderr ours a sparse
	wait "$gnu"
	wait "$plain"
	assert_equal "$(<gnu.out)" "$ZEROS_2_32_1  sparse"
	assert_equal "$(<plain.out)" "$(<gnu.out)"
	assert_output "$HA  a"$'\n'"$(<gnu.out)"
	assert_equal "$stderr" ''
}

@test "huge: 2^32 + 1 bytes through a pipe and a FIFO have GNU's digest" {
	[[ ${HUGE-1} == 1 ]] || skip "HUGE=0: 4 GiB through a pipe left out"
	head -c $((2 ** 32 + 1)) /dev/zero | ours >ours.out
	assert_equal "$(<ours.out)" "$ZEROS_2_32_1  -"
	# and a named pipe among other files, read by a worker of the lanes path
	mkfifo fifo
	head -c $((2 ** 32 + 1)) /dev/zero >fifo &
	run -0 --separate-stderr ours a fifo
	assert_output "$HA  a"$'\n'"$ZEROS_2_32_1  fifo"
	assert_equal "$stderr" ''
}

@test "huge: a list of 1,000,000 lines is checked in bounded memory (no growth with lines)" {
	yes "$HE  e" | head -n 10000 >l10k
	yes "$HE  e" | head -n 1000000 >l1m
	peak_kb out10k ours -c l10k
	local small=$rss
	assert_equal "$rc" 0
	assert_equal "$(wc -l <out10k)" 10000
	peak_kb out1m ours -c l1m
	local big=$rss
	assert_equal "$rc" 0
	assert_equal "$(wc -l <out1m)" 1000000
	assert_equal "$(sort -u out1m)" "e: OK"
	[[ ! -s out1m.err ]] || fail "stderr: $(head -c 300 out1m.err)"
	bound "$big" $((8 * 1024)) "1,000,000 lines"
	bound "$big" $((2 * small + 1)) "1,000,000 lines (10,000 took $small KiB)"
	# the same with every line a failure of some kind, --quiet, eight threads
	yes "$HE  nope" | head -n 1000000 >l1m
	MD5SUM_JOBS=8 peak_kb out1m ours -c --quiet --ignore-missing l1m
	assert_equal "$rc" 1
	assert_equal "$(<out1m.err)" 'md5sum: l1m: no file was verified'
	bound "$rss" $((8 * 1024)) "1,000,000 missing files"
}

@test "huge: a list with a 100 MB improperly formatted line: memory bounded by the line, as GNU" {
	{
		head -c 100000000 /dev/zero | tr '\0' x
		printf '\n%s  a\n' "$HA"
	} >list
	peak_kb out ours -c list
	assert_equal "$rc" 0
	assert_equal "$(<out)" 'a: OK'
	bound "$rss" $((200 * 1024)) "a 100 MB line"
	same_as_gnu -- -c --warn list
	gnu_stdout_is $'a: OK\n'
	gnu_stderr_is $'md5sum: list: 1: improperly formatted MD5 checksum line\nmd5sum: WARNING: 1 line is improperly formatted\n'
}

@test "huge: a list naming a 100 MB file name: memory bounded by the line, as GNU" {
	{
		printf '%s  ' "$HA"
		head -c 100000000 /dev/zero | tr '\0' n
		printf '\n%s  a\n' "$HA"
	} >list
	peak_kb out ours -c list
	assert_equal "$rc" 1
	# the name, kept while its file is hashed, and quoted for the message
	bound "$rss" $((350 * 1024)) "a 100 MB name"
	same_as_gnu -- -c list
	gnu_status_is 1
	gnu_stderr_has ': File name too long'
	gnu_stdout_has $': FAILED open or read\na: OK\n'
}

@test "huge: a list line that does not fit in memory ends the list, as GNU's getline" {
	grep -q __asan_init "$OURS" && skip "an ASan build cannot run under ulimit -v"
	{
		printf '%s  a\n' "$HA"
		head -c 100000000 /dev/zero | tr '\0' x
		printf '\n%s  nope\n' "$HA"
	} >list
	# 100 MB of address space: not enough for getline's 128 MB buffer, nor
	# for ours; the line after it is never read
	export MD5SUM_JOBS=2
	same_as_gnu_sh -- 'ulimit -v 100000 && exec md5sum -c list'
	gnu_stdout_is $'a: OK\n'
	gnu_stderr_empty
	gnu_status_is 0
}
