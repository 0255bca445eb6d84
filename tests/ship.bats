#!/usr/bin/env bats
# ship.bats - what a user gets besides the command: the manual page, make
# install and make uninstall, the documents (README.md within its size and
# with the test command that CI runs; the links of README.md and doc/*.md),
# the library example of doc/library.md, and the static binary of make
# static.  A test whose tool is missing (groff, musl-gcc, readelf, cc, GNU
# md5sum) skips and says which.
#
# The static binary gets a representative part of the differential suite
# here: every SIMD engine it has, hashing, -c, threads and pipes, compared
# with GNU byte for byte.  The whole suite takes minutes; "make
# check-static" runs it.

bats_require_minimum_version 1.5.0

load diff_helper

ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
BIN=$ROOT/build/md5sum
PAGE=$ROOT/md5sum.1
STATIC=$ROOT/build/md5sum-static

# make static, once for the file: its log and status wait for the tests.
setup_file() {
	if command -v musl-gcc >/dev/null; then
		make -C "$ROOT" -s build/md5sum-static >"$BATS_FILE_TMPDIR/static.log" 2>&1
		echo $? >"$BATS_FILE_TMPDIR/static.rc"
	fi
}

setup() {
	cd "$BATS_TEST_TMPDIR" || exit 1
}

teardown() {
	diff_teardown
}

# The tokens of the page's option headings (the line after each .TP), one a
# line, in groff's spelling: \-b, \-\-binary, \-\-jobs ...
page_headings() {
	awk '/^\.TP/ { getline; print }' "$PAGE" | tr -s ' "' '\n\n'
}

# An option as groff source spells it: every - as \-.
groff_spelling() {
	printf '%s\n' "${1//-/\\-}"
}

# The options that --help lists, one a line: -b, --binary, ...
help_options() {
	"$BIN" --help | grep -E '^ +-' | grep -oE '(^|[ ,])--?[a-z][a-z-]*' | tr -d ' ,'
}

# ---------------------------------------------------------------- manual page

@test "man: groff -man -ww has no warning about md5sum.1" {
	command -v groff >/dev/null || skip "groff is not installed (Debian: groff-base)"
	run -0 groff -man -ww -z "$PAGE"
	assert_output ''
}

@test "man: the page is plain ASCII and has the sections a reader looks for" {
	run -1 env LC_ALL=C grep -n '[^[:print:][:blank:]]' "$PAGE"
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS 'CHECKSUM LISTS' 'EXIT STATUS' \
		ENVIRONMENT EXAMPLES 'DIFFERENCES FROM GNU' 'SEE ALSO'; do
		grep -qxE "\.SH \"?$s\"?" "$PAGE" || fail "no section .SH $s"
	done
}

@test "man: every option that --help lists has its own heading in the page" {
	local o n=0
	run -0 help_options
	[[ $output == *--jobs* ]] || fail "--help lists no --jobs: $output"
	for o in $output; do
		page_headings | grep -qxF -- "$(groff_spelling "$o")" ||
			fail "$o is in --help but has no .TP heading in md5sum.1"
		n=$((n + 1))
	done
	((n >= 19)) || fail "only $n options found in --help"
}

# The long options of cmd/cmdline.c's tables, GNU's and ours, one a line:
# --check, ...
table_options() {
	sed -n '/^static const struct opt_long [a-z_]*\[\] = {$/,/^};$/p' "$ROOT/cmd/cmdline.c" |
		grep -oE '^\s*\{ "[a-z-]+"' | grep -oE '[a-z-]+' | sed 's/^/--/'
}

