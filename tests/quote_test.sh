#!/bin/bash
# quote_test.sh DRIVER - compare quote_name() with GNU md5sum's diagnostics.
#
# DRIVER prints quote_name(argv[i]) for each argument (tests/quote_driver.c).
# For each generated name, in the C and C.UTF-8 locales, GNU md5sum is run on
# it inside an empty directory and the quoted name is cut out of its
# "md5sum: NAME: No such file or directory" message.  Set MD5SUM to use
# another GNU md5sum.  Exits 1 if any name is quoted differently.
set -u
drv=${1:?usage: quote_test.sh DRIVER}
md5=${MD5SUM:-/usr/bin/md5sum}
case $drv in /*) ;; *) drv=$PWD/$drv ;; esac
export LC_ALL=C		# byte-wise string handling in this script
tmpd=$(mktemp -d) || exit 1
trap 'rm -rf "$tmpd"' EXIT

names=()
add() { names+=("$@"); }

# Every byte alone, leading, inside and trailing.
for i in $(seq 1 255); do
	printf -v b "\\$(printf %03o "$i")"
	[ "$b" = - ] || add "$b"
	add "${b}x" "x${b}y" "x${b}"
done

# Hand-picked cases.
add '' 'a b' "a'b" 'a"b' "a'\"b" "'" "''" '"' '$a' 'a$' '~a' 'a~' '#a' 'a#' \
	'a:b' 'a=b' '=a' '{}' '{' '}' '{{' 'a!' '!' $'a\tb' $'a\nb' $'a\rb' \
	$'a\n' $'\n' $'\x01\x02' é 日本 😀 $'\xff' $'a\xc3' $'\xc3a' \
	$'\xe6\x97' $'\xe6\x97a' $'\xf0\x9f\x98' $'\xe6\x97\xe6\x97\xa5' \
	$'\xc0\x80' $'\xed\xa0\x80' $'\xf4\x90\x80\x80' $'\u00a0' $'\u200b' \
	$'\u0085' $'\u2028' $'\ufeff' $'\u0301' $'\ue000' $'\U0010ffff' \
	$'\ufffe' '..' '/' '/x' 'x/' 'a/b c'

# Every pair, and every triple of a smaller set, of tricky pieces.
pieces=(a ' ' "'" '"' $'\x01' $'\t' $'\n' '$' '#' '~' '{' '}' ':' '=' '!' \
	'\' é $'\xff' $'\xc3' $'\u00a0' $'\u0085' 日 $'\xe6\x97')
for p in "${pieces[@]}"; do
	for q in "${pieces[@]}"; do add "$p$q"; done
done
few=(a "'" $'\x01' é $'\xff' '#' ' ' '"')
for p in "${few[@]}"; do
	for q in "${few[@]}"; do
		for r in "${few[@]}"; do add "$p$q$r"; done
	done
done

# Seeded random words of up to eight pieces.
RANDOM=20240101
for _ in $(seq 400); do
	w=
	for _ in $(seq $((RANDOM % 8 + 1))); do
		w+=${pieces[RANDOM % ${#pieces[@]}]}
	done
	[ "$w" = - ] || add "$w"
done

# Print GNU's quoting of $2 in locale $1, or the raw message if unexpected.
gnu_quote() {
	local err
	err=$(cd "$tmpd" && LC_ALL=$1 "$md5" -- "$2" 2>&1 >/dev/null </dev/null)
	err=${err#"$md5: "}
	err=${err%": No such file or directory"}
	printf '%s' "${err%": Is a directory"}"
}

status=0
for loc in C C.UTF-8; do
	bad=0
	for n in "${names[@]}"; do
		want=$(gnu_quote "$loc" "$n")
		got=$(LC_ALL=$loc "$drv" "$n")
		if [ "$want" != "$got" ]; then
			bad=$((bad + 1))
			printf '%s: name %q: want %q got %q\n' \
				"$loc" "$n" "$want" "$got"
		fi
	done
	echo "$loc: $bad mismatches in ${#names[@]} names"
	[ "$bad" -eq 0 ] || status=1
done
exit $status
