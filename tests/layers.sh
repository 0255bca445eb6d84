#!/bin/bash
# tests/layers.sh: the program's folders are layers.  Every #include of the
# program's own headers stays in its folder or goes to one that
# doc/architecture.md's table "folder | may include" allows, the table has
# no circle and names every folder, lib/ includes only its own headers,
# the modules' includes form no circle, and the include graph is at most
# DEPTH_MAX levels deep (printed, with its longest chain).  TAP.
# A module is a .c file and its .h, or a header alone; a file named
# NAME_PART.c or NAME_PART.h beside NAME.h is part of module NAME (the
# hasher's step and state, the library's tables).
cd "$(dirname "$0")/.." || exit 1
doc=doc/architecture.md
DEPTH_MAX=10
declare -A may
while IFS='|' read -r _ dir allowed _; do
	dir=$(echo "$dir" | tr -d ' `/')
	[ -n "$dir" ] || continue
	may[$dir]=$(echo "$allowed" | tr -d '`/' | sed 's/nothing//')
done < <(sed -n '/^| folder | may include |/,/^$/p' "$doc" | tail -n +3)
n=0
fail=0
tap() {
	n=$((n + 1))
	if [ "$1" = ok ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
tap "$([ "${#may[@]}" -gt 0 ] && echo ok)" "$doc has the table of folders (${#may[@]} rows)"
# The program's files: md5sum.c, and those of its folders but the tests',
# the benchmarks' and the fuzzers'.
files=$(ls md5sum.c */*.c */*.h | grep -Ev '^(tests|bench|fuzz|build)/')
folder() { case $1 in */*) echo "${1%%/*}" ;; *) echo md5sum ;; esac; }
dirs=$(for f in $files; do folder "$f"; done | sort -u)
for d in $dirs; do
	if [ -z "${may[$d]+set}" ]; then
		tap no "$d: not in $doc's table"
		continue
	fi
	bad=
	for f in $files; do
		[ "$(folder "$f")" = "$d" ] || continue
		for inc in $(sed -n 's/^#include "\(.*\)".*/\1/p' "$f"); do
			if [ "$d" = lib ]; then
				[ -f "lib/$inc" ] || bad="$bad $f includes $inc;"
				continue
			fi
			to=$(folder "$inc")
			if [ ! -f "$inc" ]; then
				bad="$bad $f includes $inc, which is no file;"
				continue
			fi
			[ "$to" = "$d" ] && continue
			case " ${may[$d]} " in
			*" $to "*) ;;
			*) bad="$bad $f includes $inc;" ;;
			esac
		done
	done
	if [ -z "$bad" ]; then tap ok "$d/ includes only what its layer may"; else tap no "$d/:$bad"; fi
done
for d in "${!may[@]}"; do
	[ "$d" = md5sum ] || [ -d "$d" ] || tap no "$d: in $doc's table, but no such folder"
done
# No circle among the folders: tsort fails on a cycle.
pairs=$(for d in "${!may[@]}"; do
	for i in ${may[$d]}; do echo "$d $i"; done
	echo "$d $d"
done)
if echo "$pairs" | tsort >/dev/null 2>&1; then
	tap ok "the table of folders has no circle"
else
	tap no "the table of folders has a circle: $(echo "$pairs" | tsort 2>&1 >/dev/null | head -3 | tr '\n' ' ')"
fi
# The modules' includes: no circle, and the longest chain.
module() {
	local m=${1%.[ch]}
	case $m in *_*) [ -f "${m%%_*}.h" ] && m=${m%%_*} ;; esac
	echo "$m"
}
edges=$(for f in $files; do
	m=$(module "$f")
	echo "$m $m"
	case $f in lib/*) pre=lib/ ;; *) pre= ;; esac
	for inc in $(sed -n 's/^#include "\(.*\)".*/\1/p' "$f"); do
		i=$(module "$pre$inc")
		[ "$i" = "$m" ] || echo "$m $i"
	done
done | sort -u)
if echo "$edges" | tsort >/dev/null 2>&1; then
	tap ok "the modules' includes have no circle"
	chain=$(echo "$edges" | awk '
		$1 != $2 { to[$1] = to[$1] " " $2 } { node[$1]; node[$2] }
		function depth(m,   i, k, d, best, nx, a) {
			if (m in memo) return memo[m]
			best = 1; nx = ""
			k = split(to[m], a, " ")
			for (i = 1; i <= k; i++) {
				d = depth(a[i]) + 1
				if (d > best) { best = d; nx = a[i] }
			}
			next_of[m] = nx
			return memo[m] = best
		}
		END {
			best = 0
			for (m in node) if (depth(m) > best) { best = depth(m); top = m }
			s = top
			for (m = next_of[top]; m != ""; m = next_of[m]) s = s " > " m
			print best ": " s
		}')
	depth=${chain%%:*}
	echo "# include depth $chain"
	tap "$([ "$depth" -le $DEPTH_MAX ] && echo ok)" "the include graph is $depth levels deep, at most $DEPTH_MAX"
else
	tap no "the modules' includes have a circle: $(echo "$edges" | tsort 2>&1 >/dev/null | head -3 | tr '\n' ' ')"
fi
echo "1..$n"
exit $fail
