# Differential testing helpers: run GNU md5sum and ours under the same program
# name, in the same directory, with the same arguments and stdin, and compare
# stdout, stderr and exit status byte for byte.
#
# Load from a .bats file with:   load diff_helper
# and call diff_setup from setup().
#
# The binary under test is "${MD5SUM:-$BATS_TEST_DIRNAME/../build/md5sum}".
# Run the suite against GNU itself with MD5SUM=/usr/bin/md5sum; it must pass.
# With DIFF_PROGRESS=1, ours runs with --progress added, first: without a
# terminal it must change nothing.  (A snippet's "md5sum" is then a function
# that adds it; "exec md5sum" and commands that run md5sum themselves, such
# as timeout or strace, run it without.)
#
# DIFF_WAYS runs ours once for each way of reading in a list separated by
# ';', each way a few NAME=VALUE words (separated by ',' or spaces) put in
# ours's environment ('-': as it is), and compares each run with GNU's one
# run: e.g.
#   DIFF_WAYS='-;MD5SUM_JOBS=1;MD5SUM_DISK=ssd,DIFF_PROGRESS=1'
# which costs far less than a run of the file for each, since GNU runs
# once.  Tests that run ours without these helpers run it as it is.
#
# After a successful same_as_gnu / same_as_gnu_sh the GNU results stay in
# $GNU_OUT, $GNU_ERR (files) and $GNU_RC, so a test can pin what GNU did
# with gnu_status_is / gnu_stdout_is / gnu_stderr_is / gnu_stderr_has ...
# (these guard against a test that silently stopped testing what its name says).

load assert

GNU_MD5SUM=/usr/bin/md5sum

# Well-known MD5 values of the fixtures created by diff_setup.
HA=900150983cd24fb0d6963f7d28e17f72 # "abc"      (file a)
HE=d41d8cd98f00b204e9800998ecf8427e # ""         (file e)
HH=b1946ac92492d2347c6235b4d2611184 # "hello\n"  (file h)
HX=9dd4e461268c8034f5c8564e155c67a6 # "x"        (file x)
export HA HE HH HX

# _diff_prepare OURS: what a file's tests share, found once for the file
# (the commands it takes cost more than most tests): whether GNU's is GNU,
# the binary under test, and a directory that holds each as "md5sum".
# Prints the request, then "ok PATH", "skip WHY" or "fail WHY".
_diff_prepare() {
	local v ours=$1
	printf '%s\n' "$ours"
	v=$("$GNU_MD5SUM" --version 2>/dev/null | head -n 1) || true
	case $v in
	'md5sum (GNU coreutils) '*) ;;
	*)
		echo "skip $GNU_MD5SUM is not GNU coreutils md5sum, the reference (Debian: coreutils)"
		return
		;;
	esac
	if [[ ! -e $ours ]]; then
		echo "fail binary under test not found: $ours (build it, or set MD5SUM=...)"
		return
	fi
	ours=$(realpath -- "$ours")
	if [[ ! -x $ours || ! -f $ours ]]; then
		echo "fail binary under test is not an executable file: $ours"
		return
	fi
	mkdir -p "$BATS_FILE_TMPDIR/gnu-bin" "$BATS_FILE_TMPDIR/our-bin" &&
		ln -sf "$GNU_MD5SUM" "$BATS_FILE_TMPDIR/gnu-bin/md5sum" &&
		ln -sf "$ours" "$BATS_FILE_TMPDIR/our-bin/md5sum" ||
		{ echo "fail cannot make the directories of the binaries"; return; }
	echo "ok $ours"
}

