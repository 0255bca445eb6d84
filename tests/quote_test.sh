#!/bin/bash
# quote_test.sh DRIVER - compare quote_name() with GNU md5sum's diagnostics.
#
# DRIVER prints quote_name(argv[i]) for each argument (tests/quote_driver.c).
# In the C and C.UTF-8 locales, GNU md5sum is run on every generated name
# at once inside an empty directory, and each quoted name is cut out of its
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

# Long names, past a message's 1,024-byte buffer: control bytes, quotes,
# UTF-8 and invalid bytes throughout, and at the end.
long() { local w= i; for ((i = 0; i < $2; i++)); do w+=$1; done; printf %s "$w"; }
add "$(long $'a\x01' 3000)" "$(long $'\x01' 2000)" "$(long "a'" 1500)$'\x01'" \
	"$(long $'\t\n' 1200)" "$(long 日 700)" "$(long $'\xe6\x97a' 900)" \
	"$(long "'" 1100)" "$(long ab 2000)" "$(long 'a b' 1000)"

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

# GNU's messages for all the names at once, in locale $1 (run in an empty
# directory, each says the name is missing, or a directory), and the
# driver's quoting of them: a line a name each, as neither writes a
# newline inside a quoted name; the name is cut out of GNU's message.
status=0
for loc in C C.UTF-8; do
	mapfile -t want < <(cd "$tmpd" && LC_ALL=$loc "$md5" -- "${names[@]}" 2>&1 >/dev/null </dev/null)
	mapfile -t got < <(LC_ALL=$loc "$drv" "${names[@]}")
	if [ "${#want[@]}" -ne "${#names[@]}" ] || [ "${#got[@]}" -ne "${#names[@]}" ]; then
		echo "$loc: ${#names[@]} names, but GNU wrote ${#want[@]} lines and the driver ${#got[@]}"
		status=1
		continue
	fi
	bad=0
	for i in "${!names[@]}"; do
		w=${want[i]#"$md5: "}
		w=${w%": No such file or directory"}
		w=${w%": Is a directory"}
		w=${w%": File name too long"}
		if [ "$w" != "${got[i]}" ]; then
			bad=$((bad + 1))
			printf '%s: name %q: want %q got %q\n' "$loc" "${names[i]}" "$w" "${got[i]}"
		fi
	done
	echo "$loc: $bad mismatches in ${#names[@]} names"
	[ "$bad" -eq 0 ] || status=1
done
exit $status
