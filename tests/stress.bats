#!/usr/bin/env bats
# Ordered output under stress: rounds of random mixes of files (0 B to a
# few MiB), names that fail to open, a directory and a FIFO, hashed and
# checked by ours with -j 1 to -j 16 and --disk=hdd|ssd|auto, and by GNU,
# their output, messages and status compared byte for byte.  make check
# runs it against the normal build and the sanitizer builds
# (tests/sanitized), where a race shows as a report, not only as lines out
# of order.
#
# The mixes come from a seed, STRESS_SEED (24 unless set), printed in the
# TAP output; STRESS_ROUNDS (16) rounds.  A failure names its seed and
# round: the same seed makes the same files, names and options again.

bats_require_minimum_version 1.5.0

load diff_helper

setup() {
	diff_setup
	SEED=${STRESS_SEED:-24}
	ROUNDS=${STRESS_ROUNDS:-16}
	RANDOM=$SEED
	echo "# stress: STRESS_SEED=$SEED STRESS_ROUNDS=$ROUNDS" >&3
	# What the files hold, the same for a seed: digests of numbers.
	seq 1 700000 >pool
	mkdir files dir
	local i n off
	for i in $(seq 0 299); do
		draw 100
		if ((R < 60)); then
			draw 300; n=$R			# around the lane block and entry sizes
		elif ((R < 90)); then
			draw 100000; n=$R		# a few lane buffers
		else
			draw 3; n=$(((R + 1) << 20))	# 1 to 3 MiB: streamed, read ahead
			draw 4096; n=$((n + R))
		fi
		draw 1000000; off=$((R + 1))
		tail -c +"$off" pool | head -c "$n" >"files/$i"
	done
	printf 'through a FIFO\n' >fifo.want
	mkfifo fifo
}

teardown() {
	diff_teardown
}

# draw N: a number from 0 to N - 1 in R, from the seeded generator (in
# the test's own shell: a subshell would draw the same number again).
draw() {
	R=$(((RANDOM << 15 | RANDOM) % $1))
}

# mix: the names of a round in NAMES: files, repeated at times, names that
# fail to open, the directory, and the FIFO once at most.
mix() {
	local k count fifo_done=0
	NAMES=()
	draw 150; count=$((R + 1))
	for ((k = 0; k < count; k++)); do
		draw 100
		if ((R < 89)); then
			draw 300; NAMES+=("files/$R")
		elif ((R < 95)); then
			NAMES+=("missing$k")
		elif ((R < 99)); then
			NAMES+=(dir)
		elif ((fifo_done == 0)); then
			NAMES+=(fifo)
			fifo_done=1
		fi
	done
}

# A snippet: md5sum ARGS, with the FIFO fed to the run when FIFO is 1
# (the first argument).
FEED='if [ "$1" = 1 ]; then timeout 60 sh -c "cat fifo.want >fifo" & fi
shift; md5sum "$@"; rc=$?; wait; exit $rc'

# fed: 1 when the round's names hold the FIFO, else 0.
fed() {
	local a
	for a in "${NAMES[@]}"; do
		[[ $a == fifo ]] && { echo 1; return; }
	done
	echo 0
}

# check_list: a list for -c from NAMES: their lines as GNU prints them
# (the FIFO's as for its content), a wrong digest at times, bad lines.
check_list() {
	local a
	: >list
	for a in "${NAMES[@]}"; do
		draw 20
		if [[ $a == fifo ]]; then
			printf '%s  fifo\n' "$("$GNU_MD5SUM" <fifo.want | cut -c1-32)" >>list
		elif ((R == 0)); then
			echo "not a checksum line $a" >>list
		elif ((R == 1)); then
			printf '%s  %s\n' 00000000000000000000000000000000 "$a" >>list
		elif [[ -f $a ]]; then
			"$GNU_MD5SUM" -- "$a" >>list
		else
			printf '%s  %s\n' "$HA" "$a" >>list
		fi
	done
}

