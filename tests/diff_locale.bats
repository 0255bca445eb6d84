#!/usr/bin/env bats
# Differential tests in other languages: GNU md5sum 9.1 against ours, byte
# for byte (stdout, stderr, exit status), in eight locales whose catalogs'
# plural rules differ (de, fr, ja, ru, pl, zh_CN, es, pt_BR), each chosen
# through LANG, LC_ALL, LC_MESSAGES and LANGUAGE, and in mixes of these
# variables that glibc's order of precedence decides.  See diff_helper.bash.
#
# One table drives it: ROWS below, each a command run in every
# environment of the @test lines at the end (a test an environment: its
# rows' differences are told together, each by name).  The counts in the
# lists pick every plural form of every catalog (1, 2, 4, 5, 11, 12, 21,
# 22, 25, 101, 111, 112: one, few and many of Russian and Polish, the
# n >= 2 of French, ...).  A locale or a catalog that is missing makes the
# tests that need it skip, naming it.  Each test first pins GNU's word for
# a checksum that did not match there, so that a test whose GNU speaks
# English (no catalog, the locale not taken) says so rather than pass
# having tested nothing in the language of its name.
#
# DIFF_LOCALE_TALLY=FILE appends a line "ENV<TAB>ROW<TAB>same|differs" for
# each comparison, for counting.  Run against GNU itself with
# MD5SUM=/usr/bin/md5sum; it must pass.

load diff_helper

setup_file() {
	# The locales this machine has, as locale -a spells them.
	locale -a >"$BATS_FILE_TMPDIR/locales" 2>/dev/null || : >"$BATS_FILE_TMPDIR/locales"
}

setup() {
	diff_setup
}

teardown() {
	diff_teardown
}

# ---------------------------------------------------------------- the table

# The counts whose plural forms the warnings must pick as GNU's catalog
# does.
COUNTS=(1 2 4 5 11 12 21 22 25 101 111 112)

# row LABEL SNIPPET: a row of the table.  The snippet runs under bash in
# the fixtures' directory (loc_fixtures), standard input /dev/null; "m"
# is md5sum.  As root, the rows run as a user of no privilege, so that
# mode 000 denies.
ROW_LABEL=()
ROW_SNIPPET=()
row() {
	ROW_LABEL+=("$1")
	ROW_SNIPPET+=("$2")
}

# The first row is the pin of in_env.
row "a checksum that does not match" "m -c fail1"
for n in "${COUNTS[@]}"; do
	row "$n bad, $n failed, $n unreadable" "m -c mix$n"
done
for n in 1 2 5 21 22; do
	row "-w, $n of each" "m -c -w mix$n"
done
for n in 1 2 5; do
	row "$n bad lines alone" "m -c bad$n"
	row "$n failed alone" "m -c fail$n"
	row "$n unreadable alone" "m -c miss$n"
done
row "1 bad, 2 failed, 5 unreadable" "m -c -w bad1 fail2 miss5"
row "verdicts and OK" "m -c fail1 ok"
row "--quiet" "m -c --quiet mix5 ok"
row "--status" "m -c --status mix5"
row "--strict" "m -c --strict bad2"
row "--strict -w" "m -c --strict -w bad1 ok"
row "--warn --strict --quiet" "m -c -w --strict --quiet mix2"
row "--ignore-missing: no file was verified" "m -c --ignore-missing miss2"
row "--ignore-missing: one verified" "m -c --ignore-missing mix5"
row "--ignore-missing --quiet, several lists" "m -c --ignore-missing --quiet miss1 ok miss5"
row "no properly formatted lines" "m -c junk"
row "an empty list" "m -c empty"
row "junk on standard input" "printf 'junk\n' | m -c"
row "junk on standard input named -" "printf 'junk\n' | m -c -"
row "three lists, two with nothing" "m -c junk miss1 empty"
row "list missing" "m -c nolist"
row "list a directory" "m -c dir"
row "list unreadable" "m -c locked"
row "standard input a directory, -c" "m -c - <dir"
row "listed files that cannot be read" "m -c cannot"
row "BSD lines" "m -c bsd"
row "hashing: file errors" "m a nonexist dir locked a/x e"
row "hashing: a name too long" "m $(printf 'x%.0s' {1..300})"
row "hashing: standard input a directory" "m - <dir"
row "hashing: names that need quoting" "m \$'c\\001' \$'\\377' 'ü-nope' \"it's\" \$'nl\\nname' 'x y'"
row "hashing: awkward names that exist" "m \$'c\\001' ü \$'nl\\nname' 'sp ace'"
row "check: awkward names" "m -c -w quoted"
row "unrecognized option" "m --bogus a"
row "invalid option" "m -y a"
row "option with an argument it does not take" "m --tag=1 a"
row "ambiguous option" "m --s a"
row "--tag with -c" "m --tag -c fail1"
row "--text with --tag" "m --text --tag a"
row "--quiet without -c" "m --quiet a"
row "--status without -c" "m --status a"
row "--strict without -c" "m --strict a"
row "--warn without -c" "m -w a"
row "--ignore-missing without -c" "m --ignore-missing a"
row "--binary with -c" "m -b -c fail1"
row "--zero with -c" "m -z -c fail1"
row "an option error after -c" "m -c --bogus fail1"
row "write error, hashing" "m a >/dev/full"
row "write error, checking" "m -c fail2 >/dev/full"
row "standard output closed" "m -c mix2 >&-"
row "no text: hashing" "m a e --tag h"
unset n

