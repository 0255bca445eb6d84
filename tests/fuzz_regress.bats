#!/usr/bin/env bats
# Regressions from fuzzing md5sum -c (fuzz/fuzz_check.c): every input that
# made the harness crash or hang is kept in fuzz/regress/ and replayed here
# against GNU md5sum, with the options its first byte stands for.

bats_require_minimum_version 1.5.0

load diff_helper

setup() {
	diff_setup
	# the harness's private directory holds these too (a, e, h are already
	# made by diff_setup)
	mkdir d
}

teardown() {
	diff_teardown
}

# replay INPUT: run md5sum -c on the list in INPUT (all but its first
# byte) with the options of the first byte (see fuzz/fuzz_check.c), ours
# and GNU's, and compare.
replay() {
	local flags opts=(-c) jobs=''
	flags=$(od -An -tu1 -N1 "$1" | tr -d ' ')
	tail -c +2 "$1" >list
	case $((flags & 3)) in
	1) opts+=(--quiet) ;;
	2) opts+=(--status) ;;
	3) opts+=(--warn) ;;
	esac
	((flags & 4)) && opts+=(--strict)
	((flags & 8)) && opts+=(--ignore-missing)
	# bit 4: the harness's lanes path, with one or (bit 5) two workers;
	# else its plain path, which md5sum -c never takes: its default here
	((flags & 16)) && jobs=$((flags & 32 ? 2 : 1))
	local -a lists=(list)
	((flags & 64)) && lists=(-)
	((flags & 128)) && lists+=("${lists[@]}")
	if [[ -n $jobs ]]; then export MD5SUM_JOBS=$jobs; else unset MD5SUM_JOBS; fi
	local rc=0
	same_as_gnu --stdin list -- "${opts[@]}" "${lists[@]}" || rc=$?
	unset MD5SUM_JOBS
	((rc == 0)) || echo "(replaying $1: MD5SUM_JOBS=${jobs:-unset} md5sum ${opts[*]} ${lists[*]})" >&2
	return "$rc"
}

@test "fuzz regressions: each input in fuzz/regress/ is handled as GNU handles it" {
	local f n=0
	for f in "$BATS_TEST_DIRNAME"/../fuzz/regress/*; do
		[[ -f $f ]] || continue
		replay "$f"
		n=$((n + 1))
	done
	((n > 0)) || fail "no inputs in fuzz/regress/"
}

# Found by the fuzzer under ASan: with worker threads, the reporting thread
# hashed a listed "-" (or passed over a bad line) and freed its name while
# the workers had not yet looked past it; they then read the freed name,
# and could take the slot again once it was filled with a later line.
# Without sanitizers the run looks right; under `make check SANITIZE=1`
# this fails within a few rounds on the old code.
@test "fuzz regression: a listed '-' and bad lines before files, two workers, many rounds" {
	local i
	{
		printf '%s  -\n' "$HE"
		for i in $(seq 100); do printf 'junk %d\n' "$i"; done
		printf '%s  a\n%s  -\n%s  h\n' "$HA" "$HE" "$HH"
	} >list
	export MD5SUM_JOBS=2
	for i in $(seq 30); do
		run -0 --separate-stderr "$OURS" -c list </dev/null
		assert_output $'-: OK\na: OK\n-: OK\nh: OK'
		[[ $stderr == *': WARNING: 100 lines are improperly formatted' ]] || fail "stderr: $stderr"
	done
	unset MD5SUM_JOBS
	same_as_gnu -- -c list
}