@test "stress: random mixes, -j 1 to -j 16, every --disk, hashing and -c, as GNU" {
	local r j disk mode extra0=("${OUR_EXTRA[@]}") names=0 fifos=0
	local -a disks=(hdd ssd auto) hashing=('' --tag -z -b) checking=('' --quiet --status -w)
	for ((r = 1; r <= ROUNDS; r++)); do
		mix
		names=$((names + ${#NAMES[@]}))
		fifos=$((fifos + $(fed)))
		draw 16; j=$((R + 1))
		draw 3; disk=${disks[R]}
		# GNU itself under test (MD5SUM=/usr/bin/md5sum) takes no -j:
		# the same through the environment, which it ignores
		if [[ $OURS == "$(realpath -- "$GNU_MD5SUM")" ]]; then
			export MD5SUM_JOBS=$j MD5SUM_DISK=$disk
		else
			OUR_EXTRA=("${extra0[@]}" -j "$j" --disk="$disk")
		fi
		draw 4; mode=${hashing[R]}
		same_as_gnu_sh -- "$FEED" "$(fed)" $mode "${NAMES[@]}" ||
			fail "STRESS_SEED=$SEED round $r: -j $j --disk=$disk ${mode:-(plain)} over ${#NAMES[@]} names"
		check_list
		draw 4; mode=${checking[R]}
		same_as_gnu_sh -- "$FEED" "$(fed)" -c $mode list ||
			fail "STRESS_SEED=$SEED round $r: -j $j --disk=$disk -c ${mode:-(plain)} over ${#NAMES[@]} lines"
	done
	OUR_EXTRA=("${extra0[@]}")
	echo "# stress: $((2 * ROUNDS)) runs over $names names, $fifos rounds with the FIFO" >&3
}

# What showed that outbox.c read a name out of every entry, also out of
# a line's last bytes near the end of its buffer: a sanitizer build
# reports it (tests/sanitized), output alone never showed it.
@test "stress: 201 files of 0 to 200 bytes, -j 1 to -j 8, every --disk, hashing and -c, as GNU" {
	local i j disk extra0=("${OUR_EXTRA[@]}")
	mkdir tiny
	for i in $(seq 0 200); do
		head -c "$i" pool >"tiny/$i"
	done
	"$GNU_MD5SUM" tiny/* >list
	for j in 1 2 3 4 8; do
		for disk in ssd hdd; do
			OUR_EXTRA=("${extra0[@]}" -j "$j" --disk="$disk")
			[[ $OURS != "$(realpath -- "$GNU_MD5SUM")" ]] || OUR_EXTRA=("${extra0[@]}")
			same_as_gnu -- tiny/* || fail "-j $j --disk=$disk"
			same_as_gnu -- -c list || fail "-j $j --disk=$disk -c"
		done
	done
	OUR_EXTRA=("${extra0[@]}")
}

# Every read cut to 1000 bytes (tests/short_reads.so), no whole number of
# blocks: lanes hold partial blocks at every step, and a file handed from
# a thread that holds work to one that ran out of it (schedule.c's gifts)
# is handed with a partial block of it hashed.  Big files among many small
# ones, so that the threads' work runs out unevenly at the end.
@test "stress: reads cut short, files handed between threads mid-block, -j 1 to -j 8, as GNU" {
	local shim=$BATS_TEST_DIRNAME/../build/tests/short_reads.so j
	[[ -f $shim ]] || fail "$shim not built (make check builds it)"
	# The shim comes first in the list of libraries, before the sanitizer's.
	[[ ${MD5SUM_SANITIZER-} != asan ]] || export ASAN_OPTIONS="${ASAN_OPTIONS-}:verify_asan_link_order=0"
	mkdir cut
	for j in $(seq 0 59); do
		if ((j % 10 == 3)); then
			head -c $(((j + 1) * 40000 + j)) pool >"cut/$j"
		else
			head -c $((j * 7)) pool >"cut/$j"
		fi
	done
	"$GNU_MD5SUM" cut/* >want
	for j in 1 2 3 4 8; do
		LD_PRELOAD=$shim SHORT_READS=1000 "$OURS" -j "$j" cut/* >got ||
			fail "-j $j: exit status $?"
		cmp -s want got || fail "-j $j: digests differ from GNU's: $(diff want got | head -n 4)"
		LD_PRELOAD=$shim SHORT_READS=1000 "$OURS" -j "$j" -c --quiet want ||
			fail "-j $j -c: exit status $?"
	done
}
