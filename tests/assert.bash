# assert.bash - the assertions the tests use, so that they need bats-core
# alone: bats-support and bats-assert, where these names come from, are
# packages of their own.  Each means what bats-assert's does in the forms
# used here, and fails, as bats-assert's does, saying on standard error
# what was expected and what came.
#
# Load from a .bats file with:   load assert

# fail [MESSAGE...]: fail the test, saying MESSAGE, else standard input.
fail() {
	if (($#)); then
		printf '%s\n' "$*" >&2
	else
		cat >&2
	fi
	return 1
}

# assert_equal ACTUAL EXPECTED
assert_equal() {
	[[ $1 == "$2" ]] || _assert_show 'values differ' expected "$2" actual "$1"
}

# assert_success: the command that "run" ran exited with 0.
assert_success() {
	[[ ${status-} == 0 ]] || _assert_show 'command failed' status "$status" output "$output"
}

# assert_output [--partial | --regexp] TEXT: the output of "run" is TEXT,
# holds it, or matches it as an extended regular expression.
assert_output() {
	local mode key text
	_assert_args "$@" || return
	_assert_matches "$mode" "$output" "$text" ||
		_assert_show 'output differs' "$key" "$text" actual "$output"
}

# refute_output [--partial | --regexp] TEXT: the opposite.
refute_output() {
	local mode key=unexpected text
	_assert_args "$@" || return
	if _assert_matches "$mode" "$output" "$text"; then
		_assert_show 'output should not match' "$key" "$text" output "$output"
	fi
}

# assert_line [--index N] [--partial | --regexp] TEXT: line N of the
# output of "run" (counted from 0), else any of its lines, is TEXT, holds
# it, or matches it.
assert_line() {
	local mode key text index=-1 line
	_assert_args "$@" || return
	if ((index >= 0)); then
		_assert_matches "$mode" "${lines[index]-}" "$text" ||
			_assert_show "line $index differs" "$key" "$text" actual "${lines[index]-}"
		return
	fi
	for line in "${lines[@]}"; do
		if _assert_matches "$mode" "$line" "$text"; then
			return 0
		fi
	done
	_assert_show 'no line matches' "$key" "$text" output "$output"
}

# refute_line [--index N] [--partial | --regexp] TEXT: no line (or not
# line N) is TEXT, holds it, or matches it.
refute_line() {
	local mode key=unexpected text index=-1 i
	_assert_args "$@" || return
	for i in "${!lines[@]}"; do
		if ((index < 0 || index == i)) && _assert_matches "$mode" "${lines[i]}" "$text"; then
			_assert_show "line $i should not match" "$key" "$text" output "$output"
			return
		fi
	done
}

# _assert_args ARGS...: read [--index N] [--partial | --regexp] TEXT into
# the caller's index (for the *_line ones), mode ("whole", "partial" or
# "regexp"), key (what a failure calls TEXT: "expected" unless the caller
# set it, "substring" or "regexp") and text.  Fails on anything else: an
# assertion that has not understood its arguments must not pass.
_assert_args() {
	local caller=${FUNCNAME[1]}
	mode=whole key=${key:-expected}
	while (($#)); do
		case $1 in
		-n | --index)
			[[ $caller == *_line && ${2-} =~ ^[0-9]+$ ]] ||
				fail "$caller: no --index ${2-} here" || return
			index=$2
			shift 2
			;;
		-p | --partial) mode=partial key=substring; shift ;;
		-e | --regexp) mode=regexp key=regexp; shift ;;
		--) shift; break ;;
		*) break ;;
		esac
	done
	(($# == 1)) || fail "$caller: one text to compare, not $#: $*" || return
	text=$1
	if [[ $mode == regexp ]]; then
		_assert_regexp_valid "$text"
	fi
}

# _assert_regexp_valid RE: bash can match with RE.  [[ =~ ]] returns 2 for
# a bad one, which a refutation would take for "no match".
_assert_regexp_valid() {
	local rc=0
	[[ '' =~ $1 ]] || rc=$?
	((rc != 2)) || fail "not a valid extended regular expression: $1"
}

# _assert_matches MODE TEXT WANT
_assert_matches() {
	case $1 in
	whole) [[ $2 == "$3" ]] ;;
	partial) [[ $2 == *"$3"* ]] ;;
	regexp) [[ $2 =~ $3 ]] ;;
	esac
}

# _assert_show TITLE KEY VALUE...: say why an assertion failed, each value
# on its key's line, or under it when it has several lines; fail.
_assert_show() {
	local title=$1 width=0 i
	shift
	local -a kv=("$@")
	for ((i = 0; i < ${#kv[@]}; i += 2)); do
		if ((${#kv[i]} > width)); then
			width=${#kv[i]}
		fi
	done
	{
		printf -- '-- %s --\n' "$title"
		for ((i = 0; i < ${#kv[@]}; i += 2)); do
			if [[ ${kv[i + 1]} == *$'\n'* ]]; then
				printf '%s (%d lines):\n' "${kv[i]}" "$(printf '%s\n' "${kv[i + 1]}" | wc -l)"
				printf '%s\n' "${kv[i + 1]}" | sed 's/^/  /'
			else
				printf '%-*s : %s\n' "$width" "${kv[i]}" "${kv[i + 1]}"
			fi
		done
		printf -- '--\n'
	} >&2
	return 1
}