@test "man: every long option the program accepts is in --help and in the page" {
	local o help tables
	tables=$(table_options)
	# The tables are read right: they hold GNU's options, which an empty
	# abbreviation lists, and ours.
	run -1 "$BIN" --=x
	for o in $(grep -oE "'--[a-z-]+'" <<<"$output" | tr -d "'") --jobs --disk --progress; do
		grep -qxF -- "$o" <<<"$tables" || fail "$o is not in the tables read: $tables"
	done
	help=$(help_options)
	for o in $tables; do
		run "$BIN" "$o=x" </dev/null
		[[ $output != *unrecognized* ]] || fail "$o is in a table but not accepted: $output"
		grep -qxF -- "$o" <<<"$help" || fail "$o is accepted but not in --help"
		page_headings | grep -qxF -- "$(groff_spelling "$o")" ||
			fail "$o is accepted but has no heading in md5sum.1"
	done
}

@test "man: the page and --version give the same version" {
	local version
	version=$("$BIN" --version | head -n 1 | awk '{ print $NF }')
	[[ $version =~ ^[0-9]+(\.[0-9]+)+$ ]] || fail "no version in --version: $version"
	run -0 grep -E '^\.TH ' "$PAGE"
	assert_output --partial "\"md5sum $version\""
}

@test "man: the environment variables that --help names are in the page" {
	local v
	for v in $("$BIN" --help | grep -oE '\$[A-Z][A-Z0-9_]*' | tr -d '$'); do
		page_headings | grep -qxF -- "$v" || fail "$v is in --help but not in ENVIRONMENT"
	done
	page_headings | grep -qxF MD5SUM_ENGINE
}

@test "bench-isal: without ISAL it says how to build isa-l_crypto, and exits 0" {
	run -0 make -C "$ROOT" -s bench-isal
	[[ $output == *"make bench-isal ISAL="* && $output == *"make -f Makefile.unx lib"* ]]
}

# -------------------------------------------------------- install, uninstall

# make install and uninstall into a staging root.  -o md5sum: install the
# binary that the other suites test, never a rebuilt one under their feet.
make_install() {
	make -C "$ROOT" -s -o build/md5sum "$@"
}

# The files and links under a directory, sorted.
installed() {
	find "$1" -type f -o -type l | LC_ALL=C sort
}

@test "install: DESTDIR and PREFIX: bin/md5sum and share/man/man1/md5sum.1, and it runs" {
	local d="$BATS_TEST_TMPDIR/stage dir"
	run -0 make_install install DESTDIR="$d" PREFIX=/opt/md5
	assert_output ''
	run -0 installed "$d"
	assert_output "$d/opt/md5/bin/md5sum"$'\n'"$d/opt/md5/share/man/man1/md5sum.1"
	run -0 stat -c %a "$d/opt/md5/bin/md5sum" "$d/opt/md5/share/man/man1/md5sum.1"
	assert_output $'755\n644'
	cmp "$PAGE" "$d/opt/md5/share/man/man1/md5sum.1"

	printf abc >a
	run -0 "$d/opt/md5/bin/md5sum" a
	assert_output '900150983cd24fb0d6963f7d28e17f72  a'
	"$d/opt/md5/bin/md5sum" a >list
	run -0 "$d/opt/md5/bin/md5sum" -c list
	assert_output 'a: OK'
	run -0 "$d/opt/md5/bin/md5sum" --version
}

@test "install: PREFIX is /usr/local unless told" {
	run -0 make_install install DESTDIR="$BATS_TEST_TMPDIR/d"
	[[ -x $BATS_TEST_TMPDIR/d/usr/local/bin/md5sum ]]
	[[ -f $BATS_TEST_TMPDIR/d/usr/local/share/man/man1/md5sum.1 ]]
	run -0 "$BATS_TEST_TMPDIR/d/usr/local/bin/md5sum" </dev/null
	assert_output 'd41d8cd98f00b204e9800998ecf8427e  -'
}

@test "uninstall: removes every file that install put there, and may run twice" {
	local d="$BATS_TEST_TMPDIR/stage dir"
	make_install install DESTDIR="$d" PREFIX=/usr
	[[ -x $d/usr/bin/md5sum ]]
	run -0 make_install uninstall DESTDIR="$d" PREFIX=/usr
	run -0 installed "$d"
	assert_output ''
	run -0 make_install uninstall DESTDIR="$d" PREFIX=/usr
}

