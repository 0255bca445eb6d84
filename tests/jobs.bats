#!/usr/bin/env bats
# The parallel path (worker threads, SIMD lanes) against GNU md5sum: many
# files of mixed sizes with errors among them, hashed and checked with every
# lane engine this CPU runs forced in turn, at -j1, -j2 and -j8.  Output,
# messages and exit status must be those of GNU's one-by-one run.

bats_require_minimum_version 1.5.0
load diff_helper

setup() {
	diff_setup
	# Files read in lanes, whatever the machine's own disk says of itself:
	# the engines are what most of these tests are about.
	export MD5SUM_DISK=ssd
	# Files whose lengths straddle block and lane-buffer edges, so lanes
	# finish at different times; a directory, a missing file and stdin
	# among them.
	local sizes=(0 1 55 56 63 64 65 127 128 4095 4096 32767 32768 32769 65536 100000)
	local i=0 n
	mkdir files sub
	for n in "${sizes[@]}" $(shuf -i 0-102400 -n 40 --random-source=<(yes)); do
		head -c "$n" /dev/urandom >"files/f$i"
		i=$((i + 1))
	done
	ls files/* >names
	{ head -n 20 names; echo sub; echo missing; echo -; tail -n +21 names; } >args
	"$GNU_MD5SUM" $(cat names) >sums
	# A list with a mismatch, a missing file and a bad line in the middle.
	{
		head -n 10 sums
		echo "00000000000000000000000000000000  files/f3"
		echo "$HA  nowhere"
		echo "not a checksum line"
		tail -n +11 sums
	} >list
}

teardown() {
	diff_teardown
}

# engine NAME: force that engine, or skip when this CPU has none such.
engine() {
	"$OURS" --version >/dev/null
	# Two files: one alone takes the plain path and never asks for it.
	MD5SUM_ENGINE=$1 "$OURS" /dev/null /dev/null >/dev/null 2>&1 ||
		skip "no $1 engine on this machine"
	export MD5SUM_ENGINE=$1
}

# transform NAME: force md5.c's one-stream transform (MD5_TRANSFORM), or
# skip when this CPU lacks what it needs: md5.c would pick another.
transform() {
	if [[ $1 == avx512vl ]] && ! grep -qw avx512vl /proc/cpuinfo 2>/dev/null; then
		skip "no AVX-512VL on this machine"
	fi
	export MD5_TRANSFORM=$1
}

# same_for_all_jobs: hash the arguments and check the list at -j1, -j2, -j8.
same_for_all_jobs() {
	local j
	for j in 1 2 8; do
		MD5SUM_JOBS=$j same_as_gnu --stdin h -- $(cat args)
		gnu_status_is 1
		MD5SUM_JOBS=$j same_as_gnu -- -c list
		gnu_status_is 1
		MD5SUM_JOBS=$j same_as_gnu -- -c --quiet --warn list list
	done
}

@test "jobs: the fastest engine, -j1 -j2 -j8, hashing and -c" {
	same_for_all_jobs
}

@test "jobs: files read as on a spinning disk, a reader thread per disk, -j1 -j2 -j8" {
	export MD5SUM_DISK=hdd
	same_for_all_jobs
}

@test "jobs: scalar engine forced" {
	engine scalar
	same_for_all_jobs
}

@test "jobs: sse2 engine forced" {
	engine sse2
	same_for_all_jobs
}

@test "jobs: sse2x2 engine forced" {
	engine sse2x2
	same_for_all_jobs
}

@test "jobs: avx2 engine forced" {
	engine avx2
	same_for_all_jobs
}

@test "jobs: avx2x2 engine forced" {
	engine avx2x2
	same_for_all_jobs
}

@test "jobs: avx512 engine forced" {
	engine avx512
	same_for_all_jobs
}

@test "jobs: avx512x2 engine forced" {
	engine avx512x2
	same_for_all_jobs
}

@test "jobs: scalar engine, the portable transform forced" {
	engine scalar
	transform scalar
	same_for_all_jobs
}

@test "jobs: scalar engine, the AVX-512VL transform forced" {
	engine scalar
	transform avx512vl
	same_for_all_jobs
}

@test "jobs: an unknown engine is refused" {
	run -1 --separate-stderr env MD5SUM_ENGINE=nonesuch "$OURS" a b
	assert_equal "$stderr" "$OURS: MD5SUM_ENGINE: no engine 'nonesuch' on this machine"
}

@test "jobs: -j 0 and -j x are refused" {
	run -1 --separate-stderr "$OURS" -j 0 a
	assert_equal "$stderr" "$OURS: invalid number of jobs: '0'
Try '$OURS --help' for more information."
	run -1 "$OURS" --jobs=x a
}

@test "jobs: 3000 files in lanes match GNU, with -j1 and the default, and as on a spinning disk" {
	mkdir many
	for i in $(seq 1 3000); do printf '%d' "$i" >"many/$i"; done
	ls many/* >manynames
	"$GNU_MD5SUM" $(cat manynames) >want
	run -0 "$OURS" -j1 $(cat manynames)
	assert_output "$(cat want)"
	run -0 "$OURS" $(cat manynames)
	assert_output "$(cat want)"
	run -0 "$OURS" -c --quiet want
	assert_output ""
	MD5SUM_DISK=hdd run -0 "$OURS" $(cat manynames)
	assert_output "$(cat want)"
	MD5SUM_DISK=hdd run -0 "$OURS" -c --quiet want
	assert_output ""
}

@test "jobs: 300 files with only 64 descriptors allowed, as on an SSD and as on a spinning disk" {
	mkdir many
	for i in $(seq 1 300); do printf '%d' "$i" >"many/$i"; done
	ls many/* >manynames
	"$GNU_MD5SUM" $(cat manynames) >want
	local d
	for d in ssd hdd; do
		run -0 bash -c 'ulimit -n 64 && MD5SUM_DISK=$1 "$2" -j2 $(cat manynames)' _ "$d" "$OURS"
		assert_output "$(cat want)"
		run -0 bash -c 'ulimit -n 64 && MD5SUM_DISK=$1 "$2" -c --quiet want' _ "$d" "$OURS"
		assert_output ""
	done
}
