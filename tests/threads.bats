#!/usr/bin/env bats
# Threads: how many a run starts, and when.  Helper threads join the
# calling thread once the run has lasted long enough to repay them, as
# many as the CPUs the process may use (its affinity, and a cgroup's CPU
# quota), and -j N means exactly N threads.  The threads a run starts are
# counted by tracing clone(2) with strace; the files are read as on an SSD
# (MD5SUM_DISK=ssd), so that no disk reader thread is started, and are
# small, so that no read-ahead thread is either.  Whatever the threads,
# the output is GNU's.

bats_require_minimum_version 1.5.0

load diff_helper

setup() {
	diff_setup
	command -v strace >/dev/null 2>&1 || skip "strace is not installed (Debian: strace)"
	strace -qq -f -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
	export MD5SUM_DISK=ssd
	# every run here but the last is traced
	no_leak_check
	mkdir many
	# 2000 files of 4 KiB: under strace, far longer than the run waits
	# before helpers may start.
	head -c $((2000 * 4096)) /dev/urandom | (cd many && split -a 4 -d -b 4096)
	ls many/* >names
	"$GNU_MD5SUM" $(cat names) >sums
}

teardown() {
	diff_teardown
}

# threads_started ARGS...: run our md5sum ARGS on the many files under
# strace, itself run under the command in the array UNDER, if any; check
# its output; print how many threads it started, else what went wrong
# (it runs in a command substitution, where a failure fails no test: what
# it prints does).
UNDER=()
threads_started() {
	local trace=$BATS_TEST_TMPDIR/trace
	"${UNDER[@]}" strace -qq -f -o "$trace" -e trace=clone,clone3 "$OURS" "$@" $(cat names) >out ||
		{ echo "md5sum $* failed: exit $?"; return 1; }
	cmp -s out sums || { echo "md5sum $*: the output is not GNU's"; return 1; }
	sanitizer_threads "$(grep -cE '^[0-9]+ +clone3?\(' "$trace" || true)"
}

@test "threads: -j N starts exactly N - 1 helpers; -j 1 none" {
	assert_equal "$(threads_started -j 1)" 0
	assert_equal "$(threads_started -j 3)" 2
	assert_equal "$(MD5SUM_JOBS=5 threads_started)" 4
}

@test "threads: a run over a few small files starts no thread" {
	# TSan makes the run so slow that a helper would pay, by the run's own
	# measure (pace.h), under strace and a loaded machine
	[[ ${MD5SUM_SANITIZER-} == tsan ]] && skip "under TSan the run is slow enough for a helper to pay"
	local trace=$BATS_TEST_TMPDIR/trace
	run -0 strace -qq -f -o "$trace" -e trace=clone,clone3 "$OURS" many/x0000 many/x0001 many/x0002
	assert_equal "$(sanitizer_threads "$(grep -cE 'clone3?\(' "$trace")")" 0
}

@test "threads: as many as the CPUs of the affinity mask (taskset)" {
	command -v taskset >/dev/null || skip "taskset is not installed (Debian: util-linux)"
	(($(nproc) > 1)) || skip "one CPU only: nothing to compare"
	# The whole machine: helpers join, one a CPU at most.
	local n
	n=$(threads_started)
	((n >= 1 && n <= $(nproc) - 1)) || fail "$n threads started with $(nproc) CPUs"
	# One CPU: the run stays on its one thread.
	UNDER=(taskset -c 0)
	assert_equal "$(threads_started)" 0
}

@test "threads: a few large files, all claimed at once, still get a helper to take some of them" {
	command -v taskset >/dev/null || skip "taskset is not installed (Debian: util-linux)"
	(($(nproc) > 1)) || skip "one CPU only: nothing to compare"
	# Two files, far longer to hash than the run waits before helpers
	# may start: the calling thread claims both at once, and gives one.
	head -c $((48 << 20)) /dev/urandom >big1
	head -c $((48 << 20)) /dev/urandom >big2
	printf '%s\n' big1 big2 >names
	"$GNU_MD5SUM" big1 big2 >sums
	assert_equal "$(threads_started)" 1
}

@test "threads: one large file and a small one, or one CPU, get no helper" {
	command -v taskset >/dev/null || skip "taskset is not installed (Debian: util-linux)"
	(($(nproc) > 1)) || skip "one CPU only: nothing to compare"
	# As for a few small files: TSan's slowness makes a helper pay.
	[[ ${MD5SUM_SANITIZER-} == tsan ]] && skip "under TSan the run is slow enough for a helper to pay"
	head -c $((48 << 20)) /dev/urandom >big1
	head -c $((48 << 20)) /dev/urandom >big2
	# One large file and one small: nothing worth a helper to give.
	printf '%s\n' big1 many/x0000 >names
	"$GNU_MD5SUM" big1 many/x0000 >sums
	assert_equal "$(threads_started)" 0
	UNDER=(taskset -c 0)
	printf '%s\n' big1 big2 >names
	"$GNU_MD5SUM" big1 big2 >sums
	assert_equal "$(threads_started)" 0
}

# long_threads ARGS...: run our md5sum ARGS under strace, with a long file
# called long (or on standard input, the same file); check its output;
# print how many threads it started.
long_threads() {
	local trace=$BATS_TEST_TMPDIR/trace
	"${UNDER[@]}" strace -qq -f -o "$trace" -e trace=clone,clone3 "$OURS" "$@" <long >out ||
		{ echo "md5sum $* failed: exit $?"; return 1; }
	# GNU's run takes the same arguments but our -j N
	local -a gnu=()
	while (($#)); do
		if [[ $1 == -j ]]; then shift 2; else gnu+=("$1"); shift; fi
	done
	"$GNU_MD5SUM" "${gnu[@]}" <long | cmp -s - out ||
		{ echo "md5sum $*: the output is not GNU's"; return 1; }
	sanitizer_threads "$(grep -cE '^[0-9]+ +clone3?\(' "$trace" || true)"
}

@test "threads: a long input is read ahead on a second thread where a second CPU can run it, never with -j 1" {
	command -v taskset >/dev/null || skip "taskset is not installed (Debian: util-linux)"
	(($(nproc) > 1)) || skip "one CPU only: nothing to compare"
	head -c $((4 << 20)) /dev/urandom >long
	# A FILE of its own, standard input, and a file read plainly where
	# it is opened (a spinning disk's, at -j 1: no reader thread).
	assert_equal "$(long_threads long)" 1
	assert_equal "$(long_threads -)" 1
	assert_equal "$(long_threads -j 1 long)" 0
	assert_equal "$(long_threads -j 1 -)" 0
	assert_equal "$(MD5SUM_DISK=hdd long_threads -j 1 long)" 0
	UNDER=(taskset -c 0)
	assert_equal "$(long_threads long)" 0
	assert_equal "$(long_threads -)" 0
}

# cpu_quota CPUS: make a cgroup whose CPU quota is CPUS CPUs (v2's cpu.max,
# else v1's cpu controller), its directory in $GROUP; skip when this
# machine lets us make none.
cpu_quota() {
	[[ $(id -u) == 0 ]] || skip "needs root, to make a cgroup"
	if [[ -f /sys/fs/cgroup/cgroup.subtree_control ]] &&
	   grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control; then
		GROUP=/sys/fs/cgroup/md5sum-test-$$
		mkdir "$GROUP" || skip "cannot make a cgroup v2 group"
		echo "$(($1 * 100000)) 100000" >"$GROUP/cpu.max"
	elif [[ -w /sys/fs/cgroup/cpu ]]; then
		GROUP=/sys/fs/cgroup/cpu/md5sum-test-$$
		mkdir "$GROUP" || skip "cannot make a cgroup v1 cpu group"
		echo 100000 >"$GROUP/cpu.cfs_period_us"
		echo "$(($1 * 100000))" >"$GROUP/cpu.cfs_quota_us"
	else
		skip "no cgroup CPU controller to use here"
	fi
	UNDER=(bash -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$GROUP")
}

@test "threads: no more than a cgroup's CPU quota allows" {
	(($(nproc) > 1)) || skip "one CPU only: nothing to compare"
	local n
	cpu_quota 1
	n=$(threads_started)
	rmdir "$GROUP"
	assert_equal "$n" 0
	# the control: a quota of all the CPUs
	cpu_quota "$(nproc)"
	n=$(threads_started)
	rmdir "$GROUP"
	((n >= 1)) || fail "no helper started under a quota of $(nproc) CPUs"
}

@test "threads: lines of the files done come out while a long file is still hashed" {
	# Two seconds of hashing at least, on any machine this runs on.
	truncate -s 4G sparse || skip "cannot make a sparse file here"
	local j pid first
	for j in 1 2; do
		mkfifo "lines$j"
		"$OURS" -j "$j" many/x0000 many/x0001 sparse >"lines$j" &
		pid=$!
		read -r first <"lines$j"
		kill -0 "$pid" 2>/dev/null || fail "-j $j: the first line came only at the end"
		assert_equal "$first" "$(head -n 1 sums)"
		kill "$pid"
		wait "$pid" || true
	done
}
