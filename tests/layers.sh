#!/bin/bash
# tests/layers.sh: every #include of the program's own headers is one
# that doc/architecture.md's table "module | may include" allows, the
# table has no circle, and every module of the program is in it.  TAP.
# A module is a .c file and its .h (or a header alone); lib/ is the
# library, which includes only its own headers (md5, lanes).
cd "$(dirname "$0")/.." || exit 1
doc=doc/architecture.md
# A row's first cell names one module, or several that share a row; a
# module made of several files names them joined by "+" (hasher +
# hasher_step + hasher_state): their includes of each other are its own.
declare -A may part_of
while IFS='|' read -r _ mods allowed _; do
	mods=$(echo "$mods" | tr -d ' `')
	[ -n "$mods" ] || continue
	for mod in $(echo "$mods" | tr ',' ' '); do
		for part in $(echo "$mod" | tr '+' ' '); do
			may[$part]=$(echo "$allowed" | tr -d '`' | sed 's/nothing//')
			part_of[$part]=$mod
		done
	done
done < <(sed -n '/^| module | may include |/,/^$/p' "$doc" | tail -n +3)
n=0
fail=0
tap() {
	n=$((n + 1))
	if [ "$1" = ok ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
tap "$([ "${#may[@]}" -gt 0 ] && echo ok)" "$doc has the table of includes (${#may[@]} modules)"
mods=$(ls *.c *.h | sed 's/\.[ch]$//' | sort -u)
for m in $mods; do
	if [ -z "${may[$m]+set}" ]; then
		tap no "$m: not in $doc's table"
		continue
	fi
	bad=
	for f in $m.c $m.h; do
		[ -f "$f" ] || continue
		for inc in $(sed -n 's/^#include "\(.*\)\.h".*/\1/p' "$f"); do
			[ "$inc" = "$m" ] && continue
			[ "${part_of[$inc]:-}" = "${part_of[$m]}" ] && continue
			case " ${may[$m]} " in
			*" $inc "*) ;;
			*) bad="$bad $f includes $inc.h;" ;;
			esac
		done
	done
	if [ -z "$bad" ]; then tap ok "$m includes only what its layer may"; else tap no "$m:$bad"; fi
done
for m in "${!may[@]}"; do
	[ -f "$m.c" ] || [ -f "$m.h" ] || tap no "$m: in $doc's table, but no such module"
done
# No circle: tsort fails on a cycle.
pairs=$(for m in "${!may[@]}"; do
	for i in ${may[$m]}; do echo "${part_of[$m]} ${part_of[$i]:-$i}"; done
	echo "${part_of[$m]} ${part_of[$m]}"
done)
if echo "$pairs" | tsort >/dev/null 2>&1; then
	tap ok "the table of includes has no circle"
else
	tap no "the table of includes has a circle: $(echo "$pairs" | tsort 2>&1 >/dev/null | head -3 | tr '\n' ' ')"
fi
bad=
for f in lib/*.c lib/*.h; do
	for inc in $(sed -n 's/^#include "\(.*\)".*/\1/p' "$f"); do
		[ -f "lib/$inc" ] || bad="$bad $f includes $inc;"
	done
done
if [ -z "$bad" ]; then tap ok "lib/ includes only its own headers"; else tap no "lib/:$bad"; fi
echo "1..$n"
exit $fail
