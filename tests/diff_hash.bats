#!/usr/bin/env bats
# Differential tests, hashing mode and option handling: GNU md5sum 9.1 vs ours.
# See diff_helper.bash.  Run against GNU itself with MD5SUM=/usr/bin/md5sum.

load diff_helper

setup() {
	diff_setup
}

teardown() {
	diff_teardown
}

# ---------------------------------------------------------------- basics

@test "hash: one file prints 'HASH  NAME'" {
	same_as_gnu -- a
	gnu_stdout_is "$HA  a"$'\n'
	gnu_status_is 0
}

@test "hash: several files are printed in argument order" {
	same_as_gnu -- h a e x
	gnu_stdout_is "$HH  h"$'\n'"$HA  a"$'\n'"$HE  e"$'\n'"$HX  x"$'\n'
}

@test "hash: empty file" {
	same_as_gnu -- e
	gnu_stdout_is "$HE  e"$'\n'
}

@test "hash: the same file named twice is hashed twice" {
	same_as_gnu -- a a
	gnu_stdout_is "$HA  a"$'\n'"$HA  a"$'\n'
}

@test "hash: no arguments reads stdin, named '-'" {
	same_as_gnu --stdin a --
	gnu_stdout_is "$HA  -"$'\n'
}

@test "hash: no arguments with empty stdin" {
	same_as_gnu --stdin e --
	gnu_stdout_is "$HE  -"$'\n'
}

@test "hash: '-' reads stdin" {
	same_as_gnu --stdin h -- -
	gnu_stdout_is "$HH  -"$'\n'
}

@test "hash: '-' twice, the second read sees end of file" {
	same_as_gnu --stdin h -- - -
	gnu_stdout_is "$HH  -"$'\n'"$HE  -"$'\n'
}

@test "hash: '-' twice on a pipe" {
	same_as_gnu_sh -- 'printf abc | md5sum - -'
	gnu_stdout_is "$HA  -"$'\n'"$HE  -"$'\n'
}

@test "hash: '-' between other files" {
	same_as_gnu --stdin h -- a - e
	gnu_stdout_is "$HA  a"$'\n'"$HH  -"$'\n'"$HE  e"$'\n'
}

@test "hash: stdin from a pipe" {
	same_as_gnu_sh -- 'printf "hello\n" | md5sum'
}

@test "hash: standard input from a terminal ends at the first ^D" {
	command -v script >/dev/null 2>&1 || skip "script is not installed (Debian: bsdutils)"
	command -v mkfifo >/dev/null 2>&1 || skip "mkfifo is not installed (Debian: coreutils)"
	# The terminal gets one line and one ^D, and then nothing more until
	# md5sum has exited: the writer of the FIFO stays open, so script(1)
	# does not send a ^D of its own.  A second read after the ^D would wait
	# until the timeout.
	same_as_gnu_sh -- '
		mkfifo "$SCRATCH/in"
		{ printf "a b\n\004"; exec sleep 30; } >"$SCRATCH/in" &
		w=$!
		timeout -k 2 10 script -qec "md5sum 2>\"\$SCRATCH/err\"; echo rc=\$?" /dev/null <"$SCRATCH/in"
		echo "script: $?"
		kill "$w"
		cat "$SCRATCH/err"'
	gnu_stdout_is $'a b\r\n7557d2f3a6ad1a3a8ebd23a94ab0c642  -\r\nrc=0\r\nscript: 0\n'
}

@test "hash: large stdin from a pipe (5 MB)" {
	same_as_gnu_sh -- 'yes "some text line" | head -c 5000000 | md5sum'
}

@test "hash: '--' ends options, nothing after it reads stdin" {
	same_as_gnu --stdin a -- --
	gnu_stdout_is "$HA  -"$'\n'
}

@test "hash: '-- -' reads stdin" {
	same_as_gnu --stdin a -- -- -
}

@test "hash: '-- --' is a file named '--'" {
	same_as_gnu -- -- --
	gnu_stderr_is $'md5sum: --: No such file or directory\n'
	gnu_status_is 1
}

@test "hash: '-- -b' treats -b as a (missing) file name" {
	same_as_gnu -- -- -b
	gnu_stderr_is $'md5sum: -b: No such file or directory\n'
}

@test "hash: '-- -b' hashes an existing file named -b" {
	printf 'abc' >-b
	same_as_gnu -- -- -b a
	gnu_stdout_is "$HA  -b"$'\n'"$HA  a"$'\n'
}

@test "hash: a file named '-' is reached as ./-" {
	printf 'abc' >./-
	same_as_gnu --stdin h -- ./- -
	gnu_stdout_is "$HA  ./-"$'\n'"$HH  -"$'\n'
}

@test "hash: options after file names are still options (argument permutation)" {
	same_as_gnu -- a -b e
	gnu_stdout_is "$HA *a"$'\n'"$HE *e"$'\n'
}

@test "hash: --tag after file names applies to all files" {
	same_as_gnu -- a e --tag
}

@test "hash: -z after file names applies to all files" {
	same_as_gnu -- a e -z
}

@test "hash: POSIXLY_CORRECT stops option parsing at the first file name" {
	POSIXLY_CORRECT=1 same_as_gnu -- a -b
	gnu_stdout_is "$HA  a"$'\n'
	gnu_stderr_is $'md5sum: -b: No such file or directory\n'
}

@test "hash: absolute path names are printed as given" {
	same_as_gnu -- "$W/a"
	gnu_stdout_is "$HA  $W/a"$'\n'
}

@test "hash: relative path with directories" {
	mkdir -p sub/dir
	printf 'abc' >sub/dir/f
	same_as_gnu -- sub/dir/f ./sub/../a
}

@test "hash: symlink to a file is hashed under the link name" {
	ln -s a link
	same_as_gnu -- link
	gnu_stdout_is "$HA  link"$'\n'
}

@test "hash: pipe by name (/dev/fd from process substitution)" {
	same_as_gnu_sh -- 'md5sum <(printf abc) a'
}

# ------------------------------------------------------------ sizes / data

