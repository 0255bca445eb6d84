#!/usr/bin/env bats
# GNU's messages in the user's language (out/lang.c): ours against GNU
# md5sum, byte for byte, in de, fr, ja, ru and pl, for a handful of cases:
# -c's verdicts, warnings whose counts pick each plural form (1, 3, 5, 21,
# 22: ru and pl have three forms), file errors in glibc's words, the
# refusals and getopt's messages, and LANGUAGE, LC_ALL, LC_MESSAGES and
# LANG in glibc's order.  A locale not installed skips, naming it.  The
# checks of a catalog's formats are tests/lang_test.c's.

bats_require_minimum_version 1.5.0

load diff_helper

setup() {
	diff_setup
	local i
	: >"$W/list"
	for i in $(seq 21); do echo "bad $i" >>"$W/list"; done
	for i in $(seq 22); do echo "$HA  missing$i" >>"$W/list"; done
	for i in 1 2 3 4 5; do echo "$HE  a" >>"$W/list"; done
	echo "$HX  x" >>"$W/list"
	printf '%s  a\n%s  x\nbad\n%s  e\n' "$HE" "$HX" "$HA" >"$W/one"
	head -n 3 "$W/list" >"$W/three"
	printf '%s  missing\n' "$HA" >"$W/missing"
	printf '%s  b\x01ad\nnot a line\n' "$HA" >"$W/quoted"
}

# in_locale NAME: run the rest with LANG=NAME alone, or skip.
in_locale() {
	locale -a 2>/dev/null | grep -qix "${1/UTF-8/utf8}" ||
		skip "locale $1 is not installed (Debian: locales, locale-gen)"
	unset LC_ALL LANGUAGE
	export LANG=$1
}

# The cases, each as GNU's.
same_in_this_locale() {
	same_as_gnu -- -c -w one
	same_as_gnu -- -c -w three
	same_as_gnu -- -c --quiet list
	same_as_gnu -- -c -w --strict quoted
	same_as_gnu -- -c --ignore-missing missing
	same_as_gnu -- -c e
	same_as_gnu --stdin one -- -c -w -
	same_as_gnu -- a nope .
	same_as_gnu -- --bogus
	same_as_gnu -- -y a
	same_as_gnu -- --s a
	same_as_gnu -- --tag -c a
}

@test "German: each message as GNU's" {
	in_locale de_DE.UTF-8
	same_in_this_locale
	same_as_gnu -- -c one
	gnu_stdout_is $'a: FEHLSCHLAG\nx: OK\ne: FEHLSCHLAG\n'
	same_as_gnu_sh -- 'md5sum a >/dev/full'
	gnu_stderr_has 'Schreibfehler'
}

@test "French: each message as GNU's, the blank line after an option error too" {
	in_locale fr_FR.UTF-8
	same_in_this_locale
	same_as_gnu -- --bogus
	gnu_stderr_has $'\n\nSaisissez'
}

@test "Japanese: each message as GNU's" {
	in_locale ja_JP.UTF-8
	same_in_this_locale
}

@test "Russian: each message as GNU's, its three plural forms" {
	in_locale ru_RU.UTF-8
	same_in_this_locale
}

@test "Polish: each message as GNU's, its three plural forms" {
	in_locale pl_PL.UTF-8
	same_in_this_locale
}

@test "LANGUAGE, LC_ALL, LC_MESSAGES and LANG in glibc's order; LANGUAGE unread in C; English where a category's locale is missing" {
	in_locale de_DE.UTF-8
	locale -a 2>/dev/null | grep -qix fr_FR.utf8 || skip "locale fr_FR.UTF-8 is not installed"
	LANGUAGE=fr same_as_gnu -- -c -w one
	gnu_stdout_has 'Réussi'
	LC_ALL=C LANGUAGE=fr same_as_gnu -- -c -w one
	gnu_stdout_has 'x: OK'
	LC_MESSAGES=fr_FR.UTF-8 same_as_gnu -- -c -w one
	LC_ALL=fr_FR.UTF-8 LC_MESSAGES=de_DE.UTF-8 same_as_gnu -- -c -w one
	LANG=C LC_MESSAGES=de_DE.UTF-8 same_as_gnu -- -c -w one
	gnu_stderr_has 'Pr?fsummenzeile'
	LANG=C.UTF-8 LANGUAGE=de same_as_gnu -- -c -w one
	# A category whose locale cannot load fails GNU's setlocale(LC_ALL,
	# ""): all in English.
	LC_TIME=xx_XX.UTF-8 same_as_gnu -- -c -w one
	gnu_stdout_has 'x: OK'
	gnu_stderr_has 'improperly formatted'
}
