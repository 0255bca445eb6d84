#!/usr/bin/env bats
# A checksum list split across jobs with GNU parallel, as doc/parallel.md
# (and the README's "Past one machine") shows for several hosts, run here on
# this one:
#	parallel --pipe -j2 --keep-order [-N LINES | --block SIZE] md5sum -c
# The same command, run with GNU md5sum and with ours first in PATH, must
# print the same standard output and standard error and exit with the same
# status, with a mismatch, a missing file, a bad line and names that need
# escaping among the lines.  The last tests pin what such a run prints
# that one md5sum -c over the whole list does not, as doc/parallel.md says.
# Plain bash assertions: this file loads no helper library.
#
# Skipped where GNU parallel is missing (Debian: parallel).  Its citation
# notice is silenced with --will-cite, and HOME is the test's directory:
# parallel keeps state in ~/.parallel even so.

bats_require_minimum_version 1.5.0

GNU_MD5SUM=/usr/bin/md5sum

setup() {
	command -v parallel >/dev/null ||
		skip "GNU parallel is not installed (Debian package parallel)"
	[[ $(parallel --version 2>/dev/null | head -n 1) == "GNU parallel"* ]] ||
		skip "parallel here is not GNU parallel (Debian package parallel)"
	[[ $("$GNU_MD5SUM" --version 2>/dev/null | head -n 1) == "md5sum (GNU coreutils) "* ]] ||
		skip "$GNU_MD5SUM is not GNU md5sum (Debian package coreutils)"
	local ours
	ours=$(realpath -- "${MD5SUM:-$BATS_TEST_DIRNAME/../build/md5sum}")
	[[ -x $ours ]] || { echo "build md5sum first: $ours" >&2; return 1; }

	cd "$BATS_TEST_TMPDIR" || return 1
	export HOME=$BATS_TEST_TMPDIR/home TMPDIR=$BATS_TEST_TMPDIR LC_ALL=C.UTF-8
	unset POSIXLY_CORRECT MD5SUM_JOBS MD5SUM_DISK
	mkdir home gnu ours files
	# Both are found as "md5sum", so their messages begin alike.
	ln -s "$GNU_MD5SUM" gnu/md5sum
	ln -s "$ours" ours/md5sum

	# 22 files: f 01 to f 20, then two with names GNU escapes in its
	# lines; sums lists them in that order.
	local i
	for i in $(seq -w 1 20); do
		head -c $((10#$i * 997)) /dev/urandom >"files/f $i"
	done
	printf x >'files/back\slash'
	printf y >$'files/new\nline'
	"$GNU_MD5SUM" files/f* files/back* files/new* >sums
}

# wrong: the line on standard input with a wrong digest.
wrong() { sed -E 's/[0-9a-f]{32}/00000000000000000000000000000000/'; }

# list_with_faults: the 22 lines of sums and 2 more, 24 lines: a wrong
# digest on lines 3 and 20, a missing file on line 8, a line that is no
# checksum line on 12.
list_with_faults() {
	sed -n 1,2p sums
	sed -n 3p sums | wrong
	sed -n 4,7p sums
	echo "d41d8cd98f00b204e9800998ecf8427e  files/gone"
	sed -n 8,10p sums
	echo "not a checksum line"
	sed -n 11,17p sums
	sed -n 18p sums | wrong
	sed -n '19,$p' sums
}

# split_run SIDE LIST ARGS...: ARGS (parallel's options, then the command)
# run by GNU parallel over LIST on standard input, with SIDE's md5sum first
# in PATH; its stdout, stderr and status into SIDE.out, SIDE.err, SIDE.rc.
split_run() {
	local side=$1 list=$2 rc=0
	shift 2
	PATH=$PWD/$side:$PATH parallel --will-cite "$@" <"$list" >"$side.out" 2>"$side.err" ||
		rc=$?
	echo "$rc" >"$side.rc"
}

# same_split LIST ARGS...: split_run with GNU's md5sum and with ours; fail,
# showing the differences, unless stdout, stderr and status are the same.
same_split() {
	local f bad=0
	split_run gnu "$@"
	split_run ours "$@"
	for f in out err rc; do
		if ! cmp -s "gnu.$f" "ours.$f"; then
			echo "--- $f differs for: parallel --will-cite ${*:2} <$1" >&2
			diff -u --label "gnu $f" --label "our $f" "gnu.$f" "ours.$f" >&2
			bad=1
		fi
	done
	[[ $bad = 0 ]]
}

@test "-c in chunks of 4 lines, 2 jobs: GNU's output and status" {
	list_with_faults >list
	same_split list --pipe -j2 --keep-order -N 4 md5sum -c
	# What the run was about: the faults reported, 3 chunks failed (lines
	# 1-4, 5-8 and 17-20).
	grep -qx 'files/f 03: FAILED' gnu.out
	grep -qx 'files/gone: FAILED open or read' gnu.out
	grep -qx 'files/f 18: FAILED' gnu.out
	grep -qx "md5sum: files/gone: No such file or directory" gnu.err
	[[ $(<gnu.rc) = 3 ]]
}

@test "-c --quiet in chunks of 4 lines: GNU's output and status" {
	list_with_faults >list
	same_split list --pipe -j2 --keep-order -N 4 md5sum -c --quiet
	[[ $(grep -c FAILED gnu.out) = 3 ]]
	run -1 grep -q ': OK$' gnu.out
}

@test "-c --status in chunks of 4 lines: nothing on stdout, GNU's status" {
	list_with_faults >list
	same_split list --pipe -j2 --keep-order -N 4 md5sum -c --status
	[[ ! -s gnu.out && $(<gnu.rc) = 3 ]]
}

@test "-c -w --strict in chunks of 5 lines: line numbers within the chunk" {
	list_with_faults >list
	same_split list --pipe -j2 --keep-order -N 5 md5sum -c -w --strict
	# Line 12 of the list is line 2 of the third chunk, which --strict
	# fails as well: 4 chunks of 5.
	grep -qx "md5sum: 'standard input': 2: improperly formatted MD5 checksum line" gnu.err
	[[ $(<gnu.rc) = 4 ]]
}

@test "-c in chunks of about 300 bytes (--block): GNU's output and status" {
	list_with_faults >list
	same_split list --pipe -j2 --keep-order --block 300 md5sum -c
	# Every line but the bad one, and more than one chunk failed.
	[[ $(grep -c . gnu.out) = 23 && $(<gnu.rc) -gt 1 ]]
}

@test "-c --ignore-missing: a chunk of missing files alone fails, as with GNU" {
	{ echo "d41d8cd98f00b204e9800998ecf8427e  files/gone1"
	  echo "d41d8cd98f00b204e9800998ecf8427e  files/gone2"
	  head -n 4 sums; } >list
	same_split list --pipe -j2 --keep-order -N 2 md5sum -c --ignore-missing
	grep -qx "md5sum: 'standard input': no file was verified" gnu.err
	[[ $(<gnu.rc) = 1 ]]
}

@test "one chunk: the stdout, stderr and status of one md5sum -c" {
	list_with_faults >list
	same_split list --pipe -j2 --keep-order md5sum -c
	local rc=0
	PATH=$PWD/gnu:$PATH md5sum -c <list >one.out 2>one.err || rc=$?
	cmp one.out gnu.out
	cmp one.err gnu.err
	[[ $rc = 1 && $(<gnu.rc) = 1 ]]
}

@test "chunks: a WARNING line per chunk, and the status counts failed chunks" {
	list_with_faults >list
	split_run gnu list --pipe -j2 --keep-order -N 4 md5sum -c --quiet
	local rc=0
	PATH=$PWD/gnu:$PATH md5sum -c --quiet <list >one.out 2>one.err || rc=$?
	# The same lines on standard output, in the same order.
	cmp one.out gnu.out
	# One md5sum -c sums up once ...
	grep -qx 'md5sum: WARNING: 2 computed checksums did NOT match' one.err
	[[ $rc = 1 ]]
	# ... each chunk for itself; the status is the number of failed chunks.
	[[ $(grep -cx 'md5sum: WARNING: 1 computed checksum did NOT match' gnu.err) = 2 ]]
	[[ $(<gnu.rc) = 3 ]]
}

@test "chunks: each chunk's messages come after its lines, not among them" {
	list_with_faults >list
	PATH=$PWD/gnu:$PATH parallel --will-cite --pipe -j2 --keep-order -N 4 \
		md5sum -c <list >split.both 2>&1 || :
	PATH=$PWD/gnu:$PATH md5sum -c <list >one.both 2>&1 || :
	local msg='md5sum: files/gone: No such file or directory'
	local line='files/gone: FAILED open or read'
	# One run writes the message just before the line; parallel after the
	# lines of its chunk (lines 5 to 8 of the list), the last of which
	# this line is.
	[[ $(grep -x -A 1 "$msg" one.both | tail -n 1) = "$line" ]]
	[[ $(grep -x -B 1 "$msg" split.both | head -n 1) = "$line" ]]
}

@test "chunks: a chunk of bad lines alone fails; an empty list runs no job" {
	{ head -n 2 sums; echo "# a comment"; echo; head -n 4 sums | tail -n 2; } >list
	same_split list --pipe -j2 --keep-order -N 2 md5sum -c
	grep -qx "md5sum: 'standard input': no properly formatted checksum lines found" gnu.err
	[[ $(<gnu.rc) = 1 ]]
	: >empty
	same_split empty --pipe -j2 --keep-order md5sum -c
	[[ ! -s gnu.out && ! -s gnu.err && $(<gnu.rc) = 0 ]]
	local rc=0
	PATH=$PWD/gnu:$PATH md5sum -c <empty >/dev/null 2>&1 || rc=$?
	[[ $rc = 1 ]]
}
