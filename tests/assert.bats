#!/usr/bin/env bats
# The tests' own assertions (assert.bash): each passes when it should,
# fails when it should and then says what was expected and what came; and
# no test needs more than bats-core.

bats_require_minimum_version 1.5.0

load assert

# try STATUS OUTPUT ASSERTION...: the assertion, on what "run" leaves of a
# command that printed OUTPUT and exited with STATUS; its exit status in
# $rc, what it said in $said.
try() {
	local s=$1 o=$2
	shift 2
	rc=0
	said=$(
		status=$s output=$o lines=()
		[[ -z $o ]] || mapfile -t lines <<<"$o"
		"$@" 2>&1
	) || rc=$?
}

# passes ASSERTION... / fails MESSAGE ASSERTION...: on the result of a
# command that printed two lines, "abc" and "x1", and exited with 0.
passes() {
	try 0 $'abc\nx1' "$@"
	((rc == 0)) || fail "$* failed: $said"
	[[ -z $said ]] || fail "$* said: $said"
}
fails() {
	local want=$1
	shift
	try 0 $'abc\nx1' "$@"
	((rc == 1)) || fail "$* exited with $rc, not 1: $said"
	[[ $said == "$want" ]] || fail "$* said:"$'\n'"$said"$'\n'"not:"$'\n'"$want"
}

@test "fail: says its message, or standard input, and fails" {
	fails 'the reason' fail the reason
	fails 'from stdin' eval 'echo from stdin | fail'
}

@test "assert_equal: equal values pass; others fail, showing both" {
	passes assert_equal 'a b' 'a b'
	passes assert_equal '' ''
	fails $'-- values differ --\nexpected : b\nactual   : a\n--' assert_equal a b
	fails $'-- values differ --\nexpected : \nactual   : a\n--' assert_equal a ''
	fails $'-- values differ --\nexpected (2 lines):\n  a\n  b\nactual   : a\n--' \
		assert_equal a $'a\nb'
}

@test "assert_success: status 0 passes; another fails, showing it and the output" {
	passes assert_success
	try 1 oops assert_success
	((rc == 1)) || fail "status 1 passed"
	assert_equal "$said" $'-- command failed --\nstatus : 1\noutput : oops\n--'
	try 2 '' assert_success
	((rc == 1)) || fail "status 2 passed"
}

@test "assert_output: the whole output, or a part (--partial), or a match (--regexp)" {
	passes assert_output $'abc\nx1'
	passes assert_output --partial $'c\nx'
	passes assert_output --regexp '^abc.x[0-9]$'
	fails $'-- output differs --\nexpected : abc\nactual (2 lines):\n  abc\n  x1\n--' \
		assert_output abc
	fails $'-- output differs --\nsubstring : abd\nactual (2 lines):\n  abc\n  x1\n--' \
		assert_output --partial abd
	fails $'-- output differs --\nregexp : ^x\nactual (2 lines):\n  abc\n  x1\n--' \
		assert_output --regexp '^x'
	try 0 '' assert_output ''
	((rc == 0)) || fail "empty output is not ''"
	try 0 '' assert_output x
	((rc == 1)) || fail "empty output is x"
}

@test "refute_output: passes where assert_output fails, and the other way round" {
	passes refute_output --partial abd
	passes refute_output abc
	fails $'-- output should not match --\nsubstring : x1\noutput (2 lines):\n  abc\n  x1\n--' \
		refute_output --partial x1
	fails $'-- output should not match --\nunexpected (2 lines):\n  abc\n  x1\noutput (2 lines):\n  abc\n  x1\n--' \
		refute_output $'abc\nx1'
}

@test "assert_line: a line given by --index, or any line" {
	passes assert_line --index 1 --regexp '^x[0-9]$'
	passes assert_line --index 0 abc
	passes assert_line x1
	passes assert_line --partial b
	fails $'-- line 0 differs --\nregexp : ^x\nactual : abc\n--' \
		assert_line --index 0 --regexp '^x'
	fails $'-- line 2 differs --\nexpected : abc\nactual   : \n--' \
		assert_line --index 2 abc
	fails $'-- no line matches --\nexpected : ab\noutput (2 lines):\n  abc\n  x1\n--' \
		assert_line ab
}

@test "refute_line: no line, or not the line given, matches" {
	passes refute_line --partial 'not ok'
	passes refute_line --index 0 x1
	fails $'-- line 1 should not match --\nsubstring : x\noutput (2 lines):\n  abc\n  x1\n--' \
		refute_line --partial x
	fails $'-- line 0 should not match --\nunexpected : abc\noutput (2 lines):\n  abc\n  x1\n--' \
		refute_line --index 0 abc
}

@test "assertions fail on arguments they do not understand, whatever the output" {
	fails 'assert_output: one text to compare, not 2: abc x1' assert_output abc x1
	fails 'assert_output: one text to compare, not 0: ' assert_output
	fails 'assert_output: no --index 0 here' assert_output --index 0 abc
	fails 'assert_line: no --index x here' assert_line --index x abc
	fails 'not a valid extended regular expression: (' refute_output --regexp '('
	fails 'not a valid extended regular expression: (' refute_line --regexp '('
}

# A line that loads a library of bats: bats-support, bats-assert or any.
LOADS_LIBRARY='^[[:space:]]*(bats_load_library|load[[:space:]].*bats-(support|assert))'

@test "no test loads bats-support or bats-assert: bats-core alone runs them" {
	run grep -nE "$LOADS_LIBRARY" "$BATS_TEST_DIRNAME"/*.bats "$BATS_TEST_DIRNAME"/*.bash
	assert_equal "$status" 1
	assert_equal "$output" ''
	# The pattern finds what it is meant to find.
	printf '%s\n' 'setup() {' '	bats_load_library bats-file' 'load /usr/lib/bats/bats-assert/load' \
		'load assert' >"$BATS_TEST_TMPDIR/t.bats"
	run -0 grep -cE "$LOADS_LIBRARY" "$BATS_TEST_TMPDIR/t.bats"
	assert_output 2
}
