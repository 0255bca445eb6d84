#!/usr/bin/env bats
# Threads past the CPUs (doc/threads.md, "Past the CPUs"; pace.h): where a
# run's threads mostly wait on the storage, the default adds threads past
# the number of CPUs, up to 64, so that more requests are in flight; where
# the data is in memory and the threads are busy hashing, never more
# threads than CPUs.
#
# The storage that waits is bench/netmodel.py, the FUSE model of a network
# file system that bench/net times with: every request waits a round trip,
# requests in flight side by side, and its control file, .netmodel, counts
# the most requests in flight at once.  The threads a run creates are
# counted by tests/count_threads.so (LD_PRELOAD): its calls of
# pthread_create.  Every run's output is compared with GNU's.
#
# The model's serial lookups (bench/net's s rows) are tested on both of its
# programs: in one directory one at a time, in different directories side
# by side, and answered without a round trip once a listing brought the
# names; and md5sum -c there is GNU's.
#
# The model needs root (it is mounted as root, and niced up, as bench/net
# does), /dev/fuse, fusermount (Debian: fuse3) and a python3 with fusepy
# (Debian: python3-fusepy), or for the C model's tests
# build/bench/netmodel (make build/bench/netmodel, where pkg-config finds
# libfuse3-dev; make check-all builds it there); without them those tests
# skip, saying which.

bats_require_minimum_version 1.5.0

load assert

GNU_MD5SUM=/usr/bin/md5sum