diff_setup() {
	local ours=${MD5SUM:-$BATS_TEST_DIRNAME/../build/md5sum}
	local ready=$BATS_FILE_TMPDIR/diff-ready asked= verdict=
	{ IFS= read -r asked && IFS= read -r verdict; } 2>/dev/null <"$ready" || true
	if [[ $asked != "$ours" ]]; then
		_diff_prepare "$ours" >"$ready.new" && mv -f "$ready.new" "$ready" ||
			fail "cannot write $ready"
		{ IFS= read -r asked && IFS= read -r verdict; } <"$ready" || true
	fi
	case $verdict in
	ok\ *) OURS=${verdict#ok } ;;
	skip\ *) skip "${verdict#skip }" ;;
	*) fail "${verdict#fail }" ;;
	esac

	# The options added to ours (DIFF_PROGRESS).
	OUR_EXTRA=()
	if [[ -n ${DIFF_PROGRESS-} ]]; then
		OUR_EXTRA=(--progress)
	fi
	# The ways ours runs in, each compared with GNU's one run (DIFF_WAYS).
	_DIFF_WAYS=()
	IFS=';' read -ra _DIFF_WAYS <<<"${DIFF_WAYS:--}"
	((${#_DIFF_WAYS[@]})) || _DIFF_WAYS=(-)

	GNU_BIN=$BATS_FILE_TMPDIR/gnu-bin
	OUR_BIN=$BATS_FILE_TMPDIR/our-bin

	RES=$BATS_TEST_TMPDIR/res
	W=$BATS_TEST_TMPDIR/w
	mkdir -p "$RES/gnu" "$RES/ours" "$W"
	_diff_runs=0
	cd "$W" || fail "cannot cd to $W"

	# A fixed, known environment for both binaries.
	export LC_ALL=C.UTF-8
	unset POSIXLY_CORRECT LANGUAGE LANG
	_DIFF_PATH0=$PATH
	_DIFF_TIMEOUT=()
	if command -v timeout >/dev/null 2>&1; then
		_DIFF_TIMEOUT=(timeout -k 5 60)
	fi

	printf 'abc' >a
	: >e
	printf 'hello\n' >h
	printf 'x' >x
}

# shell-quoted rendering of a command line, for messages
_diff_q() {
	local s='' w
	for w in "$@"; do
		s+=" $(printf '%q' "$w")"
	done
	printf '%s' "${s# }"
}

# true if the file is plain text: no NUL, no control characters other than
# tab and newline, and it is empty or ends with a newline
_diff_is_text() {
	[[ ! -s $1 ]] && return 0
	LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$1" && return 1
	[[ $(tr -d '\000' <"$1" | wc -c) -eq $(wc -c <"$1") ]] || return 1
	[[ $(tail -c 1 "$1" | od -An -c | tr -d ' ') == '\n' ]]
}

# _diff_show_diff LABEL GNUFILE OURFILE: describe how two files differ
_diff_show_diff() {
	local label=$1 g=$2 o=$3
	printf -- '--- %s differs: %s\n' "$label" "$(LC_ALL=C cmp -- "$g" "$o" 2>&1 | sed "s|$RES/||g")"
	if _diff_is_text "$g" && _diff_is_text "$o"; then
		diff -u --label "gnu $label" --label "our $label" -- "$g" "$o" | head -n 60 || true
	else
		diff -u --label "gnu $label (od -c)" --label "our $label (od -c)" \
			<(od -An -c -- "$g") <(od -An -c -- "$o") | head -n 60 || true
	fi
}

# _diff_same FILE1 FILE2: whether they hold the same bytes; two empty
# files without a cmp.
_diff_same() {
	[[ ! -s $1 && ! -s $2 ]] || cmp -s -- "$1" "$2"
}

# _diff_run SIDE WAY KIND ARGS...   (KIND is cmd or sh; WAY one of
# DIFF_WAYS, for ours; options in _diff_* vars)
_diff_run() {
	local side=$1 way=$2 kind=$3 bindir
	shift 3
	if [[ $side == gnu ]]; then bindir=$GNU_BIN; else bindir=$OUR_BIN; fi
	# The results' directories are made once a test (diff_setup); a
	# snippet's scratch directory is new for each run, without an rm: a
	# process each costs more than most of the md5sum runs compared.
	local d=$RES/$side scratch=
	if [[ $kind == sh ]]; then
		scratch=$RES/scratch.$((++_diff_runs))
		mkdir "$scratch" || return 2
	fi
	local -a extra=() assigns=()
	if [[ $side == ours ]]; then
		[[ $way == - ]] || IFS=', ' read -ra assigns <<<"$way"
		if [[ -z ${DIFF_PROGRESS-} && " ${assigns[*]} " == *' DIFF_PROGRESS=1 '* ]]; then
			extra=(--progress)
		fi
		extra+=("${OUR_EXTRA[@]}")
	fi
	if [[ $kind == cmd ]]; then
		set -- md5sum "${extra[@]}" "$@"
	else
		set -- bash -c "$1" md5sum-snippet "${@:2}"
	fi
	local rc=0
	# Emptied first: a run that fails before its exec leaves none of the
	# last run's output to be compared.
	: >"$d/out" && : >"$d/err" || return 2
	(
		cd "$_diff_cwd" || exit 125
		export PATH="$bindir:$_DIFF_PATH0" SCRATCH="$scratch" "${assigns[@]}"
		if ((${#extra[@]})); then
			eval "md5sum() { command md5sum $(printf '%q ' "${extra[@]}")\"\$@\"; }"
			export -f md5sum
		fi
		if [[ -n $_diff_stdin_closed ]]; then
			exec "${_DIFF_TIMEOUT[@]}" "$@" <&- >"$d/out" 2>"$d/err"
		else
			exec "${_DIFF_TIMEOUT[@]}" "$@" <"$_diff_stdin" >"$d/out" 2>"$d/err"
		fi
	) || rc=$?
	if [[ $side == gnu ]]; then GNU_RC=$rc; else OUR_RC=$rc; fi
}

# _diff_both KIND [--stdin FILE|--stdin-closed] [--cwd DIR] -- ARGS...
_diff_both() {
	local kind=$1
	shift
	_diff_stdin=/dev/null _diff_stdin_closed='' _diff_cwd=$PWD
	while (($#)); do
		case $1 in
		--stdin) _diff_stdin=$2; shift 2 ;;
		--stdin-closed) _diff_stdin_closed=1; shift ;;
		--cwd) _diff_cwd=$2; shift 2 ;;
		--) shift; break ;;
		*) printf 'same_as_gnu: unknown helper option %s\n' "$1" >&2; return 2 ;;
		esac
	done
	if [[ $kind == sh && $# -eq 0 ]]; then
		printf 'same_as_gnu_sh: missing snippet\n' >&2
		return 2
	fi
	if [[ -z $_diff_stdin_closed && ! -r $_diff_stdin ]]; then
		printf 'same_as_gnu: stdin file %s not readable\n' "$_diff_stdin" >&2
		return 2
	fi
	_diff_run gnu - "$kind" "$@" || return 2
	GNU_OUT=$RES/gnu/out GNU_ERR=$RES/gnu/err
	OUR_OUT=$RES/ours/out OUR_ERR=$RES/ours/err
	local way
	for way in "${_DIFF_WAYS[@]}"; do
		_diff_run ours "$way" "$kind" "$@" || return 2
		[[ $GNU_RC == "$OUR_RC" ]] && _diff_same "$GNU_OUT" "$OUR_OUT" &&
			_diff_same "$GNU_ERR" "$OUR_ERR" && continue
		_diff_report "$way" "$kind" "$@" >"$RES/report"
		cat "$RES/report" >&2
		return 1
	done
}

# _diff_report WAY KIND ARGS...: how ours, run in WAY, differed from GNU.
_diff_report() {
	local way=$1 kind=$2
	shift 2
	if [[ $kind == cmd ]]; then
		printf 'MISMATCH for: md5sum %s\n' "$(_diff_q "$@")"
	else
		printf 'MISMATCH for shell snippet: %s\n' "$1"
		(($# > 1)) && printf '  snippet args: %s\n' "$(_diff_q "${@:2}")"
	fi
	local shown_stdin=$_diff_stdin
	[[ -n $_diff_stdin_closed ]] && shown_stdin='(closed)'
	printf '  cwd: %s   stdin: %s   LC_ALL=%s\n' "$_diff_cwd" "$shown_stdin" "${LC_ALL-}"
	[[ $way == - ]] || printf '  ours run with: %s\n' "$way"
	[[ $GNU_RC == "$OUR_RC" ]] ||
		printf -- '--- exit status differs: gnu=%s ours=%s\n' "$GNU_RC" "$OUR_RC"
	cmp -s -- "$GNU_OUT" "$OUR_OUT" || _diff_show_diff stdout "$GNU_OUT" "$OUR_OUT"
	cmp -s -- "$GNU_ERR" "$OUR_ERR" || _diff_show_diff stderr "$GNU_ERR" "$OUR_ERR"
}

# same_as_gnu [--stdin FILE | --stdin-closed] [--cwd DIR] -- ARGS...
#   Runs "md5sum ARGS..." with both binaries and fails on any difference.
same_as_gnu() {
	_diff_both cmd "$@"
}

# same_as_gnu_sh [--stdin FILE | --stdin-closed] [--cwd DIR] -- SNIPPET [ARGS...]
#   Runs bash -c SNIPPET (with $1... = ARGS) where "md5sum" resolves to one
#   binary, then the other.  $SCRATCH is a private writable directory.
#   Compares the snippet's stdout, stderr and exit status.
same_as_gnu_sh() {
	_diff_both sh "$@"
}

# same_as_gnu_each [--stdin FILE] [--cwd DIR] -- 'ARGS1' 'ARGS2' ... [::: COMMON...]
#   For each word-split ARGS string, runs same_as_gnu with ARGS plus COMMON.
#   Runs all combinations, then fails naming every combination that differed.
same_as_gnu_each() {
	local -a hopts=() combos=() common=()
	while (($#)) && [[ $1 != -- ]]; do
		hopts+=("$1")
		shift
	done
	[[ ${1-} == -- ]] && shift
	while (($#)) && [[ $1 != ::: ]]; do
		combos+=("$1")
		shift
	done
	[[ ${1-} == ::: ]] && shift
	common=("$@")
	local c failed=() n=0
	local -a words
	for c in "${combos[@]}"; do
		read -ra words <<<"$c"
		n=$((n + 1))
		if ! same_as_gnu "${hopts[@]}" -- "${words[@]}" "${common[@]}" 2>"$RES/each.err"; then
			failed+=("[$c]")
			cat "$RES/each.err" >&2
		fi
	done
	((n > 0)) || { echo 'same_as_gnu_each: no combinations given' >&2; return 2; }
	if ((${#failed[@]})); then
		printf 'FAILED %d of %d combinations (common args: %s): %s\n' \
			"${#failed[@]}" "$n" "$(_diff_q "${common[@]}")" "${failed[*]}" >&2
		return 1
	fi
}

# same_exit_as_gnu_nonempty_stdout -- ARGS...
#   For --help / --version, whose text may differ: compare only the exit
#   status, and require both to write something to stdout and nothing to
#   stderr.
same_exit_as_gnu_nonempty_stdout() {
	[[ ${1-} == -- ]] && shift
	local way ok=1 ways=("${_DIFF_WAYS[@]}")
	# Each way on its own: the texts differ, so that _diff_both stops at
	# the first.
	for way in "${ways[@]}"; do
		_DIFF_WAYS=("$way")
		_diff_both cmd -- "$@" 2>/dev/null || true
		[[ $GNU_RC == "$OUR_RC" ]] || ok=0
		[[ -s $GNU_OUT && -s $OUR_OUT ]] || ok=0
		[[ ! -s $GNU_ERR && ! -s $OUR_ERR ]] || ok=0
		((ok)) || break
	done
	_DIFF_WAYS=("${ways[@]}")
	((ok)) && return 0
	printf 'MISMATCH for: md5sum %s\n  exit status gnu=%s ours=%s; stdout bytes gnu=%s ours=%s; stderr bytes gnu=%s ours=%s\n' \
		"$(_diff_q "$@")" "$GNU_RC" "$OUR_RC" "$(wc -c <"$GNU_OUT")" "$(wc -c <"$OUR_OUT")" \
		"$(wc -c <"$GNU_ERR")" "$(wc -c <"$OUR_ERR")" >&2
	[[ $way == - ]] || printf '  ours run with: %s\n' "$way" >&2
	[[ -s $OUR_ERR ]] && { echo '  our stderr:' >&2; head -n 5 "$OUR_ERR" >&2; }
	return 1
}

# ---- pins on what GNU did in the last comparison (exact bytes) -------------

gnu_status_is() {
	[[ $GNU_RC == "$1" ]] && return 0
	printf 'expected GNU exit status %s, got %s\n' "$1" "$GNU_RC" >&2
	return 1
}

_gnu_file_is() { # LABEL FILE EXPECTED
	if ! cmp -s -- "$2" <(printf '%s' "$3"); then
		printf 'GNU %s is not what this test expects:\n' "$1" >&2
		diff -u --label expected --label "gnu $1" <(printf '%s' "$3" | od -An -c) <(od -An -c -- "$2") >&2 || true
		return 1
	fi
}
gnu_stdout_is() { _gnu_file_is stdout "$GNU_OUT" "$1"; }
gnu_stderr_is() { _gnu_file_is stderr "$GNU_ERR" "$1"; }

_gnu_file_has() { # LABEL FILE SUBSTRING
	if ! LC_ALL=C grep -qF -- "$3" "$2"; then
		printf 'GNU %s does not contain %q; it is:\n' "$1" "$3" >&2
		od -c -- "$2" | head -n 20 >&2
		return 1
	fi
}
gnu_stdout_has() { _gnu_file_has stdout "$GNU_OUT" "$1"; }
gnu_stderr_has() { _gnu_file_has stderr "$GNU_ERR" "$1"; }

gnu_stdout_empty() { gnu_stdout_is ''; }
gnu_stderr_empty() { gnu_stderr_is ''; }

# When running as root, mode-000 files are readable.  nobody_env FILE...
# prepares a world-accessible copy of the test setup under /tmp (bin dirs
# and a work dir $NOBODY_W holding copies of FILE..., modes preserved) so a
# snippet can run "$AS_NOBODY md5sum ..." there with --cwd "$NOBODY_W".
# The programs are copied, not linked: the checkout may be one that only
# root can reach.  Skips when that is impossible.  diff_teardown removes
# the copy.
AS_NOBODY='setpriv --reuid=65534 --regid=65534 --clear-groups'
nobody_env() {
	[[ $(id -u) -eq 0 ]] && command -v setpriv >/dev/null 2>&1 ||
		skip "mode 000 does not deny reading here and privileges cannot be dropped"
	PUBLIC_TMP=$(mktemp -d /tmp/md5sum-diff.XXXXXX)
	mkdir -p "$PUBLIC_TMP/gnu-bin" "$PUBLIC_TMP/our-bin" "$PUBLIC_TMP/w"
	cp -- "$GNU_MD5SUM" "$PUBLIC_TMP/gnu-bin/md5sum"
	cp -- "$OURS" "$PUBLIC_TMP/our-bin/md5sum"
	cp -p -- "$@" "$PUBLIC_TMP/w/"
	chmod 755 "$PUBLIC_TMP" "$PUBLIC_TMP/gnu-bin" "$PUBLIC_TMP/our-bin" "$PUBLIC_TMP/w"
	$AS_NOBODY test -x "$PUBLIC_TMP/our-bin/md5sum" 2>/dev/null &&
		$AS_NOBODY test -x "$PUBLIC_TMP/gnu-bin/md5sum" 2>/dev/null ||
		skip "the binaries are not executable by uid 65534"
	GNU_BIN=$PUBLIC_TMP/gnu-bin OUR_BIN=$PUBLIC_TMP/our-bin NOBODY_W=$PUBLIC_TMP/w
}

diff_teardown() {
	if [[ -n ${PUBLIC_TMP-} && -d $PUBLIC_TMP ]]; then
		rm -rf -- "$PUBLIC_TMP"
	fi
}

# ---- runs against a sanitizer build (tests/sanitized) -----------------------

# not_sanitized WHY: skip when the binary under test is a sanitizer build,
# for a test that the sanitizer's own memory, threads or descriptors upset.
not_sanitized() {
	[[ -z ${MD5SUM_SANITIZER-} ]] || skip "under the $MD5SUM_SANITIZER build: $1"
}

# no_leak_check: for runs under ptrace (strace), where LeakSanitizer cannot
# work and reports that it cannot; ASan and UBSan still watch.
no_leak_check() {
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
}

# sanitizer_threads N: of N threads a run of ours was seen to start, those
# it started itself: TSan starts one of its own with the first thread the
# program starts.
sanitizer_threads() {
	if [[ ${MD5SUM_SANITIZER-} == tsan ]] && (($1 > 0)); then
		echo $(($1 - 1))
	else
		echo "$1"
	fi
}

# Skip unless /dev/full behaves like a full device.
need_dev_full() {
	[[ -c /dev/full ]] || skip "/dev/full not available"
	if (printf x >/dev/full) 2>/dev/null; then skip "/dev/full accepts writes here"; fi
}

# ---- read faults injected with strace, main thread only ---------------------

# Skip unless strace is there and may trace and inject faults here.
need_strace_inject() {
	command -v strace >/dev/null 2>&1 || skip "strace is not installed (Debian: strace)"
	strace -o /dev/null -e inject=getppid:error=EPERM true 2>/dev/null ||
		skip "strace cannot trace or inject faults here (ptrace not permitted?)"
}

# same_as_gnu_read_eio JOBS FILE ARGS...
#   Runs "md5sum ARGS..." with both binaries under
#     strace -o /dev/null -P FILE -e inject=read,preadv2:error=EIO
#   the way a test of GNU's would: no -f, so only the main thread is
#   traced, and every read(2) that the main thread makes on FILE fails
#   with EIO (and every preadv2(2), with which ours first asks the page
#   cache).  JOBS empty: MD5SUM_JOBS is unset (our default number of
#   threads); else MD5SUM_JOBS=JOBS, which is our -jJOBS and which GNU
#   ignores, so the same command runs against GNU itself.  FILE is given to
#   strace as an absolute path (a relative one makes strace print a note).
#   Compares stdout, stderr and exit status (strace exits with md5sum's).
same_as_gnu_read_eio() {
	local jobs=$1 file=$2
	shift 2
	same_as_gnu_sh -- '
		j=$1 f=$2
		shift 2
		if [ -n "$j" ]; then export MD5SUM_JOBS=$j; else unset MD5SUM_JOBS; fi
		case $f in /*) ;; *) f=$PWD/$f ;; esac
		# an ASan build: LeakSanitizer cannot work under ptrace
		export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
		exec strace -o /dev/null -P "$f" -e inject=read,preadv2:error=EIO md5sum "$@"' \
		"$jobs" "$file" "$@"
}