# loc_fixtures DIR: the files the rows name, in DIR.
loc_fixtures() {
	local d=$1 n i
	(
		cd "$d" || exit 1
		printf 'abc' >a && : >e && printf 'hello\n' >h && mkdir -p dir &&
			printf 'secret' >locked && chmod 0 locked || exit 1
		printf 'x' >$'c\001' && printf 'x' >ü && printf 'x' >$'nl\nname' &&
			printf 'x' >'sp ace' || exit 1
		: >empty
		printf 'junk\n\n# not a line\n' >junk
		printf '%s  a\n' "$HA" >ok
		printf '%s  a\n' "$HX" >fail1
		printf 'MD5 (a) = %s\nMD5 (e) = %s\nSHA1 (a) = %s\nMD5 (h) = %s\n' \
			"$HA" "$HE" "$HA" "$HE" >bsd
		printf '%s  %s\n' "$HA" dir "$HA" locked "$HA" a/x "$HA" nonexist \
			"$HA" "$(printf 'y%.0s' {1..300})" >cannot
		printf '%s  %s\n' "$HE" $'c\001' "$HE" ü "$HE" 'sp ace' "$HE" $'\377' \
			"$HE" 'ü-nope' >quoted
		printf '\\%s  %s\n' "$HE" 'nl\nname' "$HX" 'back\\slash' >>quoted
		for n in "${COUNTS[@]}"; do
			for ((i = 0; i < n; i++)); do
				printf 'junk %d\n' "$i" >&3
				printf '%s  a\n' "$HX" >&4
				printf '%s  gone\n' "$HA" >&5
				printf 'junk %d\n%s  a\n%s  a\n%s  gone\n' "$i" "$HA" "$HX" "$HA" >&6
			done 3>"bad$n" 4>"fail$n" 5>"miss$n" 6>"mix$n"
			printf '%s  a\n' "$HA" >>"bad$n"
		done
	) || fail "cannot make the fixtures in $d"
}

# ------------------------------------------------------------- the runner

