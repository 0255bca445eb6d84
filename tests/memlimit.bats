#!/usr/bin/env bats
# Under a limit on address space (ulimit -v), ours against GNU: a sweep of
# limits over inputs that need memory (names of 1, 8 and 40 MiB in a list,
# a long name of control bytes, /dev/zero as a list, many lines, many
# files, long names on many lines, and -j8 where GNU has one way).  For
# each limit and input, ours prints what GNU prints (stdout, stderr, exit
# status), or GNU fails too: GNU's output under the limit is not its
# output under the sweep's largest limit, the reference.  Then ours may
# fail as well, as GNU or otherwise, or do the whole work, but never die
# by a signal.  Threads, their stacks and buffers
# are ours alone: where they cannot be had, ours must still do GNU's work.
#
# MEMLIMIT_SWEEP (KiB, space-separated, the last the reference) narrows
# the sweep.  Each run's counts go to fd 3.

bats_require_minimum_version 1.5.0

load diff_helper

LIMITS=${MEMLIMIT_SWEEP:-"3000 3500 4000 5000 6000 7000 8000 9000 10000 12000 14000 16000 20000 24000 32000 48000 64000 96000 128000 200000"}

setup() {
	diff_setup
	not_sanitized "its shadow memory takes terabytes of address space: ulimit -v leaves it none"
}

# list_of_name NAME_BYTES: a list of f, a file of that name, f.
list_of_name() {
	python3 -c '
import sys
D = b"d41d8cd98f00b204e9800998ecf8427e"
sys.stdout.buffer.write(D + b"  f\n" + D + b"  " + eval(sys.argv[1]) + b"\n" + D + b"  f\n")' "$1"
}

make_inputs() {
	: >f
	list_of_name "b'a' * (1 << 20)" >name1
	list_of_name "b'a' * (8 << 20)" >name8
	list_of_name "b'a' * (40 << 20)" >name40
	list_of_name "b'a\\x01' * (1 << 19)" >quote1
	mkdir d
	for i in $(seq 1000); do printf '%s\n' "$i" >"d/$i"; done
	"$GNU_MD5SUM" d/* >files.md5
	for _ in $(seq 30); do cat files.md5; done >many.md5
	python3 -c '
import sys
for i in range(300):
    sys.stdout.buffer.write(b"d41d8cd98f00b204e9800998ecf8427e  " + bytes([97 + i % 26, 1, 27, 91]) * 1500 + b"\n")' >longs.md5
}

# The inputs: a label, then the command; $J is -j8 for ours, nothing for
# GNU, which has no -j.
CASES=(
	"name of 1 MiB" 'md5sum -c name1'
	"name of 8 MiB" 'md5sum -c name8'
	"name of 40 MiB" 'md5sum -c name40'
	"name of 8 MiB, -j8" 'md5sum $J -c name8'
	"1 MiB of a and control bytes" 'md5sum -c quote1'
	"/dev/zero, then a list" 'md5sum -c /dev/zero name1'
	"30,000 lines" 'md5sum -c many.md5'
	"30,000 lines, -j8" 'md5sum $J -c many.md5'
	"1,000 files" 'md5sum d/*'
	"1,000 files, -j8" 'md5sum $J d/*'
	"300 names of 6,000 control bytes" 'md5sum -c longs.md5'
	"300 names of 6,000 control bytes, -j8" 'md5sum $J -c longs.md5'
)

# run_under BIN LIMIT J CMD OUT: CMD with md5sum from BIN under ulimit -v
# LIMIT, its stdout, stderr and status in OUT.{out,err,rc}.
run_under() {
	local rc=0
	PATH=$1:$_DIFF_PATH0 J=$3 bash -c "ulimit -v $2 || exit 99; eval \"exec $4\"" \
		>"$5.out" 2>"$5.err" </dev/null || rc=$?
	echo "$rc" >"$5.rc"
}

same_run() {
	cmp -s "$1.out" "$2.out" && cmp -s "$1.err" "$2.err" && cmp -s "$1.rc" "$2.rc"
}

@test "memlimit: under each ulimit -v of the sweep, every input prints what GNU prints, or GNU fails too" {
	make_inputs
	local ref=${LIMITS##* } i v label cmd rc
	local runs=0 equal=0 alike=0 whole=0 other=0 bad=0
	for ((i = 0; i < ${#CASES[@]}; i += 2)); do
		label=${CASES[i]} cmd=${CASES[i + 1]}
		run_under "$GNU_BIN" "$ref" "" "$cmd" "$RES/ref"
		for v in $LIMITS; do
			runs=$((runs + 1))
			run_under "$GNU_BIN" "$v" "" "$cmd" "$RES/gnu"
			run_under "$OUR_BIN" "$v" -j8 "$cmd" "$RES/ours"
			rc=$(cat "$RES/ours.rc")
			if same_run "$RES/gnu" "$RES/ref"; then
				# GNU did its work: so must ours, as GNU did it.
				if same_run "$RES/gnu" "$RES/ours"; then
					equal=$((equal + 1))
					continue
				fi
				bad=$((bad + 1))
				echo "# $label, ulimit -v $v: ours (exit $rc) is not GNU's (exit $(cat "$RES/gnu.rc"))" >&3
				echo "#   ours: $(head -c 300 "$RES/ours.err" | tr -c '[:print:]\n' '?' | head -n 3)" >&3
			elif same_run "$RES/gnu" "$RES/ours"; then
				alike=$((alike + 1))
			elif same_run "$RES/ref" "$RES/ours"; then
				whole=$((whole + 1))
			elif ((rc < 128)); then
				other=$((other + 1))
				echo "# $label, ulimit -v $v: GNU fails (exit $(cat "$RES/gnu.rc"): $(head -c 60 "$RES/gnu.err" | tr -c '[:print:]' '?')), ours otherwise (exit $rc: $(head -c 60 "$RES/ours.err" | tr -c '[:print:]' '?'))" >&3
			else
				bad=$((bad + 1))
				echo "# $label, ulimit -v $v: ours killed by signal $((rc - 128))" >&3
			fi
		done
	done
	echo "# $((${#CASES[@]} / 2)) inputs x $(wc -w <<<"$LIMITS") limits = $runs runs; GNU does its work in $((equal + bad)): ours as GNU in $equal, otherwise in $bad; GNU fails in $((alike + whole + other)): ours fails alike in $alike, does the whole work in $whole, fails otherwise in $other" >&3
	((bad == 0)) || fail "$bad of $runs runs differ from GNU where GNU did not fail"
}

@test "memlimit: a 1 MiB name of control bytes is quoted as GNU quotes it, with no limit and under ulimit -v 12000" {
	list_of_name "b'a\\x01' * (1 << 19)" >quote1
	: >f
	same_as_gnu -- md5sum -c quote1
	gnu_status_is 1
	same_as_gnu_sh -- 'ulimit -v 12000; exec md5sum -c quote1'
	gnu_stderr_has "'a'\$'\\001''a'"
}

@test "memlimit: out of memory reading a list is its end, and the next list is checked, as GNU" {
	printf '%s  f\n' "$HE" >list3
	: >f
	same_as_gnu_sh -- 'ulimit -v 60000; exec md5sum -c /dev/zero list3'
	gnu_stdout_is $'f: OK\n'
	gnu_stderr_is $'md5sum: /dev/zero: no properly formatted checksum lines found\n'
	gnu_status_is 1
}