setup() {
	OURS=${MD5SUM:-$BATS_TEST_DIRNAME/../build/md5sum}
	[[ $OURS == /* ]] || OURS=$PWD/$OURS
	[[ -x $OURS ]] || fail "binary under test not found: $OURS (make builds it)"
	SHIM=$BATS_TEST_DIRNAME/../build/tests/count_threads.so
	[[ -f $SHIM ]] || fail "$SHIM not built (make check builds it)"
	case $("$GNU_MD5SUM" --version 2>/dev/null | head -n 1) in
	'md5sum (GNU coreutils) '*) ;;
	*) skip "$GNU_MD5SUM is not GNU coreutils md5sum, the reference (Debian: coreutils)" ;;
	esac
	# The default is under test: no setting of the environment's.
	unset MD5SUM_JOBS MD5SUM_DISK
	export LC_ALL=C
	MODEL_PID='' MNT='' TMPFS='' SHM_DIR='' MODEL=py
	NETMODEL_C=$BATS_TEST_DIRNAME/../build/bench/netmodel
	cd "$BATS_TEST_TMPDIR" || return
}

# Every step is tried even when one fails, and a failure fails the test.
teardown() {
	local i rc=0

	cd "$BATS_TEST_TMPDIR" || cd / || rc=1
	if [[ -n $MNT ]] && mountpoint -q "$MNT"; then
		for ((i = 0; i < 50; i++)); do
			fusermount -u "$MNT" 2>/dev/null && break
			sleep 0.1
		done
		mountpoint -q "$MNT" && { fusermount -uz "$MNT"; rc=1; }
	fi
	if [[ -n $MODEL_PID ]]; then
		for ((i = 0; i < 50; i++)); do
			kill -0 "$MODEL_PID" 2>/dev/null || break
			sleep 0.1
		done
		kill "$MODEL_PID" 2>/dev/null || true
		wait "$MODEL_PID" 2>/dev/null || true
	fi
	if [[ -n $TMPFS ]]; then
		umount "$TMPFS" || rc=1
	fi
	if [[ -n $SHM_DIR ]]; then
		rm -rf "$SHM_DIR" || rc=1
	fi
	return "$rc"
}

# need COMMAND PACKAGE
need() {
	command -v "$1" >/dev/null || skip "no $1 (Debian package $2)"
}

# small_files DIR N: N files of 4 KiB of their own bytes in DIR, a
# tmpfs (mounted here as root, else /dev/shm's); NAMES: their names.
small_files() {
	local out

	mkdir "$1"
	if ((EUID == 0)) && out=$(mount -t tmpfs -o size=64m tmpfs "$1" 2>&1); then
		TMPFS=$BATS_TEST_TMPDIR/$1
	elif [[ $(stat -f -c %T /dev/shm 2>/dev/null) == tmpfs ]]; then
		rmdir "$1"
		SHM_DIR=$(mktemp -d /dev/shm/md5sum-net-test.XXXXXX)
		ln -s "$SHM_DIR" "$1"
	else
		skip "no tmpfs: cannot mount one${out:+ ($out)}, and /dev/shm is not one"
	fi
	head -c $(($2 * 4096)) /dev/urandom | (cd "$1" && split -a 4 -d -b 4096)
	mapfile -t NAMES < <(cd "$1" && ls)
	((${#NAMES[@]} == $2)) || fail "made ${#NAMES[@]} files, not $2"
}

# need_model: what the network model needs (MODEL: py, bench/netmodel.py,
# or c, build/bench/netmodel), else skip; MODEL_PY: the python3 that has
# fusepy (Debian's /usr/bin/python3 may not be the first on PATH).
need_model() {
	((EUID == 0)) || skip "needs root (mounts the network model, niced up)"
	[[ -c /dev/fuse ]] || skip "no /dev/fuse"
	need fusermount fuse3
	need mountpoint util-linux
	if [[ $MODEL == c ]]; then
		[[ -x $NETMODEL_C ]] ||
			skip "build/bench/netmodel not built (make build/bench/netmodel: libfuse3-dev, pkg-config)"
		return 0
	fi
	for MODEL_PY in /usr/bin/python3 python3; do
		"$MODEL_PY" -c 'import fusepy; fusepy.FUSE' 2>/dev/null && return 0
		"$MODEL_PY" -c 'import fuse; fuse.FUSE' 2>/dev/null && return 0
	done
	skip "no python3 with fusepy (Debian: python3-fusepy)"
}

# model_up SOURCE [OPTION...]: the model (MODEL) serves SOURCE on mnt,
# $MNT, at a round trip of 0 until set (net_set), with the OPTIONs.
model_up() {
	local i src=$1 cmd=("$NETMODEL_C")

	shift
	need_model
	[[ $MODEL == c ]] || cmd=("$MODEL_PY" "$BATS_TEST_DIRNAME/../bench/netmodel.py")
	mkdir mnt
	# Niced up, as bench/net runs it: the server is another machine,
	# which the client's busy CPUs do not slow.
	nice -n -10 "${cmd[@]}" --rtt-ms 0 "$@" "$src" mnt 2>model.log &
	MODEL_PID=$!
	MNT=$BATS_TEST_TMPDIR/mnt
	for ((i = 0; i < 200; i++)); do
		mountpoint -q mnt && return 0
		kill -0 "$MODEL_PID" 2>/dev/null || break
		sleep 0.05
	done
	skip "the network model did not mount: $(tr '\n' ' ' <model.log)"
}

# net_set WORDS...: write WORDS to the model's control file (rtt_ms=MS,
# reset: the counters zeroed).
net_set() {
	echo "$*" >"$MNT/.netmodel" || fail "cannot write $MNT/.netmodel"
}

# net_count KEY: a counter of the model's (a kind of request it has not
# counted is 0: it lists only those it has).
net_count() {
	local kinds="access fgetattr getattr open opendir read readdir readlink statfs"

	awk -v k="$1" -v kinds=" $kinds " '$1 == k { print $2; found = 1 }
		END { if (!found && index(kinds, " " k " ")) { print 0; found = 1 }; exit !found }' \
		"$MNT/.netmodel" || fail "no $1 in $MNT/.netmodel"
}

# in_mnt NAME CMD...: run CMD, as "md5sum", on $NAMES in the mount,
# named from outside it (mnt/NAME: the mount's root is never looked up
# again, whereas a process whose working directory is in the mount has
# the model asked about its root, twice at once, as it starts and ends,
# requests in flight that are no thread's of md5sum); its output in
# NAME.out, NAME.err, its status in NAME.rc.
in_mnt() {
	local name=$1 rc=0

	shift
	(exec -a md5sum "$@" "${NAMES[@]/#/mnt/}") >"$name.out" 2>"$name.err" || rc=$?
	echo "$rc" >"$name.rc"
}

# same_as_gnu NAME: NAME's output and status are GNU's (gnu.*), byte for
# byte.
same_as_gnu() {
	local f
	for f in out err rc; do
		cmp -s "gnu.$f" "$1.$f" ||
			fail "$1: its std$f differs from GNU's: $(diff "gnu.$f" "$1.$f" | head -n 6)"
	done
}

# timed_run NAME CMD...: in_mnt NAME CMD... with the model at a round
# trip of 2 ms and its counters zeroed just before: INFLIGHT, the most
# requests in flight during the run, and MS, its wall time.
timed_run() {
	local name=$1 t0 t1

	shift
	net_set rtt_ms=2 reset
	t0=$EPOCHREALTIME
	in_mnt "$name" "$@"
	t1=$EPOCHREALTIME
	INFLIGHT=$(net_count max_inflight)
	MS=$(((${t1/./} - ${t0/./}) / 1000))
}

@test "network model: the default has more requests in flight than CPUs, and GNU's output" {
	local cpus default_inflight default_ms

	cpus=$(nproc)
	need_model
	small_files src 300
	model_up "$BATS_TEST_TMPDIR/src"
	# Every name looked up once, free, as bench/net does: a FUSE mount
	# looks up a name it has never seen one at a time in a directory,
	# under the directory's lock, which a network file system does not;
	# a name seen once is looked up again (entry_timeout=0) at every
	# open, at a round trip, side by side.  GNU's run, at a round trip
	# of 0, is the reference.
	stat --printf= -- "${NAMES[@]/#/mnt/}"
	net_set rtt_ms=0
	in_mnt gnu "$GNU_MD5SUM"
	assert_equal "$(cat gnu.rc)" 0
	assert_equal "$(wc -l <gnu.out)" 300

	timed_run default "$OURS"
	default_inflight=$INFLIGHT default_ms=$MS
	same_as_gnu default
	# The control: two threads have two requests in flight at most (each
	# waits for its own, one at a time: no read-ahead thread for files
	# of 4 KiB), and the lister one more (it reads one directory at a
	# time, on network storage: run/lister.h), so the assertion on the
	# default below can fail.
	timed_run j2 "$OURS" -j2
	same_as_gnu j2
	echo "# 300 files of 4 KiB, rtt 2 ms, $cpus CPUs: most requests in flight" \
		"default $default_inflight ($default_ms ms), -j2 $INFLIGHT ($MS ms)" >&3
	((INFLIGHT <= 2 + 1)) ||
		fail "-j2 had $INFLIGHT requests in flight at once: more than its threads and the lister ask, so the count cannot tell threads past the CPUs"
	((default_inflight > cpus + 1)) ||
		fail "the default had $default_inflight requests in flight at most, with $cpus CPUs" \
			"($default_ms ms; -j2: $INFLIGHT in flight, $MS ms): no thread past the CPUs"
}

@test "network model: -c steps past 32 threads as names do, though the list tells its length only at its end" {
	local n=1000

	need_model
	small_files src $n
	model_up "$BATS_TEST_TMPDIR/src"
	stat --printf= -- "${NAMES[@]/#/mnt/}"
	net_set rtt_ms=0
	"$GNU_MD5SUM" "${NAMES[@]/#/mnt/}" >list || fail "GNU could not hash the files"
	(exec -a md5sum "$GNU_MD5SUM" -c --quiet list) >gnu.out 2>gnu.err
	echo $? >gnu.rc
	# The jobs of a list are known only once it is read to its end: the
	# pace's count of jobs handed out must then be of that moment (it
	# once took the count known at the start, none, and the jobs left
	# from it overflowed: the steps stopped at 32 threads).
	# Threads created, counted by count_threads.so (LD_PRELOAD): the
	# steps (1, 2, 8, 32, 64 threads) do not stop at 32.
	net_set rtt_ms=2 reset
	(COUNT_THREADS=$BATS_TEST_TMPDIR/count LD_PRELOAD=$SHIM exec -a md5sum "$OURS" -c --quiet list) \
		>default.out 2>default.err
	echo $? >default.rc
	INFLIGHT=$(net_count max_inflight)
	same_as_gnu default
	[[ -s count ]] || fail "count_threads.so wrote no count"
	echo "# -c over $n files of 4 KiB, rtt 2 ms: threads created $(<count)," \
		"most requests in flight $INFLIGHT" >&3
	(($(<count) > 32)) ||
		fail "the default -c created $(<count) threads ($INFLIGHT requests in flight at most): its steps stopped at 32 threads or before"
}

@test "page cache: the default starts no more threads than CPUs" {
	local cpus i n counts=() t=$BATS_TEST_TMPDIR

	cpus=$(nproc)
	small_files src 3000
	cd src || return
	"$GNU_MD5SUM" "${NAMES[@]}" >"$t/gnu.out"	# read once: warm, as tmpfs is anyway
	# Every thread that a run over files in memory creates is a helper
	# that hashes, as many as the CPUs less the calling thread at most
	# (pace.h): files of 4 KiB fill no read buffer, so no read-ahead
	# thread starts (stream.c); without --progress no thread draws; and
	# at the usual stack limit (under 256 KiB the command would run on a
	# thread of its own, md5sum.c) there is no other.  The threads past
	# the CPUs start only while the threads wait on the storage, which
	# they do not here: a machine whose CPUs are busy with other work
	# makes them wait for a CPU, not give it up.  So the bound is no
	# thread past the CPUs, the calling one included: CPUs - 1 created.
	# 10 runs: the pace is measured afresh in each.
	for ((i = 0; i < 10; i++)); do
		rm -f "$t/count"
		COUNT_THREADS=$t/count LD_PRELOAD=$SHIM "$OURS" "${NAMES[@]}" >"$t/ours.out" ||
			fail "run $i: exit status $?"
		cmp -s "$t/gnu.out" "$t/ours.out" || fail "run $i: the output is not GNU's"
		[[ -s $t/count ]] || fail "run $i: count_threads.so wrote no count"
		n=$(<"$t/count")
		counts+=("$n")
		((n <= cpus - 1)) ||
			fail "run $i created $n threads with $cpus CPUs (runs so far: ${counts[*]}): past the CPUs"
	done
	echo "# 3,000 files of 4 KiB in memory, $cpus CPUs: threads created in 10 runs: ${counts[*]}" >&3
	# The control: the shim does count the threads.
	rm -f "$t/count"
	COUNT_THREADS=$t/count LD_PRELOAD=$SHIM "$OURS" -j8 "${NAMES[@]}" >"$t/ours.out"
	cmp -s "$t/gnu.out" "$t/ours.out" || fail "-j8: the output is not GNU's"
	[[ -s $t/count ]] || fail "-j8: count_threads.so wrote no count"
	n=$(<"$t/count")
	((n >= 7)) || fail "-j8 created $n threads, counted by count_threads.so: not the 7 helpers it has"
}

# at_least KEY N: the model's counter KEY is N or more.
at_least() {
	local v

	v=$(net_count "$1")
	((v >= $2)) || fail "$1 is $v, not $2 or more: $(tr '\n' ' ' <"$MNT/.netmodel")"
}

# dirs_of_files N M: N directories d0 ... of M files of 4 KiB each in src,
# on a tmpfs (small_files); IN[D]: the names of dD's files, apart by spaces.
dirs_of_files() {
	local d

	small_files src $(($1 * $2))
	IN=()
	for ((d = 0; d < $1; d++)); do
		mkdir "src/d$d"
		(cd src && mv -- "${NAMES[@]:d * $2:$2}" "d$d/")
		IN[d]="${NAMES[*]:d * $2:$2}"
	done
}

# in_dir D: the paths of dD's files in the mount, one a line: named, not
# globbed (a glob in the mount would list the directory).
in_dir() {
	local n

	for n in ${IN[$1]}; do
		echo "mnt/d$1/$n"
	done
}

# stat_side_by_side D...: stat dD's files in a process of its own for each
# D (four times over, so that they overlap), all at once; fail if one fails.
stat_side_by_side() {
	local pids=() pid rc=0 d

	for d in "$@"; do
		mapfile -t paths < <(in_dir "$d")
		(for ((i = 0; i < 4; i++)); do stat --printf= -- "${paths[@]}" || exit 1; done) &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do
		wait "$pid" || rc=1
	done
	((rc == 0)) || fail "a stat in the mount failed"
}

# serial_one_at_a_time: the model (MODEL) serves lookups in one directory
# one at a time in serial mode, and lookups of different directories side
# by side; parallel mode, the control, side by side in one directory.
serial_one_at_a_time() {
	local inflight_par dir_par

	dirs_of_files 4 10
	model_up "$BATS_TEST_TMPDIR/src"
	# Every name seen once, free: the kernel then checks a name again
	# without its directory's lock (entry_timeout=0), so that the one at
	# a time is the model's own, not the kernel's.  Nothing is kept
	# (cache_s 0 in parallel mode): each lookup a round trip.
	stat --printf= -- $(in_dir 0) $(in_dir 1) $(in_dir 2) $(in_dir 3)
	net_set rtt_ms=5 reset
	# Control: four processes, in one directory, with parallel lookups.
	stat_side_by_side 0 0 0 0
	dir_par=$(net_count max_dir_lookups) inflight_par=$(net_count max_inflight)
	((dir_par > 1)) ||
		fail "parallel lookups: at most $dir_par in one directory at once: the control cannot tell one at a time"
	net_set lookups=serial reset
	stat_side_by_side 0 0 0 0
	assert_equal "$(net_count max_dir_lookups)" 1
	assert_equal "$(net_count lookups_listed)" 0
	assert_equal "$(net_count lookups_cached)" 0
	# Each a round trip (and d0 itself looked up again for each path).
	at_least getattr $((4 * 4 * 10))
	# Four directories, a process each: side by side, one at a time in each.
	net_set reset
	stat_side_by_side 0 1 2 3
	assert_equal "$(net_count max_dir_lookups)" 1
	echo "# $MODEL model, lookups in flight at once: parallel, one directory $dir_par (all requests $inflight_par);" \
		"serial, four directories $(net_count max_inflight)" >&3
	(($(net_count max_inflight) > 1)) ||
		fail "serial lookups in four directories: $(net_count max_inflight) in flight at once, not side by side"
}

# listing_answers_lookups: in serial mode, a listing's attributes answer
# the lookups of its names without a round trip, and md5sum -c there is
# GNU's; a name looked up once is answered so again; cache_s=0, the
# control, keeps nothing.
listing_answers_lookups() {
	local n=20

	dirs_of_files 3 $n
	(cd src/d1 && "$GNU_MD5SUM" -- *) >list || fail "GNU could not hash the files"
	model_up "$BATS_TEST_TMPDIR/src" --lookups serial
	net_set rtt_ms=1 reset
	# No listing: a round trip a lookup (and one for d0 itself); the
	# kernel may ask again at once (attr_timeout=0), answered from what
	# the lookup brought; and so is every lookup after.
	stat --printf= -- $(in_dir 0)
	at_least getattr $n
	assert_equal "$(net_count lookups_listed)" 0
	net_set reset
	stat --printf= -- $(in_dir 0)
	assert_equal "$(net_count getattr)" 0
	at_least lookups_cached $n
	# A listing, then lookups: none a round trip.
	ls -f mnt/d1 >/dev/null || fail "cannot list mnt/d1"
	net_set reset
	stat --printf= -- $(in_dir 1)
	assert_equal "$(net_count getattr)" 0
	at_least lookups_listed $n
	# md5sum -c in the listed directory: GNU's output, every lookup
	# answered from the listing, and the same counters as GNU's run.
	(cd mnt/d1 && exec -a md5sum "$GNU_MD5SUM" -c ../../list) >gnu.out 2>gnu.err
	echo $? >gnu.rc
	net_set reset
	(cd mnt/d1 && exec -a md5sum "$OURS" -c ../../list) >ours.out 2>ours.err
	echo $? >ours.rc
	same_as_gnu ours
	assert_equal "$(wc -l <ours.out)" $n
	at_least lookups_listed $n
	# None of the files a round trip (the mount's root, the working
	# directory's, may be asked about as the processes start and end).
	(($(net_count getattr) < n / 4)) ||
		fail "md5sum -c after a listing: $(net_count getattr) lookups with a round trip, $n names"
	# Control: nothing kept, a listing changes nothing.
	net_set cache_s=0
	ls -f mnt/d2 >/dev/null || fail "cannot list mnt/d2"
	net_set reset
	stat --printf= -- $(in_dir 2)
	at_least getattr $n
	assert_equal "$(net_count lookups_listed)" 0
	assert_equal "$(net_count lookups_cached)" 0
}

@test "network model (Python): serial lookups one at a time in a directory, side by side across directories" {
	MODEL=py
	serial_one_at_a_time
}

@test "network model (C): serial lookups one at a time in a directory, side by side across directories" {
	MODEL=c
	serial_one_at_a_time
}

@test "network model (Python): a listing's attributes answer lookups without a round trip; -c there is GNU's" {
	MODEL=py
	listing_answers_lookups
}

@test "network model (C): a listing's attributes answer lookups without a round trip; -c there is GNU's" {
	MODEL=c
	listing_answers_lookups
}

# check_in NAME LIST [CMD...]: run CMD (ours, by default) as "md5sum -c
# LIST" from here, where mnt is the mount; its output in NAME.*.
check_in() {
	local name=$1 list=$2 rc=0

	shift 2
	(($#)) || set -- "$OURS"
	(exec -a md5sum "$@" -c "$list") >"$name.out" 2>"$name.err" || rc=$?
	echo "$rc" >"$name.rc"
}

# reference_of LIST: GNU's output of -c LIST, run on the source through a
# link named mnt (so the names are the same), into gnu.*: no lookup of
# the model's made.
reference_of() {
	local rc=0

	(cd ref && exec -a md5sum "$GNU_MD5SUM" -c "../$1") >gnu.out 2>gnu.err || rc=$?
	echo "$rc" >gnu.rc
}

# lister_reads_ahead: with serial lookups, md5sum -c over a list of one
# directory's names reads that directory ahead (run/lister.h), so that
# most of its lookups are answered from the listing, not a round trip
# each, and its output is GNU's; the workers wait for the listing rather
# than queue their lookups among its requests, so that fewer than one in
# ten of the names costs a round trip (before they waited, 31-48 of 200
# did).  Control: GNU's md5sum -c, which lists
# nothing, has none answered so.  A directory that cannot be read
# (opendir refused, as for search permission only: deny_lister.so)
# changes nothing but the listing: GNU's output, nothing listed; nor does
# a lister whose thread cannot be started (-j1, so that only the lister
# asks for a thread, and deny_lister.so refuses it).
lister_reads_ahead() {
	local n=200 d

	dirs_of_files 4 $n
	mkdir ref && ln -s ../src ref/mnt
	for d in 0 1 2 3; do
		(cd ref && "$GNU_MD5SUM" -- $(in_dir $d)) >list$d || fail "GNU could not hash d$d"
	done
	model_up "$BATS_TEST_TMPDIR/src" --lookups serial
	# Control: GNU, no listing, a round trip a name.
	reference_of list1
	net_set rtt_ms=1 reset
	check_in gnu1 list1 "$GNU_MD5SUM"
	same_as_gnu gnu1
	assert_equal "$(net_count lookups_listed)" 0
	assert_equal "$(net_count readdir)" 0
	at_least getattr $n
	# Ours: the directory listed, most lookups answered from it.
	reference_of list0
	net_set reset
	check_in ours list0
	same_as_gnu ours
	at_least readdir 1
	at_least lookups_listed $((n / 2))
	echo "# $MODEL model, $n names of one directory at 1 ms: GNU's -c $n lookups listed of 0;" \
		"ours $(net_count lookups_listed), $(net_count getattr) with a round trip" >&3
	(($(net_count getattr) < n / 10)) ||
		fail "md5sum -c: $(net_count getattr) lookups with a round trip of $n names, listed $(net_count lookups_listed)"
	# A directory that cannot be read: as GNU, nothing listed.
	[[ -f $DENY ]] || fail "$DENY not built (make check builds it)"
	reference_of list2
	net_set reset
	# ASan's runtime wants to be the first library loaded; preloaded
	# before it, the shim is, and does not use ASan.
	[[ ${MD5SUM_SANITIZER:-} != asan ]] || export ASAN_OPTIONS=$ASAN_OPTIONS:verify_asan_link_order=0
	DENY_OPENDIR=mnt/ DENY_OPENDIR_LOG=$BATS_TEST_TMPDIR/denied LD_PRELOAD=$DENY check_in denied list2
	same_as_gnu denied
	grep -qx mnt/d2 denied || fail "the lister did not try to read mnt/d2: $(cat denied 2>/dev/null)"
	assert_equal "$(net_count lookups_listed)" 0
	assert_equal "$(net_count readdir)" 0
	# No thread for the lister: as GNU, nothing listed.
	reference_of list3
	net_set reset
	DENY_THREADS=1 DENY_OPENDIR_LOG=$BATS_TEST_TMPDIR/refused LD_PRELOAD=$DENY \
		check_in nothread list3 "$OURS" -j1
	same_as_gnu nothread
	grep -qx thread refused || fail "the lister did not ask for a thread: $(cat refused 2>/dev/null)"
	assert_equal "$(net_count lookups_listed)" 0
	assert_equal "$(net_count readdir)" 0
}

@test "network model (Python): -c reads a directory ahead of its serial lookups, GNU's output; one it cannot read, or no thread, changes nothing" {
	MODEL=py
	DENY=$BATS_TEST_DIRNAME/../build/tests/deny_lister.so
	lister_reads_ahead
}

@test "network model (C): -c reads a directory ahead of its serial lookups, GNU's output; one it cannot read, or no thread, changes nothing" {
	MODEL=c
	DENY=$BATS_TEST_DIRNAME/../build/tests/deny_lister.so
	lister_reads_ahead
}