# loc_have LOCALE: whether this machine has it (locale -a spells the
# codeset its own way: de_DE.utf8 for de_DE.UTF-8).
loc_have() {
	local want=$1 norm
	[[ $want == C || $want == POSIX ]] && return 0
	norm=${want%%.*}
	if [[ $want == *.* ]]; then
		local cs=${want#*.}
		cs=${cs,,}
		norm+=.${cs//-/}
	fi
	grep -qixF -e "$want" -e "$norm" "$BATS_FILE_TMPDIR/locales"
}

# need_locale LOCALE...: skip, naming them, unless all are here.
need_locale() {
	local l missing=()
	for l in "$@"; do
		loc_have "$l" || missing+=("$l")
	done
	((${#missing[@]} == 0)) ||
		skip "locale ${missing[*]} not generated here (Debian: locales; uncomment it in /etc/locale.gen, run locale-gen)"
}

# need_catalog LANG...: skip unless GNU's catalog for each is here.
need_catalog() {
	local c
	for c in "$@"; do
		[[ -e /usr/share/locale/$c/LC_MESSAGES/coreutils.mo ]] ||
			skip "no coreutils catalog for $c (/usr/share/locale/$c/LC_MESSAGES/coreutils.mo; Debian: coreutils)"
	done
}

# loc_script FILE: the rows as one script, which runs each in turn with
# the md5sum that PATH finds and writes its stdout, stderr and exit
# status to $1/N.out, N.err and N.rc (a process or two a row, not the
# dozen of a same_as_gnu: the table is run thousands of times).
loc_script() {
	local i
	{
		# shellcheck disable=SC2016
		printf '%s\n' 'm() { md5sum "$@"; }' 'r=$1'
		for i in "${!ROW_LABEL[@]}"; do
			printf '{ %s\n} </dev/null >"$r/%d.out" 2>"$r/%d.err"; echo $? >"$r/%d.rc"\n' \
				"${ROW_SNIPPET[i]}" "$i" "$i" "$i"
		done
	} >"$1"
}

# in_env WORD NAME=VALUE...: run every row with the locale variables set
# as given (LC_ALL, LANG, LANGUAGE, LC_MESSAGES and LC_CTYPE unset
# otherwise), GNU's verdict for a checksum that does not match being WORD
# there (the first row's).  Fails naming every row that differs from GNU.
in_env() {
	local word=$1 a
	shift
	unset LC_ALL LANG LANGUAGE LC_MESSAGES LC_CTYPE
	for a in "$@"; do
		export "${a?}"
	done
	# As root, the rows run as a user of no privilege (so that mode 000
	# denies), in a copy of the setup that user can reach (nobody_env).
	local envname="$*" dir=$W res=$RES/loc as=()
	if [[ $(id -u) -eq 0 ]] && command -v setpriv >/dev/null 2>&1; then
		nobody_env a
		dir=$NOBODY_W res=$PUBLIC_TMP/res
		read -ra as <<<"$AS_NOBODY"
	fi
	loc_fixtures "$dir"
	mkdir -p "$res/gnu" "$res/ours" || fail "cannot make $res"
	loc_script "$res/rows.sh"
	((${#as[@]} == 0)) || chown -R 65534:65534 "$res" || fail "cannot give $res to uid 65534"

	local side bin
	for side in gnu ours; do
		bin=$GNU_BIN
		[[ $side == ours ]] && bin=$OUR_BIN
		(cd "$dir" && PATH=$bin:$_DIFF_PATH0 "${_DIFF_TIMEOUT[@]}" "${as[@]}" bash "$res/rows.sh" "$res/$side") ||
			fail "the rows did not run to their end with $side's md5sum (status $?)"
	done

	# The pin: GNU speaks the language this test is named for.
	GNU_OUT=$res/gnu/0.out
	gnu_stdout_is "a: $word"$'\n' || {
		echo "under $envname, GNU's verdict is not '$word': the test would not test its language" >&2
		return 1
	}

	local i failed=() shown=0 differ
	differ=" $(LC_ALL=C diff -rq "$res/gnu" "$res/ours" | sed -n 's|^Files .*/gnu/\([0-9]*\)\.[a-z]* and .*|\1|p' |
		sort -un | tr '\n' ' ')"
	for i in "${!ROW_LABEL[@]}"; do
		if [[ $differ != *" $i "* ]]; then
			[[ -z ${DIFF_LOCALE_TALLY-} ]] ||
				printf '%s\t%s\tsame\n' "$envname" "${ROW_LABEL[i]}" >>"$DIFF_LOCALE_TALLY"
			continue
		fi
		failed+=("${ROW_LABEL[i]}")
		[[ -z ${DIFF_LOCALE_TALLY-} ]] ||
			printf '%s\t%s\tdiffers\n' "$envname" "${ROW_LABEL[i]}" >>"$DIFF_LOCALE_TALLY"
		# The first few in full: the rest are often the same story.
		((shown++ < 3)) || continue
		{
			printf 'MISMATCH under %s for row "%s": %s\n' "$envname" "${ROW_LABEL[i]}" "${ROW_SNIPPET[i]}"
			cmp -s "$res/gnu/$i.rc" "$res/ours/$i.rc" ||
				printf -- '--- exit status differs: gnu=%s ours=%s\n' \
					"$(cat "$res/gnu/$i.rc")" "$(cat "$res/ours/$i.rc")"
			_diff_same "$res/gnu/$i.out" "$res/ours/$i.out" ||
				_diff_show_diff stdout "$res/gnu/$i.out" "$res/ours/$i.out"
			_diff_same "$res/gnu/$i.err" "$res/ours/$i.err" ||
				_diff_show_diff stderr "$res/gnu/$i.err" "$res/ours/$i.err"
		} >&2
	done
	if ((${#failed[@]})); then
		printf 'under %s, %d of %d rows differ from GNU:\n' "$envname" "${#failed[@]}" "${#ROW_LABEL[@]}" >&2
		printf '  %s\n' "${failed[@]}" >&2
		return 1
	fi
}

# in_locale VAR LOCALE LANG WORD: the locale taken through VAR, the
# others from C.UTF-8 (LANGUAGE: LANG as its language, LANG=C.UTF-8).
in_locale() {
	local var=$1 loc=$2 lang=$3 word=$4
	need_catalog "$lang"
	case $var in
	LANG) need_locale "$loc"; in_env "$word" LANG="$loc" ;;
	LC_ALL) need_locale "$loc"; in_env "$word" LANG=C.UTF-8 LC_ALL="$loc" ;;
	LC_MESSAGES) need_locale "$loc"; in_env "$word" LANG=C.UTF-8 LC_MESSAGES="$loc" ;;
	LANGUAGE) need_locale C.UTF-8; in_env "$word" LANG=C.UTF-8 LANGUAGE="$lang" ;;
	esac
}

# -------------------------------------------------------------- the tests

@test "de_DE.UTF-8 under LANG" { in_locale LANG de_DE.UTF-8 de FEHLSCHLAG; }
@test "de_DE.UTF-8 under LC_ALL" { in_locale LC_ALL de_DE.UTF-8 de FEHLSCHLAG; }
@test "de_DE.UTF-8 under LC_MESSAGES" { in_locale LC_MESSAGES de_DE.UTF-8 de FEHLSCHLAG; }
@test "de under LANGUAGE" { in_locale LANGUAGE de_DE.UTF-8 de FEHLSCHLAG; }

@test "fr_FR.UTF-8 under LANG" { in_locale LANG fr_FR.UTF-8 fr 'Échec'; }
@test "fr_FR.UTF-8 under LC_ALL" { in_locale LC_ALL fr_FR.UTF-8 fr 'Échec'; }
@test "fr_FR.UTF-8 under LC_MESSAGES" { in_locale LC_MESSAGES fr_FR.UTF-8 fr 'Échec'; }
@test "fr under LANGUAGE" { in_locale LANGUAGE fr_FR.UTF-8 fr 'Échec'; }

@test "ja_JP.UTF-8 under LANG" { in_locale LANG ja_JP.UTF-8 ja '失敗'; }
@test "ja_JP.UTF-8 under LC_ALL" { in_locale LC_ALL ja_JP.UTF-8 ja '失敗'; }
@test "ja_JP.UTF-8 under LC_MESSAGES" { in_locale LC_MESSAGES ja_JP.UTF-8 ja '失敗'; }
@test "ja under LANGUAGE" { in_locale LANGUAGE ja_JP.UTF-8 ja '失敗'; }

@test "ru_RU.UTF-8 under LANG" { in_locale LANG ru_RU.UTF-8 ru 'ПОВРЕЖДЁН'; }
@test "ru_RU.UTF-8 under LC_ALL" { in_locale LC_ALL ru_RU.UTF-8 ru 'ПОВРЕЖДЁН'; }
@test "ru_RU.UTF-8 under LC_MESSAGES" { in_locale LC_MESSAGES ru_RU.UTF-8 ru 'ПОВРЕЖДЁН'; }
@test "ru under LANGUAGE" { in_locale LANGUAGE ru_RU.UTF-8 ru 'ПОВРЕЖДЁН'; }

@test "pl_PL.UTF-8 under LANG" { in_locale LANG pl_PL.UTF-8 pl NIEPOWODZENIE; }
@test "pl_PL.UTF-8 under LC_ALL" { in_locale LC_ALL pl_PL.UTF-8 pl NIEPOWODZENIE; }
@test "pl_PL.UTF-8 under LC_MESSAGES" { in_locale LC_MESSAGES pl_PL.UTF-8 pl NIEPOWODZENIE; }
@test "pl under LANGUAGE" { in_locale LANGUAGE pl_PL.UTF-8 pl NIEPOWODZENIE; }

@test "zh_CN.UTF-8 under LANG" { in_locale LANG zh_CN.UTF-8 zh_CN '失败'; }
@test "zh_CN.UTF-8 under LC_ALL" { in_locale LC_ALL zh_CN.UTF-8 zh_CN '失败'; }
@test "zh_CN.UTF-8 under LC_MESSAGES" { in_locale LC_MESSAGES zh_CN.UTF-8 zh_CN '失败'; }
@test "zh_CN under LANGUAGE" { in_locale LANGUAGE zh_CN.UTF-8 zh_CN '失败'; }

@test "es_ES.UTF-8 under LANG" { in_locale LANG es_ES.UTF-8 es 'La suma no coincide'; }
@test "es_ES.UTF-8 under LC_ALL" { in_locale LC_ALL es_ES.UTF-8 es 'La suma no coincide'; }
@test "es_ES.UTF-8 under LC_MESSAGES" { in_locale LC_MESSAGES es_ES.UTF-8 es 'La suma no coincide'; }
@test "es under LANGUAGE" { in_locale LANGUAGE es_ES.UTF-8 es 'La suma no coincide'; }

@test "pt_BR.UTF-8 under LANG" { in_locale LANG pt_BR.UTF-8 pt_BR FALHOU; }
@test "pt_BR.UTF-8 under LC_ALL" { in_locale LC_ALL pt_BR.UTF-8 pt_BR FALHOU; }
@test "pt_BR.UTF-8 under LC_MESSAGES" { in_locale LC_MESSAGES pt_BR.UTF-8 pt_BR FALHOU; }
@test "pt_BR under LANGUAGE" { in_locale LANGUAGE pt_BR.UTF-8 pt_BR FALHOU; }

# ---- glibc's order of precedence, and the locale variables mixed

@test "precedence: LANGUAGE's first language with a catalog, over LANG" {
	need_locale fr_FR.UTF-8
	need_catalog pt_BR
	in_env FALHOU LANG=fr_FR.UTF-8 LANGUAGE=pt_BR:de
}

@test "precedence: LANGUAGE's unknown language passed over" {
	need_locale fr_FR.UTF-8
	need_catalog ru
	in_env 'ПОВРЕЖДЁН' LANG=fr_FR.UTF-8 LANGUAGE=xx:ru
}

@test "precedence: LANGUAGE over LC_ALL" {
	need_locale zh_CN.UTF-8
	need_catalog ja
	in_env '失敗' LC_ALL=zh_CN.UTF-8 LANGUAGE=ja
}

@test "precedence: LANGUAGE de_AT falls back to de" {
	need_locale C.UTF-8
	need_catalog de
	in_env FEHLSCHLAG LANG=C.UTF-8 LANGUAGE=de_AT
}

@test "precedence: LANGUAGE is ignored in the C locale" {
	need_catalog de
	in_env FAILED LANG=C LANGUAGE=de
}

@test "precedence: LANGUAGE is ignored under LC_ALL=C" {
	need_locale fr_FR.UTF-8
	need_catalog de
	in_env FAILED LANG=fr_FR.UTF-8 LC_ALL=C LANGUAGE=de
}

@test "precedence: LANGUAGE under LANG=en_US.UTF-8, as this machine has it or not" {
	need_catalog de
	if loc_have en_US.UTF-8; then
		in_env FEHLSCHLAG LANG=en_US.UTF-8 LANGUAGE=de
	else
		# No such locale: setlocale fails, the C locale stays, and
		# with it English.
		in_env FAILED LANG=en_US.UTF-8 LANGUAGE=de
	fi
}

@test "precedence: LC_ALL over LC_MESSAGES" {
	need_locale de_DE.UTF-8 fr_FR.UTF-8
	need_catalog de
	in_env FEHLSCHLAG LC_ALL=de_DE.UTF-8 LC_MESSAGES=fr_FR.UTF-8
}

@test "precedence: LC_MESSAGES over LANG" {
	need_locale de_DE.UTF-8 ja_JP.UTF-8
	need_catalog ja
	in_env '失敗' LANG=de_DE.UTF-8 LC_MESSAGES=ja_JP.UTF-8
}

@test "mixed: LC_MESSAGES=C under LANG=ru_RU.UTF-8 (English, names as in UTF-8)" {
	need_locale ru_RU.UTF-8
	in_env FAILED LANG=ru_RU.UTF-8 LC_MESSAGES=C
}

@test "mixed: Japanese messages in the C locale's character set" {
	need_locale ja_JP.UTF-8
	need_catalog ja
	# What gettext cannot convert to ASCII becomes '?'.
	in_env '??' LC_MESSAGES=ja_JP.UTF-8
}

@test "mixed: German messages in the C locale's character set" {
	need_locale de_DE.UTF-8
	need_catalog de
	in_env FEHLSCHLAG LC_MESSAGES=de_DE.UTF-8
}

@test "spelling: LANG=de_DE.utf8" {
	need_locale de_DE.UTF-8
	need_catalog de
	in_env FEHLSCHLAG LANG=de_DE.utf8
}

@test "spelling: LANG=de_DE, as this machine has it or not" {
	need_catalog de
	if loc_have de_DE; then
		in_env FEHLSCHLAG LANG=de_DE
	else
		in_env FAILED LANG=de_DE
	fi
}