# ------------------------------------------------------------- documents

README=$ROOT/README.md
LIBDOC=$ROOT/doc/library.md

# The lines of a Markdown file outside its fenced code blocks.
md_prose() {
	awk '/^```/ { code = !code; next } !code' "$1"
}

# The anchors of a Markdown file's headings, one a line, as GitHub makes
# them: lower case, every character but letters, digits, spaces, - and _
# dropped, spaces as -; a heading met again gets -1, -2, ...
md_anchors() {
	md_prose "$1" | LC_ALL=C awk '
		/^#+ / {
			h = $0
			sub(/^#+ +/, "", h)
			sub(/ +#+ *$/, "", h)
			h = tolower(h)
			gsub(/[^a-z0-9 _-]/, "", h)
			gsub(/ /, "-", h)
			if (seen[h]++)
				h = h "-" (seen[h] - 1)
			print h
		}'
}

# The targets of a Markdown file's inline links, one a line.
md_links() {
	md_prose "$1" | grep -oE '\]\([^) ]+\)' | sed 's/^](//; s/)$//'
}

@test "docs: README.md is for users: at most 16 KiB (README_MAX_BYTES)" {
	local size
	size=$(wc -c <"$README")
	echo "# README.md: $size bytes" >&3
	((size <= ${README_MAX_BYTES:-16384})) ||
		fail "README.md is $size bytes, over ${README_MAX_BYTES:-16384}: move detail to doc/"
}

@test "docs: README.md gives make check and make check-all, and .ci/run runs make check-all" {
	local cmds
	# The commands of the README's Test section, indented as code.
	cmds=$(awk '/^### Test$/ { f = 1; next }
		f && /^#/ { exit }
		f && /^    [^ ]/ { sub(/^    /, ""); print }
		f && c && !/^    / { exit }
		/^    [^ ]/ { c = f }' "$README")
	[[ $cmds == $'make check\nmake check-all' ]] ||
		fail "README.md's Test section gives '$cmds', not make check and make check-all"
	run -0 grep -vE '^[[:space:]]*(#|$)' "$ROOT/.ci/run"
	[[ ${lines[${#lines[@]} - 1]} == "make check-all" ]] ||
		fail ".ci/run ends with '${lines[${#lines[@]} - 1]}', not 'make check-all'"
}

# The relative links of the Markdown files given that name no file, or no
# heading of it, one a line ("FILE: link TARGET: why"), after a line
# "checked N" that counts those read.
broken_links() {
	local md target file anchor n=0
	for md; do
		while IFS= read -r target; do
			case $target in *://* | mailto:*) continue ;; esac
			n=$((n + 1))
			file=${target%%#*}
			anchor=
			[[ $target == *#* ]] && anchor=${target#*#}
			if [[ -z $file ]]; then
				file=$md
			else
				file=$(dirname "$md")/$file
			fi
			if [[ ! -e $file ]]; then
				echo "$md: link $target: no file $file"
			elif [[ -n $anchor ]] && ! md_anchors "$file" | grep -qxF -- "$anchor"; then
				echo "$md: link $target: no heading for #$anchor in $file"
			fi
		done < <(md_links "$md")
	done
	echo "checked $n"
}

@test "docs: every relative link of README.md and doc/*.md names a file, and a heading, that exist" {
	local docs=("$README" "$ROOT"/doc/*.md)
	[[ -f ${docs[1]} ]] || fail "no doc/*.md"
	run -0 broken_links "${docs[@]}"
	echo "# ${lines[${#lines[@]} - 1]} relative links" >&3
	((${#lines[@]} == 1)) || fail "broken links: ${output%$'\n'*}"
	[[ $output =~ ^checked\ ([0-9]+)$ ]] && ((BASH_REMATCH[1] >= 20)) ||
		fail "too few relative links read, the reader is wrong: $output"
}

@test "docs: the link checker reads headings as GitHub anchors them, and finds what is missing" {
	# shellcheck disable=SC2016	# Markdown's backquotes, not the shell's
	printf '%s\n' '# A b' '## What `--progress` costs' "## A virtual machine's disk, and dpkg's lists" \
		'```' '# not a heading' '[c](code.md)' '```' '## A b' \
		'[x](#a-b) [y](o.md#z) [w](https://e.org/) [v](#a-b-1) [u](#none) [t](gone.md)' >t.md
	printf '%s\n' '# Z' >o.md
	run -0 md_anchors t.md
	assert_output $'a-b\nwhat---progress-costs\na-virtual-machines-disk-and-dpkgs-lists\na-b-1'
	run -0 md_links t.md
	assert_output $'#a-b\no.md#z\nhttps://e.org/\n#a-b-1\n#none\ngone.md'
	run -0 broken_links t.md
	assert_output "t.md: link #none: no heading for #none in t.md
t.md: link gone.md: no file ./gone.md
checked 5"
}

@test "library: the example of doc/library.md builds from md5.h, md5.c, md5_steps.h and md5_cpu.h alone, and prints what it says" {
	command -v cc >/dev/null || skip "no cc (Debian: gcc)"
	local line expected
	mkdir lib
	cp "$ROOT/lib/md5.h" "$ROOT/lib/md5.c" "$ROOT/lib/md5_steps.h" "$ROOT/lib/md5_cpu.h" lib/
	awk '/<!-- example.c begin -->/ { f = 1; next } /<!-- example.c end -->/ { f = 0 } f' \
		"$LIBDOC" | sed '/^```/d' >lib/example.c
	awk '/<!-- example output begin -->/ { f = 1; next } /<!-- example output end -->/ { f = 0 } f' \
		"$LIBDOC" | sed '/^```/d' >session
	grep -q 'md5_final' lib/example.c || fail "no example between the markers in doc/library.md"
	grep -q '^\$ cc ' session || fail "no compile command in doc/library.md's session"

	# With every warning, then the session as the document shows it: its
	# commands run in lib/, their output is the rest of the session.
	run -0 cc -std=c11 -Wall -Wextra -Werror -pedantic -O2 -o strict lib/example.c lib/md5.c
	assert_output ''
	expected=$(grep -v '^\$ ' session)
	[[ -n $expected ]] || fail "no output in doc/library.md's session"
	grep '^\$ ' session | sed 's/^\$ //' >lib/session.sh
	cd lib
	run -0 sh -e session.sh
	assert_output "$expected"
}

# ----------------------------------------------------------- static binary

# Skip without musl-gcc; fail, with make's words, when make static failed.
need_static() {
	command -v musl-gcc >/dev/null || skip "musl-gcc is not installed (Debian: musl-tools)"
	if [[ $(cat "$BATS_FILE_TMPDIR/static.rc") != 0 ]]; then
		cat "$BATS_FILE_TMPDIR/static.log" >&2
		fail "make static failed"
	fi
}

# The differential suite's setup, with the static binary under test.
static_diff_setup() {
	need_static
	MD5SUM=$STATIC diff_setup
}

@test "static: make static gives a static, stripped executable" {
	need_static
	command -v readelf >/dev/null || skip "no readelf (Debian: binutils)"
	run -0 readelf -lW "$STATIC"
	refute_output --partial INTERP
	refute_output --partial DYNAMIC
	run -0 readelf -SW "$STATIC"
	refute_output --partial .symtab
	run -0 "$STATIC" --version
	assert_line --index 0 --regexp '^md5sum \(.*\) [0-9]'
}

@test "static: stripped size is within its budget (STATIC_MAX_BYTES, 64 KiB)" {
	need_static
	local size
	size=$(stat -c %s "$STATIC")
	echo "# md5sum-static: $size bytes" >&3
	((size <= ${STATIC_MAX_BYTES:-65536})) ||
		fail "md5sum-static is $size bytes, over ${STATIC_MAX_BYTES:-65536}"
}

@test "static: hashing is GNU's: files, stdin, --tag, -b, -z, escaped names, errors" {
	static_diff_setup
	printf x >'b\s'
	printf y >$'n\nl'
	mkdir d
	same_as_gnu -- a e h x
	same_as_gnu -- --tag a h
	same_as_gnu -- -b a e
	same_as_gnu -- -z a 'b\s' $'n\nl'
	same_as_gnu -- 'b\s' $'n\nl' --tag
	same_as_gnu --stdin h --
	same_as_gnu --stdin h -- a - e
	same_as_gnu -- a nope d e
	same_as_gnu -- --tag -t a
	same_as_gnu -- --ignore-missing a
}

@test "static: every SIMD engine it has is GNU's, on every length around the block size" {
	static_diff_setup
	local e n engines=()
	head -c 300000 /dev/urandom >pool
	for n in $(seq 0 130) 4095 4096 4097 65535 65536 65537 131073 300000; do
		head -c "$n" pool >"f$n"
	done
	"$GNU_MD5SUM" f* >list
	# An engine that this CPU lacks is refused; any other is tested.
	for e in scalar sse2 sse2x2 avx2 avx2x2 avx512 avx512x2 neon; do
		MD5SUM_ENGINE=$e "$STATIC" -c --status list 2>&1 |
			grep -q "MD5SUM_ENGINE: no engine" || engines+=("$e")
	done
	echo "# engines: ${engines[*]}" >&3
	[[ " ${engines[*]} " == *" scalar "* ]] || fail "scalar is missing: ${engines[*]}"
	# make static keeps sse2 only (MD5_LANES_SMALL).
	if [[ $(uname -m) == x86_64 ]]; then
		[[ " ${engines[*]} " == *" sse2 "* ]] || fail "sse2 is missing: ${engines[*]}"
	fi
	for e in "${engines[@]}"; do
		export MD5SUM_ENGINE=$e
		same_as_gnu -- f*
		same_as_gnu -- -c list
	done
	unset MD5SUM_ENGINE
}

@test "static: -c is GNU's: OK, FAILED, unreadable, bad lines, every display option" {
	static_diff_setup
	printf x >'b\s'
	mkdir d
	{
		echo "$HA  a"
		echo "$HE *e"
		echo "MD5 (h) = $HH"
		echo "$HA  x"
		echo "$HA  nope"
		echo "$HA  d"
		echo 'not a checksum line'
		echo '# a comment'
		echo "\\$HX  b\\\\s"
		printf '%s  h\r\n' "$HH"
	} >list
	same_as_gnu_each -- '' '--quiet' '--status' '--strict' '-w' '--ignore-missing' \
		'--quiet --strict' '-w --status' ::: -c list
	same_as_gnu --stdin list -- -c
	same_as_gnu --stdin list -- -c list -
	same_as_gnu -- -c list nolist list
	printf 'junk\n' >junk
	same_as_gnu -- -c junk
}

@test "static: threads and pipes are GNU's: MD5SUM_JOBS 1 and 3, 300 files, piped stdin" {
	static_diff_setup
	local i
	for i in $(seq 1 300); do printf '%s' "$i" >"s$i"; done
	head -c 3000000 /dev/urandom >big
	export MD5SUM_JOBS=1
	same_as_gnu -- s* big
	export MD5SUM_JOBS=3
	same_as_gnu -- s* big
	unset MD5SUM_JOBS
	"$GNU_MD5SUM" s* big >list
	same_as_gnu -- -c list
	same_as_gnu_sh -- 'cat big | md5sum'
	same_as_gnu_sh -- 'cat big | md5sum a - e'
	same_as_gnu_sh -- 'md5sum -c - <list | tail -n 2'
}