@test "hash: sizes around the 64-byte block boundary" {
	local n fails=()
	for n in 1 2 3 15 16 17 31 32 33 54 55 56 57 58 62 63 64 65 66 118 119 120 121 126 127 128 129 130 191 192 193; do
		head -c "$n" /dev/zero | tr '\0' 'q' >"z$n"
		same_as_gnu -- "z$n" || fails+=("size $n")
	done
	((${#fails[@]} == 0)) || fail "differs for: ${fails[*]}"
}

@test "hash: the RFC 1321 test strings, as files, with -t" {
	printf '' >r1
	printf 'a' >r2
	printf 'abc' >r3
	printf 'message digest' >r4
	printf 'abcdefghijklmnopqrstuvwxyz' >r5
	printf '%s' {A..Z} {a..z} {0..9} >r6
	printf '1234567890%.0s' 1 2 3 4 5 6 7 8 >r7
	same_as_gnu -- -t r1 r2 r3 r4 r5 r6 r7
	gnu_stdout_is 'd41d8cd98f00b204e9800998ecf8427e  r1
0cc175b9c0f1b6a831c399e269772661  r2
900150983cd24fb0d6963f7d28e17f72  r3
f96b697d7cb7938d525a2f31aaf161d0  r4
c3fcd3d76192e4007dfb496cca67e13b  r5
d174ab98d277d9f5a5611c2c9f419d9f  r6
57edf4a22be3c955ac49da2e2107b67a  r7
'
}

@test "hash: sizes around read-buffer boundaries" {
	local n fails=()
	seq 1 400000 >src
	for n in 511 512 513 1023 1024 1025 4095 4096 4097 8191 8192 8193 32767 32768 32769 65535 65536 65537 131072 1000000 2000000; do
		head -c "$n" src >"y$n"
		same_as_gnu -- "y$n" || fails+=("size $n")
	done
	((${#fails[@]} == 0)) || fail "differs for: ${fails[*]}"
}

@test "hash: all 256 byte values" {
	local i s=''
	for i in $(seq 0 255); do s+=$(printf '\\%03o' "$i"); done
	printf "$s" >bytes
	[[ $(wc -c <bytes) -eq 256 ]]
	same_as_gnu -- bytes
	gnu_stdout_is $'e2c865db4162bed963bfaa9ef6ac18f0  bytes\n'
}

@test "hash: binary data with NUL bytes and CRLF" {
	printf 'a\0b\r\nc\0\0\r\n\377\376' >bin
	same_as_gnu -- bin
	same_as_gnu -- -b bin
	same_as_gnu -- -t bin
}

@test "hash: large file (8 MB) and the same data from stdin" {
	seq 1 1500000 >big
	same_as_gnu -- big
	same_as_gnu --stdin big --
	same_as_gnu --stdin big -- -
}

@test "hash: text mode and binary mode give the same digest" {
	printf 'a\r\nb\n' >crlf
	same_as_gnu -- -t crlf
	same_as_gnu -- -b crlf
}

# --------------------------------------------------------- output formats

@test "hash: -b marks binary with '*'" {
	same_as_gnu -- -b a e
	gnu_stdout_is "$HA *a"$'\n'"$HE *e"$'\n'
}

@test "hash: --binary long form" {
	same_as_gnu -- --binary a
}

@test "hash: -t prints two spaces" {
	same_as_gnu -- -t a
	gnu_stdout_is "$HA  a"$'\n'
}

@test "hash: --text long form" {
	same_as_gnu -- --text a
}

@test "hash: the last of -b / -t wins" {
	same_as_gnu_each -- '-b -t' '-t -b' '-b -t -b' '--binary --text' '--text --binary' ::: a
	same_as_gnu -- -t -b a
	gnu_stdout_is "$HA *a"$'\n'
}

@test "hash: --tag prints the BSD format" {
	same_as_gnu -- --tag a e
	gnu_stdout_is "MD5 (a) = $HA"$'\n'"MD5 (e) = $HE"$'\n'
}

@test "hash: --tag with stdin names it '-'" {
	same_as_gnu --stdin a -- --tag
	gnu_stdout_is "MD5 (-) = $HA"$'\n'
}

@test "hash: -b with stdin prints '*-'" {
	same_as_gnu --stdin a -- -b
	gnu_stdout_is "$HA *-"$'\n'
}

@test "hash: -z ends lines with NUL" {
	same_as_gnu -- -z a e
	# (bash strings cannot hold NUL: check the bytes with od)
	[[ $(od -An -c "$GNU_OUT" | tr -d ' \n') == "${HA}a\\0${HE}e\\0" ]]
}

@test "hash: --zero long form" {
	same_as_gnu -- --zero a
}

@test "hash: -z with stdin" {
	same_as_gnu --stdin a -- -z
}

@test "hash: --tag -b is accepted and prints the tag format" {
	same_as_gnu -- --tag -b a
	gnu_stdout_is "MD5 (a) = $HA"$'\n'
	gnu_status_is 0
}

@test "hash: -t --tag is accepted (--tag after --text)" {
	same_as_gnu -- -t --tag a
	gnu_stdout_is "MD5 (a) = $HA"$'\n'
}

@test "hash: --tag -z ends the tag line with NUL" {
	same_as_gnu -- --tag -z a e
}

@test "hash: combinations of -b -t -z --tag" {
	same_as_gnu_each -- '-b' '-t' '-z' '--tag' '-bz' '-zb' '-tz' '-zt' '-b -z' '-t -z' \
		'--tag -b' '-b --tag' '-t --tag' '--tag -z' '-z --tag' '--tag -bz' '-z -b --tag' \
		'--tag -t -b' '--binary --zero' '--text --zero' '--tag --zero --binary' \
		'-t --tag -z' '-b -t --tag' ::: a e
}

@test "hash: combinations of -b -t -z --tag on stdin" {
	same_as_gnu_each --stdin h -- '' '-' '-b' '-t' '-z' '--tag' '-bz' '--tag -z' '-b -' '--tag - -' ::: -
}

@test "hash: combinations with a missing file in the middle" {
	same_as_gnu_each -- '' '-b' '-t' '-z' '--tag' '--tag -z' ::: a nope e
}

# ---------------------------------------------------------------- options

@test "option prefix: --ta means --tag" {
	same_as_gnu -- --ta a
	gnu_stdout_is "MD5 (a) = $HA"$'\n'
}

@test "option prefix: --bin means --binary" {
	same_as_gnu -- --bin a
	gnu_stdout_is "$HA *a"$'\n'
}

@test "option prefix: --b, --te, --z, --ze" {
	same_as_gnu_each -- '--b' '--te' '--tex' '--z' '--ze' '--zer' '--bi' '--bina' ::: a
}

@test "option prefix: --chec means --check" {
	same_as_gnu -- --chec a
	gnu_stderr_is $'md5sum: a: no properly formatted checksum lines found\n'
	gnu_status_is 1
}

@test "option prefix: --c and --ch mean --check" {
	printf '%s  a\n' "$HA" >list
	same_as_gnu_each -- '--c' '--ch' '--che' '--check' ::: list
}

@test "option prefix: --q, --sta, --str, --w, --i, --ig with -c" {
	printf '%s  a\n' "$HA" >list
	same_as_gnu_each -- '-c --q' '-c --sta' '-c --stat' '-c --str' '-c --w' '-c --wa' '-c --i' '-c --ig' '-c --ignore' ::: list
}

@test "option: ambiguous prefix --t (tag/text)" {
	same_as_gnu -- --t a
	gnu_stderr_is $'md5sum: option \'--t\' is ambiguous; possibilities: \'--tag\' \'--text\'\nTry \'md5sum --help\' for more information.\n'
	gnu_status_is 1
}

@test "option: ambiguous prefix --s (status/strict)" {
	same_as_gnu -- --s a
	gnu_stderr_has "option '--s' is ambiguous; possibilities: '--status' '--strict'"
}

@test "option: ambiguous prefix --st" {
	same_as_gnu -- -c --st a
	gnu_status_is 1
}

@test "option: ambiguous prefix with an argument --t=x" {
	same_as_gnu -- --t=x a
	gnu_stderr_has "option '--t=x' is ambiguous"
}

# GNU's long options, in GNU's order: the order in which the message of an
# ambiguous prefix lists them.
GNU_LONGS=(check ignore-missing quiet status warn strict tag zero binary text help version)

@test "option: '--=x' is ambiguous among GNU's long options, listed in GNU's order, and none of ours" {
	same_as_gnu -- --=x a
	gnu_stderr_is "md5sum: option '--=x' is ambiguous; possibilities:$(printf " '--%s'" "${GNU_LONGS[@]}")"$'\nTry \'md5sum --help\' for more information.\n'
	same_as_gnu -- a --=x
	same_as_gnu -- --=x --progress a
}

@test "option: every prefix of every GNU option, bare and with =x, means what it means to GNU" {
	local name i combos=(--=x --=)
	for name in "${GNU_LONGS[@]}"; do
		for ((i = 1; i <= ${#name}; i++)); do
			combos+=("--${name:0:i}=x")
			# --help and --version print texts of their own: tested below.
			[[ $name == help || $name == version ]] || combos+=("--${name:0:i}")
		done
	done
	same_as_gnu_each -- "${combos[@]}" ::: a
}

@test "option: unknown long option" {
	same_as_gnu -- --frobnicate a
	gnu_stderr_is $'md5sum: unrecognized option \'--frobnicate\'\nTry \'md5sum --help\' for more information.\n'
	gnu_status_is 1
	gnu_stdout_empty
}

@test "option: long options are case-sensitive (--Tag)" {
	same_as_gnu -- --Tag a
	gnu_stderr_has "unrecognized option '--Tag'"
}

@test "option: three dashes (---tag)" {
	same_as_gnu -- ---tag a
}

@test "option: unknown short option" {
	same_as_gnu -- -x a
	gnu_stderr_is $'md5sum: invalid option -- \'x\'\nTry \'md5sum --help\' for more information.\n'
}

@test "option: unknown short option inside a cluster (-bx)" {
	same_as_gnu -- -bx a
	gnu_stderr_has "invalid option -- 'x'"
}

@test "option: '-' inside a cluster (-t-)" {
	same_as_gnu -- -t- a
	gnu_stderr_has "invalid option -- '-'"
}

@test "option: -h is not --help" {
	same_as_gnu -- -h
	gnu_status_is 1
}

@test "option: unknown option after file names is still reported" {
	same_as_gnu -- a e --nope
	gnu_stdout_empty
}

@test "option: unknown option wins over a missing file" {
	same_as_gnu -- nope --nope
}

@test "option: --tag=x does not take an argument" {
	same_as_gnu -- --tag=x a
	gnu_stderr_is $'md5sum: option \'--tag\' doesn\'t allow an argument\nTry \'md5sum --help\' for more information.\n'
}

@test "option: abbreviated option with argument names the full option (--ta=1)" {
	same_as_gnu -- --ta=1 a
	gnu_stderr_has "option '--tag' doesn't allow an argument"
}

@test "option: empty argument --tag= and --check=list, --binary=1, --zero=, --help=x" {
	same_as_gnu_each -- '--tag=' '--check=list' '--binary=1' '--zero=' '--help=x' '--version=1' '--quiet=1' ::: a
}

@test "option: clustered short options -bz -zb -tz" {
	same_as_gnu_each -- '-bz' '-zb' '-tz' '-btz' '-tbz' ::: a
}

@test "option: clustered -cw and -wc" {
	printf '%s  a\n' "$HA" >list
	same_as_gnu_each -- '-cw' '-wc' ::: list
}

@test "option: unknown option reported before invalid combination" {
	same_as_gnu -- --tag -c --bogus a
	gnu_stderr_has "unrecognized option '--bogus'"
}

@test "option: invalid combination reported even if the unknown-looking word is after --" {
	same_as_gnu -- --tag -c -- --bogus
	gnu_stderr_has 'the --tag option is meaningless when verifying checksums'
}

# The option reader is ours (opts.c), not the C library's, so that the
# static build, linked with musl, says what glibc says: these pin down the
# corners of glibc's getopt_long that GNU md5sum shows.

@test "option: POSIXLY_CORRECT set but empty also stops at the first file name" {
	POSIXLY_CORRECT= same_as_gnu -- a -b
	gnu_stderr_is $'md5sum: -b: No such file or directory\n'
}

@test "option: POSIXLY_CORRECT: options before the first file name count, '--' after it is a file" {
	POSIXLY_CORRECT=1 same_as_gnu -- -b a -- e
	gnu_stdout_is "$HA *a"$'\n'"$HE *e"$'\n'
	gnu_stderr_is $'md5sum: --: No such file or directory\n'
	POSIXLY_CORRECT=1 same_as_gnu -- -b -- a -b
	POSIXLY_CORRECT=1 same_as_gnu_each -- '-x' '--t' '--tag=1' '--bogus' '-c --tag' '--=x' '--=' ::: a
	POSIXLY_CORRECT=1 same_as_gnu -- a --=x
	gnu_stderr_is $'md5sum: \'--=x\': No such file or directory\n'
}

@test "option: '-' is a file; options after it still count" {
	same_as_gnu --stdin h -- - -b
	gnu_stdout_is "$HH *-"$'\n'
}

@test "option: files before and after '--' keep their order" {
	same_as_gnu -- a -- -b e
	gnu_stdout_is "$HA  a"$'\n'"$HE  e"$'\n'
	same_as_gnu -- a -t -- -- e
	gnu_stderr_is $'md5sum: --: No such file or directory\n'
	same_as_gnu -- a -z e -- h
}

@test "option: ':' and 'W' are not options (-:, -W, -b:)" {
	same_as_gnu_each -- '-:' '-W' '-W foo' '-b:' '-;' ::: a
	same_as_gnu -- -: a
	gnu_stderr_is $'md5sum: invalid option -- \':\'\nTry \'md5sum --help\' for more information.\n'
}

@test "option: a byte that is not ASCII as a short option (-\\xff)" {
	same_as_gnu -- $'-\xff' a
	same_as_gnu -- $'-b\xc3\xa9' a
}

@test "option: '---' alone is an unrecognized option" {
	same_as_gnu -- --- a
	gnu_stderr_has "unrecognized option '---'"
}

@test "option: ambiguous prefixes with an empty argument (--t=, --s=, --=)" {
	same_as_gnu_each -- '--t=' '--s=' '--st=' ::: a
	same_as_gnu -- --t= a
	gnu_stderr_has "option '--t=' is ambiguous; possibilities: '--tag' '--text'"
	same_as_gnu -- --= a
	gnu_stderr_is "md5sum: option '--=' is ambiguous; possibilities:$(printf " '--%s'" "${GNU_LONGS[@]}")"$'\nTry \'md5sum --help\' for more information.\n'
}

@test "option: an abbreviation given an argument names the full option (--ch=x, --st=x is ambiguous)" {
	same_as_gnu -- --ch=x a
	gnu_stderr_has "option '--check' doesn't allow an argument"
	same_as_gnu_each -- '--i=1' '--q=' '--stat=x' '--str=1' '--w=1' '--ver=1' '--he=' ::: a
}

@test "option: only the first bad option is reported" {
	same_as_gnu_each -- '--bogus -x' '-x --bogus' '--t --tag=1' '-bxy' '--tag=1 --t' ::: a
}

@test "option: an option given again, in every form, is fine" {
	same_as_gnu_each -- '-b -b' '-bb' '--binary -b --bin' '-zz --zero' ::: a
}

@test "program name: getopt's messages use argv[0] as given, the Try line the libtool name" {
	same_as_gnu_sh -- 'exec -a /x/.libs/lt-md5sum md5sum -x'
	gnu_stderr_is $'/x/.libs/lt-md5sum: invalid option -- \'x\'\nTry \'md5sum --help\' for more information.\n'
	same_as_gnu_sh -- 'exec -a /x/.libs/lt-md5sum md5sum --t'
	same_as_gnu_sh -- 'exec -a /x/.libs/lt-md5sum md5sum --tag=1'
	same_as_gnu_sh -- 'exec -a "" md5sum --bogus'
}

# -j and --jobs are ours: GNU has no such option.  jobs_same_as_gnu OURS...
# -- GNU...: ours run with the arguments before "--", GNU with those after
# it, the same but for -j; stdout, stderr and exit status must match.
jobs_same_as_gnu() {
	local ours=() rc=0 grc=0
	while [[ $1 != -- ]]; do
		ours+=("$1")
		shift
	done
	shift
	[[ $OURS != "$(realpath -- "$GNU_MD5SUM")" ]] || skip "GNU md5sum has no -j"
	PATH=$GNU_BIN:$PATH md5sum "$@" >"$RES/gnu.out" 2>"$RES/gnu.err" </dev/null || grc=$?
	PATH=$OUR_BIN:$PATH md5sum "${OUR_EXTRA[@]}" "${ours[@]}" >"$RES/our.out" 2>"$RES/our.err" </dev/null || rc=$?
	if [[ $rc != "$grc" ]] || ! cmp -s "$RES/gnu.out" "$RES/our.out" ||
		! cmp -s "$RES/gnu.err" "$RES/our.err"; then
		printf 'MISMATCH: ours %s, GNU %s\n' "$(_diff_q "${ours[@]}")" "$(_diff_q "$@")"
		diff -u "$RES/gnu.out" "$RES/our.out"
		diff -u "$RES/gnu.err" "$RES/our.err"
		echo "exit status: gnu=$grc ours=$rc"
		return 1
	fi >&2
}

# What ours alone says, on stderr, and its exit status.
ours_says() {
	local rc=0
	[[ $OURS != "$(realpath -- "$GNU_MD5SUM")" ]] || skip "GNU md5sum has no -j"
	PATH=$OUR_BIN:$PATH md5sum "${OUR_EXTRA[@]}" "${@:3}" >/dev/null 2>"$RES/our.err" </dev/null || rc=$?
	assert_equal "$rc" "$1"
	assert_equal "$(<"$RES/our.err")" "$2"
}

@test "jobs option: -j N, -jN, --jobs=N, --jobs N, --jo N, -bj2, and after file names" {
	printf '%s  a\n' "$HA" >list
	jobs_same_as_gnu -j 2 a e h -- a e h
	jobs_same_as_gnu -j2 a e h -- a e h
	jobs_same_as_gnu --jobs=3 a e h -- a e h
	jobs_same_as_gnu --jobs 3 a e h -- a e h
	jobs_same_as_gnu --jo 1 a e h -- a e h
	jobs_same_as_gnu --j=1 a nope h -- a nope h
	jobs_same_as_gnu -bj2 a e -- -b a e
	jobs_same_as_gnu a -j 2 e -- a e
	jobs_same_as_gnu a -zj1 e -- -z a e
	jobs_same_as_gnu -j +2 a --jobs 1 e -- a e
	jobs_same_as_gnu -cj2 list -- -c list
}

@test "jobs option: a missing argument, in glibc's words" {
	ours_says 1 $'md5sum: option requires an argument -- \'j\'\nTry \'md5sum --help\' for more information.' a -j
	ours_says 1 $'md5sum: option requires an argument -- \'j\'\nTry \'md5sum --help\' for more information.' a -bj
	ours_says 1 $'md5sum: option \'--jobs\' requires an argument\nTry \'md5sum --help\' for more information.' a --jobs
	ours_says 1 $'md5sum: option \'--jobs\' requires an argument\nTry \'md5sum --help\' for more information.' a --jo
}

@test "jobs option: the argument is the next word, whatever it holds" {
	ours_says 1 $'md5sum: invalid number of jobs: \'--\'\nTry \'md5sum --help\' for more information.' -j -- a
	ours_says 1 $'md5sum: invalid number of jobs: \'-b\'\nTry \'md5sum --help\' for more information.' --jobs -b a
	ours_says 1 $'md5sum: invalid number of jobs: \'\'\nTry \'md5sum --help\' for more information.' --jobs= a
	ours_says 1 $'md5sum: invalid number of jobs: \'b\'\nTry \'md5sum --help\' for more information.' -jb a
	ours_says 1 $'md5sum: invalid number of jobs: \'257\'\nTry \'md5sum --help\' for more information.' -j 257 a
}

# gnu_rejects ARG: GNU says it has no such option.
gnu_rejects() {
	local rc=0
	PATH=$GNU_BIN:$PATH md5sum "$1" >/dev/null 2>"$RES/gnu.err" </dev/null || rc=$?
	assert_equal "$rc" 1
	assert_equal "$(head -n 1 "$RES/gnu.err")" "md5sum: unrecognized option '$1'"
}

@test "our options: reached by every prefix, which GNU rejects as unrecognized" {
	local name i
	for name in jobs disk progress; do
		for ((i = 1; i <= ${#name}; i++)); do
			gnu_rejects "--${name:0:i}"
		done
	done
	jobs_same_as_gnu --j 2 a e h -- a e h
	jobs_same_as_gnu --j=1 a e -- a e
	jobs_same_as_gnu a --j 2 e -- a e
	jobs_same_as_gnu --d ssd a e -- a e
	jobs_same_as_gnu --d=hdd a e -- a e
	jobs_same_as_gnu --p a e -- a e
	jobs_same_as_gnu --p --j 1 --d hdd --t= a -- --t= a
	POSIXLY_CORRECT=1 jobs_same_as_gnu --j 2 a --p -- a --p
	local try=$'\nTry \'md5sum --help\' for more information.'
	ours_says 1 "md5sum: option '--jobs' requires an argument$try" a --j
	ours_says 1 "md5sum: option '--disk' requires an argument$try" a --d
	ours_says 1 "md5sum: option '--progress' doesn't allow an argument$try" --p=1 a
}

@test "disk option: --disk=hdd, ssd and auto, prefixes, and MD5SUM_DISK, print what GNU prints" {
	printf '%s  a\n%s  nope\n' "$HA" "$HA" >list
	local d
	for d in hdd ssd auto h s a; do
		jobs_same_as_gnu --disk=$d a e h nope -- a e h nope
		jobs_same_as_gnu --disk $d -j1 a e h -- a e h
		jobs_same_as_gnu --di=$d -c list -- -c list
		MD5SUM_DISK=$d jobs_same_as_gnu a e h -- a e h
	done
	MD5SUM_DISK=nonsense jobs_same_as_gnu --disk=ssd a e -- a e
}

@test "disk option: a wrong or ambiguous kind is refused as coreutils refuses such arguments" {
	local valid=$'\nValid arguments are:\n  - \'auto\'\n  - \'hdd\'\n  - \'ssd\'\nTry \'md5sum --help\' for more information.'
	LC_ALL=C ours_says 1 "md5sum: invalid argument 'flash' for '--disk'$valid" --disk=flash a
	LC_ALL=C ours_says 1 "md5sum: invalid argument 'HDD' for '--disk'$valid" --disk HDD a
	LC_ALL=C ours_says 1 "md5sum: ambiguous argument '' for '--disk'$valid" --disk= a
	LC_ALL=C MD5SUM_DISK=tape ours_says 1 "md5sum: invalid argument 'tape' for 'MD5SUM_DISK'$valid" a
	# In a UTF-8 locale, gnulib's quote() quotes with '‘' and '’', as ls
	# --color=x does.
	valid=${valid//\'auto\'/‘auto’}
	valid=${valid//\'hdd\'/‘hdd’}
	valid=${valid//\'ssd\'/‘ssd’}
	LC_ALL=C.UTF-8 ours_says 1 "md5sum: invalid argument ‘flash’ for ‘--disk’$valid" --disk=flash a
	ours_says 1 $'md5sum: option \'--disk\' requires an argument\nTry \'md5sum --help\' for more information.' a --disk
}

@test "progress option: --progress and its prefixes print what GNU prints without it" {
	printf '%s  a\n%s  nope\n' "$HA" "$HA" >list
	jobs_same_as_gnu --progress a e h nope -- a e h nope
	jobs_same_as_gnu --pro -c list -- -c list
	jobs_same_as_gnu --p --progress -w -c list -- -w -c list
	jobs_same_as_gnu a --progress -j1 e -- a e
}

@test "progress option: it takes no argument, in glibc's words" {
	local try=$'\nTry \'md5sum --help\' for more information.'
	ours_says 1 "md5sum: option '--progress' doesn't allow an argument$try" --progress=1 a
	ours_says 1 "md5sum: option '--progress' doesn't allow an argument$try" --pr= a
	ours_says 1 "md5sum: unrecognized option '--progresss'$try" --progresss a
}

# ----------------------------------------------------- invalid combinations

@test "invalid: --tag -c" {
	same_as_gnu -- --tag -c a
	gnu_stderr_is $'md5sum: the --tag option is meaningless when verifying checksums\nTry \'md5sum --help\' for more information.\n'
	gnu_status_is 1
}

@test "invalid: -c --tag" {
	same_as_gnu -- -c --tag a
	gnu_stderr_has 'the --tag option is meaningless when verifying checksums'
}

@test "invalid: -z -c" {
	same_as_gnu -- -z -c a
	gnu_stderr_is $'md5sum: the --zero option is not supported when verifying checksums\nTry \'md5sum --help\' for more information.\n'
}

@test "invalid: -c -z and -zc" {
	same_as_gnu_each -- '-c -z' '-zc' '-cz' '--check --zero' ::: a
}

@test "invalid: --tag -t" {
	same_as_gnu -- --tag -t a
	gnu_stderr_is $'md5sum: --tag does not support --text mode\nTry \'md5sum --help\' for more information.\n'
	gnu_status_is 1
}

@test "invalid: --tag -b -t (text last)" {
	same_as_gnu -- --tag -b -t a
	gnu_stderr_has '--tag does not support --text mode'
}

@test "invalid: --tag -t -b is fine (binary last)" {
	same_as_gnu -- --tag -t -b a
	gnu_status_is 0
}

@test "invalid: -c -b" {
	same_as_gnu -- -c -b a
	gnu_stderr_is $'md5sum: the --binary and --text options are meaningless when verifying checksums\nTry \'md5sum --help\' for more information.\n'
}

@test "invalid: -c -t" {
	same_as_gnu -- -c -t a
	gnu_stderr_has 'the --binary and --text options are meaningless when verifying checksums'
}

@test "invalid: -b -c and --text --check" {
	same_as_gnu_each -- '-b -c' '--text --check' '-bc' '-tc' ::: a
}

@test "invalid: --quiet without -c" {
	same_as_gnu -- --quiet a
	gnu_stderr_is $'md5sum: the --quiet option is meaningful only when verifying checksums\nTry \'md5sum --help\' for more information.\n'
	gnu_stdout_empty
}

@test "invalid: --status without -c" {
	same_as_gnu -- --status a
	gnu_stderr_has 'the --status option is meaningful only when verifying checksums'
}

@test "invalid: --strict without -c" {
	same_as_gnu -- --strict a
	gnu_stderr_has 'the --strict option is meaningful only when verifying checksums'
}

@test "invalid: --warn without -c" {
	same_as_gnu -- --warn a
	gnu_stderr_has 'the --warn option is meaningful only when verifying checksums'
}

@test "invalid: -w without -c" {
	same_as_gnu -- -w a
	gnu_stderr_has 'the --warn option is meaningful only when verifying checksums'
}

@test "invalid: --ignore-missing without -c" {
	same_as_gnu -- --ignore-missing a
	gnu_stderr_has 'the --ignore-missing option is meaningful only when verifying checksums'
}

@test "invalid: check-only options without -c, with no files (stdin)" {
	same_as_gnu_each --stdin a -- '--quiet' '--status' '--strict' '--warn' '--ignore-missing'
}

@test "invalid: check-only options without -c, with a missing file" {
	same_as_gnu_each -- '--quiet' '--status' '--strict' '--warn' '--ignore-missing' ::: nope
}

@test "invalid precedence: --ignore-missing is reported before --warn/--quiet/--status/--strict" {
	same_as_gnu_each -- '--warn --ignore-missing' '--ignore-missing --warn' '--quiet --ignore-missing' \
		'--status --ignore-missing' '--strict --ignore-missing' ::: a
	same_as_gnu -- --strict --status --quiet --warn --ignore-missing a
	gnu_stderr_has 'the --ignore-missing option'
}

@test "invalid precedence: the last of --warn/--quiet/--status is the one reported" {
	same_as_gnu_each -- '--warn --quiet' '--quiet --warn' '--warn --status' '--status --warn' \
		'--quiet --status' '--status --quiet' '-w --status --quiet' ::: a
	same_as_gnu -- --status --warn a
	gnu_stderr_has 'the --warn option'
}

@test "invalid precedence: --strict is reported after --warn/--quiet/--status" {
	same_as_gnu_each -- '--strict --warn' '--strict --quiet' '--strict --status' '--status --strict' ::: a
	same_as_gnu -- --strict --quiet a
	gnu_stderr_has 'the --quiet option'
}

@test "invalid precedence: --tag --text beats --zero with -c" {
	same_as_gnu -- -c --tag -t -z a
	gnu_stderr_has '--tag does not support --text mode'
}

@test "invalid precedence: --zero beats --tag with -c" {
	same_as_gnu -- -c --tag -z a
	gnu_stderr_has 'the --zero option is not supported'
}

@test "invalid precedence: --tag beats --binary with -c" {
	same_as_gnu -- -c -b --tag a
	gnu_stderr_has 'the --tag option is meaningless'
}

@test "invalid precedence: -c -t --tag reports --tag (tag clears text)" {
	same_as_gnu -- -c -t --tag a
	gnu_stderr_has 'the --tag option is meaningless'
}

@test "invalid precedence: --zero beats --binary with -c" {
	same_as_gnu -- -c -b -z a
	gnu_stderr_has 'the --zero option is not supported'
}

@test "invalid precedence: --tag --text beats check-only options" {
	same_as_gnu -- --tag -t --quiet a
	gnu_stderr_has '--tag does not support --text mode'
}

@test "invalid precedence: -z is fine without -c, so --quiet is reported" {
	same_as_gnu -- -z --quiet a
	gnu_stderr_has 'the --quiet option'
}

@test "invalid precedence: -b/-t with -c beat nothing else: -c -b --quiet" {
	same_as_gnu -- -c -b --quiet a
	gnu_stderr_has 'the --binary and --text options'
}

@test "invalid: many invalid combinations all differ-checked" {
	same_as_gnu_each -- '--tag -c' '-c --tag -b' '-c --tag --zero' '-z -c -t' '-c -t -z' \
		'--tag -t -z' '--tag --text -c' '-b --quiet' '-t --status' '-z --strict' \
		'--tag --warn' '--tag -t --ignore-missing' '-c -b -t -z --tag' ::: a
}

# ------------------------------------------------------------ help/version

@test "--help exits 0 and prints to stdout" {
	same_exit_as_gnu_nonempty_stdout -- --help
}

@test "--version exits 0 and prints to stdout" {
	same_exit_as_gnu_nonempty_stdout -- --version
}

@test "--help abbreviated (--he, --h)" {
	same_exit_as_gnu_nonempty_stdout -- --he
	same_exit_as_gnu_nonempty_stdout -- --h
}

@test "--version abbreviated (--v, --ver)" {
	same_exit_as_gnu_nonempty_stdout -- --v
	same_exit_as_gnu_nonempty_stdout -- --ver
}

@test "--help wins over invalid combinations that come before it" {
	same_exit_as_gnu_nonempty_stdout -- --tag -t -c --help
	same_exit_as_gnu_nonempty_stdout -- --quiet --help
}

@test "--help and --version with file operands and missing files" {
	same_exit_as_gnu_nonempty_stdout -- nope --help
	same_exit_as_gnu_nonempty_stdout -- --version nope
	same_exit_as_gnu_nonempty_stdout -- -c nope --version
}

@test "--help then --version, and --version then --help" {
	same_exit_as_gnu_nonempty_stdout -- --help --version
	same_exit_as_gnu_nonempty_stdout -- --version --help
}

@test "--help after an unknown option: the unknown option wins (exact output)" {
	same_as_gnu -- --bogus --help
	gnu_status_is 1
	gnu_stdout_empty
}

@test "--version after an unknown short option: exact output" {
	same_as_gnu -- -y --version
	gnu_status_is 1
}

# ---------------------------------------------------------- file errors

@test "error: missing file" {
	same_as_gnu -- nope
	gnu_stderr_is $'md5sum: nope: No such file or directory\n'
	gnu_status_is 1
	gnu_stdout_empty
}

@test "error: missing file among good ones still hashes the others" {
	same_as_gnu -- a nope e
	gnu_stdout_is "$HA  a"$'\n'"$HE  e"$'\n'
	gnu_status_is 1
}

@test "error: two missing files" {
	same_as_gnu -- nope1 a nope2
}

@test "error: directory" {
	mkdir d
	same_as_gnu -- d
	gnu_stderr_is $'md5sum: d: Is a directory\n'
	gnu_status_is 1
}

@test "error: directory among files" {
	mkdir d
	same_as_gnu -- a d e
	gnu_status_is 1
}

@test "error: directory with --tag and with -z" {
	mkdir d
	same_as_gnu_each -- '--tag' '-z' '-b' ::: d a
}

@test "error: directory with a trailing slash" {
	mkdir d
	same_as_gnu -- d/
}

@test "error: regular file used as a directory (a/x and a/)" {
	same_as_gnu -- a/x a/
	gnu_stderr_is $'md5sum: a/x: Not a directory\nmd5sum: a/: Not a directory\n'
}

@test "error: dangling symlink" {
	ln -s nowhere dangling
	same_as_gnu -- dangling a
	gnu_stderr_has 'md5sum: dangling: No such file or directory'
}

@test "error: stdin is a directory" {
	mkdir d
	same_as_gnu --stdin d -- -
	gnu_stderr_is $'md5sum: -: Is a directory\n'
}

@test "error: stdin is a directory, no arguments" {
	mkdir d
	same_as_gnu --stdin d --
}

@test "error: stdin closed, no arguments" {
	same_as_gnu --stdin-closed --
	gnu_stderr_has 'md5sum: -: Bad file descriptor'
	gnu_status_is 1
}

@test "error: stdin closed, '-' among files" {
	same_as_gnu --stdin-closed -- a - e
}

@test "error: stdin closed but not used is not an error" {
	same_as_gnu --stdin-closed -- a e
	gnu_status_is 0
	gnu_stderr_empty
}

@test "error: stdin closed with --tag -" {
	same_as_gnu --stdin-closed -- --tag -
}

@test "error: read error (EIO) from /proc/self/mem" {
	[[ -r /proc/self/mem ]] || skip "/proc/self/mem not available"
	(cat /proc/self/mem >/dev/null 2>&1) && skip "/proc/self/mem is readable here"
	same_as_gnu -- /proc/self/mem a
	gnu_status_is 1
	gnu_stdout_is "$HA  a"$'\n'
}

@test "error: unreadable file (permission denied)" {
	printf 'secret' >unreadable
	chmod 000 unreadable
	if ! cat unreadable >/dev/null 2>&1; then
		same_as_gnu -- a unreadable e
	else # root: run both as nobody
		nobody_env a e unreadable
		same_as_gnu_sh --cwd "$NOBODY_W" -- "exec $AS_NOBODY md5sum a unreadable e"
	fi
	gnu_stderr_is $'md5sum: unreadable: Permission denied\n'
	gnu_stdout_is "$HA  a"$'\n'"$HE  e"$'\n'
	gnu_status_is 1
}

@test "error: empty-string file name" {
	same_as_gnu -- ''
	gnu_stderr_is $'md5sum: \'\': No such file or directory\n'
}

@test "error: empty-string file name among others" {
	same_as_gnu -- a '' e
}

@test "error: very long file name (ENAMETOOLONG)" {
	same_as_gnu -- "$(printf 'n%.0s' $(seq 1 300))"
	gnu_status_is 1
}

@test "error: missing file with stdout to /dev/null still exits 1" {
	same_as_gnu_sh -- 'md5sum nope >/dev/null; echo "rc=$?"'
}

@test "error: missing file with stderr closed" {
	same_as_gnu_sh -- 'md5sum a nope 2>&-; echo "rc=$?"'
}

# ------------------------------------------- file names: output escaping

@test "name: space" {
	printf 'abc' >'sp ace'
	same_as_gnu -- 'sp ace'
	gnu_stdout_is "$HA  sp ace"$'\n'
}

@test "name: backslash is escaped and the line starts with a backslash" {
	printf 'abc' >'back\slash'
	same_as_gnu -- 'back\slash'
	gnu_stdout_is "\\$HA  back\\\\slash"$'\n'
}

@test "name: newline is escaped as \\n" {
	printf 'abc' >$'new\nline'
	same_as_gnu -- $'new\nline'
	gnu_stdout_is "\\$HA  new\\nline"$'\n'
}

@test "name: carriage return is escaped as \\r" {
	printf 'abc' >$'cr\rx'
	same_as_gnu -- $'cr\rx'
	gnu_stdout_is "\\$HA  cr\\rx"$'\n'
}

@test "name: backslash followed by newline" {
	printf 'abc' >$'b\\\nx'
	same_as_gnu -- $'b\\\nx'
	gnu_stdout_is "\\$HA  b\\\\\\nx"$'\n'
}

@test "name: CR LF in a name" {
	printf 'abc' >$'crlf\r\n'
	same_as_gnu -- $'crlf\r\n'
}

@test "name: tab is not escaped" {
	printf 'abc' >$'t\tab'
	same_as_gnu -- $'t\tab'
	gnu_stdout_is "$HA  t"$'\t'"ab"$'\n'
}

@test "name: quotes, dollar, backquote, glob characters are not escaped" {
	local n
	for n in "q'uote" 'd"quote' 'dol$lar' 'back`q' 'st*r' 'qu?' '[br]' 'semi;colon' 'a|b' 'a&b' '#hash' '~tilde' 'x=y' '(p)' '{b}'; do
		printf 'abc' >"$n"
	done
	same_as_gnu -- "q'uote" 'd"quote' 'dol$lar' 'back`q' 'st*r' 'qu?' '[br]' 'semi;colon' 'a|b' 'a&b' '#hash' '~tilde' 'x=y' '(p)' '{b}'
	gnu_stdout_has "$HA  dol\$lar"
}

@test "name: control characters (\\001, ESC, DEL) are not escaped" {
	printf 'abc' >$'c\001x'
	printf 'abc' >$'e\033[0m'
	printf 'abc' >$'d\177'
	same_as_gnu -- $'c\001x' $'e\033[0m' $'d\177'
}

@test "name: valid UTF-8" {
	printf 'abc' >'ütf-8 ☃'
	same_as_gnu -- 'ütf-8 ☃'
	gnu_stdout_is "$HA  ütf-8 ☃"$'\n'
}

@test "name: invalid UTF-8 bytes are printed raw" {
	printf 'abc' >$'bad\377\300x'
	same_as_gnu -- $'bad\377\300x'
}

@test "name: leading dash, reached with --" {
	printf 'abc' >-lead
	same_as_gnu -- -- -lead
	gnu_stdout_is "$HA  -lead"$'\n'
}

@test "name: leading dash, reached with ./" {
	printf 'abc' >-lead
	same_as_gnu -- ./-lead
}

@test "name: leading and trailing spaces" {
	printf 'abc' >'  lead'
	printf 'abc' >'trail  '
	same_as_gnu -- '  lead' 'trail  '
}

@test "name: starting with '*' (looks like a binary marker)" {
	printf 'abc' >'*star'
	same_as_gnu -- '*star'
	same_as_gnu -- -b '*star'
}

@test "name: that looks like a tag line" {
	printf 'abc' >"MD5 (x) = $HA"
	same_as_gnu -- "MD5 (x) = $HA"
	same_as_gnu -- --tag "MD5 (x) = $HA"
}

@test "name: parentheses and ') = ' in --tag mode" {
	printf 'abc' >'p) = q'
	same_as_gnu -- --tag 'p) = q'
	gnu_stdout_is "MD5 (p) = q) = $HA"$'\n'
}

@test "name escaping: special names with -b" {
	printf 'abc' >'back\slash'
	printf 'abc' >$'new\nline'
	printf 'abc' >$'cr\rx'
	same_as_gnu -- -b 'back\slash' $'new\nline' $'cr\rx' a
	gnu_stdout_has "\\$HA *back\\\\slash"
}

@test "name escaping: --tag escapes backslash, newline and CR" {
	printf 'abc' >'back\slash'
	printf 'abc' >$'new\nline'
	printf 'abc' >$'cr\rx'
	same_as_gnu -- --tag 'back\slash' $'new\nline' $'cr\rx'
	gnu_stdout_is "\\MD5 (back\\\\slash) = $HA"$'\n'"\\MD5 (new\\nline) = $HA"$'\n'"\\MD5 (cr\\rx) = $HA"$'\n'
}

@test "name escaping: -z does not escape anything" {
	printf 'abc' >'back\slash'
	printf 'abc' >$'new\nline'
	printf 'abc' >$'cr\rx'
	same_as_gnu -- -z 'back\slash' $'new\nline' $'cr\rx'
	[[ $(LC_ALL=C tr '\0\n' 'ZN' <"$GNU_OUT") == "$HA  back\\slashZ$HA  newNlineZ$HA  cr"$'\r'"xZ" ]]
}

@test "name escaping: --tag -z does not escape anything" {
	printf 'abc' >'back\slash'
	printf 'abc' >$'new\nline'
	same_as_gnu -- --tag -z 'back\slash' $'new\nline'
	[[ $(head -c 3 "$GNU_OUT") == MD5 ]]
}

@test "name escaping: -z -b with special names" {
	printf 'abc' >$'new\nline'
	printf 'abc' >'back\slash'
	same_as_gnu -- -z -b $'new\nline' 'back\slash'
}

@test "name escaping: stdin '-' is never escaped" {
	same_as_gnu --stdin a -- - --tag
}

# -------------------------------------- file names: quoting in error messages

@test "error quoting: space" {
	same_as_gnu -- 'no such'
	gnu_stderr_is $'md5sum: \'no such\': No such file or directory\n'
}

@test "error quoting: single quote uses double quotes" {
	same_as_gnu -- "it's"
	gnu_stderr_is $'md5sum: "it\'s": No such file or directory\n'
}

@test "error quoting: double quote" {
	same_as_gnu -- 'say"x'
	gnu_stderr_is $'md5sum: \'say"x\': No such file or directory\n'
}

@test "error quoting: both quote kinds" {
	same_as_gnu -- "a'b\"c"
	gnu_stderr_is $'md5sum: \'a\'\\\'\'b"c\': No such file or directory\n'
}

@test "error quoting: newline and tab use \$'...'" {
	same_as_gnu -- $'new\nl' $'t\tb'
	gnu_stderr_is $'md5sum: \'new\'$\'\\n\'\'l\': No such file or directory\nmd5sum: \'t\'$\'\\t\'\'b\': No such file or directory\n'
}

@test "error quoting: CR, ESC, DEL and \\001" {
	same_as_gnu -- $'c\rr' $'e\033' $'d\177' $'\001'
}

@test "error quoting: backslash" {
	same_as_gnu -- 'b\s'
	gnu_stderr_is $'md5sum: \'b\\s\': No such file or directory\n'
}

@test "error quoting: shell metacharacters" {
	local n
	same_as_gnu -- 'dol$x' 'a*' 'q?' '[' ']' '!' '{a}' 'a,b' '%' '^' '@' '+' ':' 'a:b' '~x' 'x~' '#x' 'x#' 'a=b' '=a' 'a|b' 'a&b' 'a;b' 'a<b' '(a)' 'a`b' '$'
	gnu_stderr_has "md5sum: 'dol\$x': No such"
	gnu_stderr_has "md5sum: x~: No such"
}

@test "error quoting: plain names with - . _ / are not quoted" {
	same_as_gnu -- no-such_file.txt dir/no.file --x-- -- -y
}

@test "error quoting: valid UTF-8 is not quoted in a UTF-8 locale" {
	same_as_gnu -- 'ütf' 'snow☃man'
	gnu_stderr_is $'md5sum: ütf: No such file or directory\nmd5sum: snow☃man: No such file or directory\n'
}

@test "error quoting: invalid UTF-8 is quoted with octal escapes" {
	same_as_gnu -- $'bad\377' $'\303' $'x\303(y'
	gnu_stderr_has "md5sum: 'bad'\$'\\377': No such file or directory"
}

@test "error quoting: non-printable Unicode (U+2028) is escaped" {
	same_as_gnu -- $'ls\342\200\250x'
}

@test "error quoting: in the C locale non-ASCII bytes are escaped" {
	LC_ALL=C same_as_gnu -- 'ütf'
	gnu_stderr_is $'md5sum: \'\'$\'\\303\\274\'\'tf\': No such file or directory\n'
}

@test "error quoting: in the C locale invalid UTF-8 and control characters" {
	LC_ALL=C same_as_gnu -- $'bad\377' $'t\tb' 'sp ace'
}

@test "name: UTF-8 output is raw in the C locale too" {
	printf 'abc' >'ütf'
	LC_ALL=C same_as_gnu -- 'ütf' --tag
}

# ------------------------------------------------------ program name

@test "program name: error prefix is argv[0] as invoked (./dir/md5sum)" {
	same_as_gnu_sh -- 'exec -a ./x/md5sum md5sum nope'
	gnu_stderr_is $'./x/md5sum: nope: No such file or directory\n'
}

@test "program name: usage error and Try line use argv[0]" {
	same_as_gnu_sh -- 'exec -a "my prog" md5sum --tag -c'
	gnu_stderr_is $'my prog: the --tag option is meaningless when verifying checksums\nTry \'my prog --help\' for more information.\n'
}

@test "program name: getopt messages use argv[0]" {
	same_as_gnu_sh -- 'exec -a /opt/bin/md5sum md5sum --bogus'
}

@test "program name: libtool-style argv[0] (/x/.libs/lt-md5sum)" {
	same_as_gnu_sh -- 'exec -a /x/.libs/lt-md5sum md5sum --bogus; '
	same_as_gnu_sh -- 'exec -a /x/.libs/lt-md5sum md5sum nope'
}

# ----------------------------------------------------------- output errors

@test "output error: stdout is /dev/full" {
	need_dev_full
	same_as_gnu_sh -- 'md5sum a >/dev/full; echo "rc=$?"'
	gnu_stdout_is $'rc=1\n'
	gnu_stderr_is $'md5sum: write error\n'
}

@test "output error: /dev/full with many files keeps going and reports later errors" {
	need_dev_full
	same_as_gnu_sh -- 'md5sum $(seq 1 300 | sed "s/.*/a/") nope >/dev/full; echo "rc=$?"'
	gnu_stderr_is $'md5sum: nope: No such file or directory\nmd5sum: write error\n'
}

@test "output error: /dev/full with --tag and -z" {
	need_dev_full
	same_as_gnu_sh -- 'md5sum --tag a >/dev/full; echo "rc=$?"; md5sum -z a e >/dev/full; echo "rc=$?"'
}

@test "output error: /dev/full when nothing is written is not an error" {
	need_dev_full
	same_as_gnu_sh -- 'md5sum nope >/dev/full; echo "rc=$?"'
	gnu_stderr_is $'md5sum: nope: No such file or directory\n'
}

@test "output error: stdout closed" {
	same_as_gnu_sh -- 'md5sum a >&-; echo "rc=$?" >&2'
	gnu_stderr_is $'md5sum: write error: Bad file descriptor\nrc=1\n'
}

@test "output error: stdout closed and a missing file" {
	same_as_gnu_sh -- 'md5sum nope a >&-; echo "rc=$?" >&2'
}

@test "output error: stdout closed, nothing written" {
	same_as_gnu_sh -- 'md5sum nope >&-; echo "rc=$?" >&2'
}

@test "output error: stdout and stderr both closed" {
	same_as_gnu_sh -- 'md5sum a >&- 2>&-; echo "rc=$?"'
}

@test "output error: --help to /dev/full (exit status and stderr only)" {
	need_dev_full
	same_as_gnu_sh -- 'md5sum --help >/dev/full; echo "rc=$?"'
	gnu_stdout_is $'rc=1\n'
}

@test "output error: --help with stdout closed" {
	same_as_gnu_sh -- 'md5sum --help >&-; echo "rc=$?"'
	gnu_stderr_is $'md5sum: write error: Bad file descriptor\n'
}

@test "output error: --version with stdout closed (exit status and stderr only)" {
	same_as_gnu_sh -- 'md5sum --version >&-; echo "rc=$?"'
}

@test "output error: usage error with stdout closed" {
	same_as_gnu_sh -- 'md5sum --bogus >&-; echo "rc=$?"'
}

@test "output error: | head -n1 with many files, default SIGPIPE (exit status via PIPESTATUS)" {
	same_as_gnu_sh -- 'env --default-signal=PIPE md5sum $(seq 1 10000 | sed "s/.*/a/") | head -n1; echo "md5sum=${PIPESTATUS[0]} head=${PIPESTATUS[1]}"'
	gnu_stdout_is "$HA  a"$'\n'"md5sum=141 head=0"$'\n'
}

@test "output error: | head -n1 with many files, SIGPIPE ignored" {
	same_as_gnu_sh -- 'trap "" PIPE; md5sum $(seq 1 10000 | sed "s/.*/a/") | head -n1; echo "md5sum=${PIPESTATUS[0]} head=${PIPESTATUS[1]}"'
	gnu_stdout_is "$HA  a"$'\n'"md5sum=1 head=0"$'\n'
	gnu_stderr_is $'md5sum: write error\n'
}

@test "output error: | head -n1, SIGPIPE ignored: keeps going, later errors still reported" {
	same_as_gnu_sh -- 'trap "" PIPE; md5sum $(seq 1 10000 | sed "s/.*/a/") nope | head -n1; echo "md5sum=${PIPESTATUS[0]}"'
	gnu_stderr_is $'md5sum: nope: No such file or directory\nmd5sum: write error\n'
}

@test "output error: | head -n1 with --tag, SIGPIPE ignored" {
	same_as_gnu_sh -- 'trap "" PIPE; md5sum --tag $(seq 1 10000 | sed "s/.*/e/") | head -n1; echo "${PIPESTATUS[*]}"'
}

# ------------------------------------- interleaving of stdout and stderr

@test "ordering: stdout and stderr interleave per file (2>&1)" {
	same_as_gnu_sh -- 'md5sum a nope e nope2 h 2>&1'
	gnu_stdout_is "$HA  a"$'\n'"md5sum: nope: No such file or directory"$'\n'"$HE  e"$'\n'"md5sum: nope2: No such file or directory"$'\n'"$HH  h"$'\n'
}

@test "ordering: stdout and stderr interleave per file with output to a regular file" {
	same_as_gnu_sh -- 'md5sum a nope e >"$SCRATCH/o" 2>&1; cat "$SCRATCH/o"'
}

@test "ordering: two md5sum processes writing to one pipe at once never mix their lines" {
	mkdir t
	(cd t && seq 1 400 | xargs touch)
	# 4 runs of 400 names, 2 at a time, all into one pipe: every line must
	# come out whole (GNU writes one line per write(2))
	same_as_gnu_sh -- '
		for i in 1 2 3 4; do printf "t/%s\n" $(seq 1 400); done |
			xargs -n 400 -P 2 md5sum 2>"$SCRATCH/err" | cat >"$SCRATCH/out"
		echo "status: ${PIPESTATUS[*]}"
		echo "lines: $(wc -l <"$SCRATCH/out")"
		echo "not whole: $(grep -cvx "$HE  t/[0-9]*" "$SCRATCH/out")"
		cat "$SCRATCH/err"'
	gnu_stdout_is $'status: 0 0 0\nlines: 1600\nnot whole: 0\n'
}

# ------------------------- read faults injected with strace, main thread only
# As a test of GNU's would run it: strace -o /dev/null -P FILE -e
# inject=read:error=EIO md5sum ..., without -f (see same_as_gnu_read_eio).
# GNU reads every file in its only thread, so each read of FILE fails.

@test "strace read fault: one file, default jobs: 'a: Input/output error', no line, exit 1" {
	need_strace_inject
	same_as_gnu_read_eio '' a a
	gnu_stdout_empty
	gnu_stderr_is $'md5sum: a: Input/output error\n'
	gnu_status_is 1
}

@test "strace read fault: one file, -j1: 'a: Input/output error', no line, exit 1" {
	need_strace_inject
	same_as_gnu_read_eio 1 a a
	gnu_stdout_empty
	gnu_stderr_is $'md5sum: a: Input/output error\n'
	gnu_status_is 1
}

@test "strace read fault: two files, default jobs: the other is still hashed, exit 1" {
	need_strace_inject
	same_as_gnu_read_eio '' a a h
	gnu_stdout_is "$HH  h"$'\n'
	gnu_stderr_is $'md5sum: a: Input/output error\n'
	gnu_status_is 1
}

@test "strace read fault: two files, -j1: the other is still hashed, exit 1" {
	need_strace_inject
	same_as_gnu_read_eio 1 a a h
	gnu_stdout_is "$HH  h"$'\n'
	gnu_stderr_is $'md5sum: a: Input/output error\n'
	gnu_status_is 1
}
