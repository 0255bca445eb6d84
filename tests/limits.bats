#!/usr/bin/env bats
# Tight limits: where GNU md5sum succeeds, ours must too, with the same
# output, messages and status.  Threads, the files held open ahead of
# reading and the buffers are ours to have fewer of: few descriptors free
# (a low ulimit -n, or many inherited from a parent), a limit on address
# space (ulimit -v), on processes (ulimit -u).

bats_require_minimum_version 1.5.0

load diff_helper

HOLD_FDS=$BATS_TEST_DIRNAME/../build/tests/hold_fds

# For a snippet: close the descriptors above 2 that bats leaves open, so
# that ulimit -n counts only md5sum's own.
CLOSE_FDS='for fd in $(ls /proc/$$/fd); do ((fd > 2)) && eval "exec $fd>&-"; done 2>/dev/null;'

setup() {
	diff_setup
	mkdir f
	local i
	for i in $(seq 300); do
		head -c $((i * 37 % 9000)) /dev/urandom >"f/$i"
	done
	"$GNU_MD5SUM" f/* >list
}

teardown() {
	diff_teardown
}

# every_way SNIPPET: same_as_gnu_sh for SNIPPET with our defaults, with 8
# threads, and with files read as on a spinning disk with 8 threads.
every_way() {
	local env
	for env in '' 'MD5SUM_JOBS=8' 'MD5SUM_JOBS=8 MD5SUM_DISK=hdd'; do
		same_as_gnu_sh -- "${env:+export $env; }$1" ||
			fail "with ${env:-the defaults}"
	done
}

@test "limits: all but 12 of 1,024 descriptors inherited: hashing and -c as GNU" {
	[[ -x $HOLD_FDS ]] || fail "$HOLD_FDS is not built (make check builds it)"
	every_way "ulimit -n 1024; \"$HOLD_FDS\" 12 md5sum f/*"
	gnu_status_is 0
	every_way "ulimit -n 1024; \"$HOLD_FDS\" 12 md5sum -c list"
	gnu_status_is 0
	# two free, one of them for the list: one file at a time
	every_way "ulimit -n 1024; \"$HOLD_FDS\" 2 md5sum -c list"
	gnu_status_is 0
}

@test "limits: ulimit -n 5: -c over 300 files, and hashing them, as GNU" {
	every_way "$CLOSE_FDS ulimit -n 5; md5sum -c list"
	gnu_status_is 0
	every_way "$CLOSE_FDS ulimit -n 5; md5sum f/*"
	gnu_status_is 0
}

@test "limits: ulimit -n 16 with eight threads on a spinning disk, as GNU" {
	same_as_gnu_sh -- "$CLOSE_FDS ulimit -n 16; MD5SUM_DISK=hdd MD5SUM_JOBS=8 md5sum f/*"
	gnu_status_is 0
	same_as_gnu_sh -- "$CLOSE_FDS ulimit -n 16; MD5SUM_DISK=hdd MD5SUM_JOBS=8 md5sum -c list"
	gnu_status_is 0
}

@test "limits: ulimit -v 30000 with eight threads over 40 files of 4 MiB, as GNU" {
	not_sanitized "its shadow memory takes terabytes of address space: ulimit -v leaves it none"
	mkdir big
	head -c $((40 * 4 << 20)) /dev/urandom | (cd big && split -d -b $((4 << 20)))
	same_as_gnu_sh -- 'ulimit -v 30000; MD5SUM_JOBS=8 md5sum big/*'
	gnu_status_is 0
	same_as_gnu_sh -- 'ulimit -v 30000; md5sum big/*'
	gnu_status_is 0
}

@test "limits: a thread's stack takes little address space: 32 threads under ulimit -v 100000" {
	not_sanitized "its shadow memory takes terabytes of address space: ulimit -v leaves it none"
	command -v strace >/dev/null 2>&1 || skip "strace is not installed (Debian: strace)"
	# Stacks of the C library's default size (8 MiB of address space
	# each) would leave room for a dozen threads.
	local trace=$BATS_TEST_TMPDIR/trace
	(ulimit -v 100000 && MD5SUM_JOBS=32 MD5SUM_DISK=ssd exec strace -qq -f -o "$trace" \
		-e trace=clone,clone3 "$OURS" f/*) >out 2>err || fail "exit $?: $(<err)"
	assert_equal "$(<out)" "$(<list)"
	assert_equal "$(grep -cE 'clone3?\(.* = [0-9]+$' "$trace")" 31
}

@test "limits: ulimit -u 1: threads that cannot be had are fewer, as GNU" {
	[[ $(id -u) == 0 ]] || skip "needs root, to run as another user"
	command -v setpriv >/dev/null || skip "setpriv is not installed (Debian: util-linux)"
	# LeakSanitizer looks for leaks from a thread of its own, which the
	# limit refuses; ASan and UBSan still watch
	no_leak_check
	chmod -R a+rX "$BATS_TEST_TMPDIR"
	nobody_env list
	cp -a f "$NOBODY_W/"
	chmod -R a+rX "$NOBODY_W"
	same_as_gnu_sh --cwd "$NOBODY_W" -- "ulimit -u 1; MD5SUM_JOBS=8 $AS_NOBODY md5sum -c list"
	gnu_status_is 0
}

@test "limits: a file that cannot be opened for want of descriptors waits for one of the run's" {
	command -v strace >/dev/null 2>&1 || skip "strace is not installed (Debian: strace)"
	no_leak_check
	local trace=$BATS_TEST_TMPDIR/trace
	# EMFILE on the first two opens of f/200, while other files are held
	# open in lanes: it is opened again once they are closed, and hashed.
	MD5SUM_JOBS=1 MD5SUM_DISK=ssd strace -qq -f -o "$trace" -P f/200 \
		-e inject=openat:error=EMFILE:when=1..2 "$OURS" f/* >out 2>err || fail "exit $?: $(<err)"
	assert_equal "$(grep -c INJECTED "$trace")" 2
	assert_equal "$(grep -v '^strace: Requested path' err)" ''
	assert_equal "$(<out)" "$(<list)"
	# Held nowhere else, the open fails as GNU's does.
	same_as_gnu_sh -- 'strace -qq -o "$SCRATCH/trace" -P f/200 -e inject=openat:error=EMFILE md5sum f/200 2>&1 | grep -v "^strace: Requested path"; grep -c INJECTED "$SCRATCH/trace"'
	gnu_stdout_is $'md5sum: f/200: Too many open files\n1\n'
}

# run_limited SIDE LIMIT ARGS...: md5sum of SIDE (gnu, ours) under ulimit -v
# LIMIT (none: no limit), standard error after standard output in one file,
# as each writes them, $RES/SIDE.LIMIT; prints the exit status.
run_limited() {
	local side=$1 limit=$2 bin=$GNU_BIN
	shift 2
	[[ $side == ours ]] && bin=$OUR_BIN
	(
		[[ $limit == none ]] || ulimit -v "$limit" || exit 125
		PATH=$bin:$PATH exec md5sum "$@"
	) >"$RES/$side.$limit" 2>&1
	echo $?
}

@test "limits: out of memory at a long line of a -c list: GNU's output, or more of the work than GNU" {
	not_sanitized "its shadow memory takes terabytes of address space: ulimit -v leaves it none"
	local name i limit rc out full cut gnu_middle=0 whole=0
	# A list of small files, a line whose name is 2 MB long, and more
	# small files: where the address space is tight, the long line is
	# where memory runs out.
	name=$(head -c 2000000 /dev/zero | tr '\0' x)
	for i in 1 2 3 4 5; do echo "$i" >"s$i"; done
	"$GNU_MD5SUM" s1 s2 >long
	printf 'd41d8cd98f00b204e9800998ecf8427e  %s\n' "$name" >>long
	"$GNU_MD5SUM" s3 s4 s5 >>long
	[[ $(run_limited gnu none -c long) == 1 ]] || fail "GNU's status without a limit"
	full=$(<"$RES/gnu.none")
	# The list ended at the long line, as GNU ends it where getline fails.
	cut=$'s1: OK\ns2: OK'
	# GNU runs out of memory in one of three places, by the limit: reading
	# the long line (the list ends there, status 0), quoting its name
	# ("memory exhausted" after the lines before it), or not at all.  Ours
	# quotes with no memory, so at each limit it gives GNU's output, or
	# the whole work where GNU ran out quoting, or ends the list at the
	# long line where that line does not fit; never less than GNU.
	for ((limit = 4000; limit <= 30000; limit += 2000)); do
		rc=$(run_limited gnu "$limit" -c long)
		[[ $(<"$RES/gnu.$limit") == "$cut"$'\nmd5sum: memory exhausted' ]] &&
			gnu_middle=$((gnu_middle + 1))
		rc=$(run_limited ours "$limit" -c long)
		out=$(<"$RES/ours.$limit")
		[[ $out == "$(<"$RES/gnu.$limit")" ]] && continue
		if [[ $out == "$full" && $rc == 1 ]]; then
			[[ $(<"$RES/gnu.$limit") == "$cut"* ]] ||
				fail "ulimit -v $limit: GNU's output is not the lines before the long line: $(head -c 300 "$RES/gnu.$limit")"
			whole=$((whole + 1))
			continue
		fi
		[[ $out == "$cut" && $rc == 0 && $(<"$RES/gnu.$limit") != "$full" ]] ||
			fail "ulimit -v $limit: status $rc, neither GNU's output nor more of the work: $(head -c 300 <<<"$out")"
	done
	echo "# of 14 limits: GNU out of memory quoting the long name under $gnu_middle, where ours did the whole work under $whole" >&3
	((gnu_middle > 0)) || fail "no limit ran GNU out of memory in the middle of the list"
}
