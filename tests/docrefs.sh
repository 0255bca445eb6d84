#!/bin/bash
# tests/docrefs.sh: what README.md and doc/*.md (but the journal of
# measurements, doc/performance.md) cite exists.  A citation
# is a span in backticks (outside fenced blocks) that is or holds
#   a file name ending in .c, .h, .sh, .py or .bats: a path from the top,
#     or, without a folder, the name of one file alone in the tree;
#   a function, `name()` or `name(arguments)`: defined in the C or shell
#     of the program, the tests, the benchmarks or the fuzzers;
#   a name with an underscore, `like_this`: a word of that code.
# One test a document, naming what it cites that is not there.  TAP.
cd "$(dirname "$0")/.." || exit 1
# Not ours, or not spelled in our code: the kernel's and libc's calls,
# and the library's engines, whose names its template pastes together.
ALLOWED=" cachestat preadv2 __pthread_enable_asynccancel
	sse2_blocks sse2x2_blocks avx2_blocks avx2x2_blocks avx512_blocks
	avx512x2_blocks "
# doc/performance.md is a journal: each entry names the code of its day.
docs=$(ls README.md doc/*.md | grep -vx doc/performance.md)
# Every file of the tree but the build's and git's, from the top.
tree=$(find . -path ./build -prune -o -path ./.git -prune -o -type f -print |
	sed 's|^\./||')
mapfile -t c_files < <(echo "$tree" | grep -E '\.[ch]$')
mapfile -t sh_files < <(echo "$tree" | grep -E '\.(sh|bash|bats)$|^tests/(run|sanitized)$')
# Built once, as the sets they are: how many files have each name, the
# functions and macros defined (a line at the margin that names one and
# does not end as a declaration does), and every word of the code.
declare -A named defined word
while read -r k f; do named[$f]=$k; done < <(echo "$tree" | sed 's|.*/||' | sort | uniq -c)
while read -r f; do defined[$f]=1; done < <(
	grep -hE '^[A-Za-z_][^;]*\(' "${c_files[@]}" | grep -vE ';[[:space:]]*$' |
		sed -E 's/^([^(]*[^A-Za-z0-9_(])?([A-Za-z_][A-Za-z0-9_]*)\(.*/\2/'
	grep -ohE '^#define [A-Za-z_][A-Za-z0-9_]*\(' "${c_files[@]}" | sed -E 's/#define (.*)\(/\1/'
	grep -hE '^[[:space:]]*(function[[:space:]]+)?[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(\)' "${sh_files[@]}" |
		sed -E 's/^[[:space:]]*(function[[:space:]]+)?([A-Za-z_][A-Za-z0-9_]*).*/\2/')
while read -r f; do word[$f]=1; done < <(
	cat "${c_files[@]}" "${sh_files[@]}" | grep -oE '[A-Za-z_][A-Za-z0-9_]*' | sort -u)
n=0
fail=0
tap() {
	n=$((n + 1))
	if [ "$1" = ok ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
allowed() { case $ALLOWED in *[[:space:]]"$1"[[:space:]]*) return 0 ;; esac; return 1; }
# The spans in backticks of document $1, one a line.
spans() {
	awk '/^[[:space:]]*```/ { fenced = !fenced; next } !fenced' "$1" |
		grep -oE '`[^`]+`' | tr -d '`'
}
file_exists() {
	local f=${1#./}
	case $f in
	*/*) [ -e "$f" ] ;;
	*) [ "${named[$f]-0}" = 1 ] ;;
	esac
}
# What document $1 cites, one a line: "file NAME", "function NAME" or
# "word NAME".
cited() {
	local s
	s=$(spans "$1")
	echo "$s" | grep -oE '[A-Za-z0-9_./-]+' | grep -E '\.(c|h|sh|py|bats)$' | sed 's/^/file /'
	echo "$s" | sed -nE 's/^([A-Za-z_][A-Za-z0-9_]*)\(.*\)$/function \1/p'
	echo "$s" | grep -E '^[a-z_][a-z0-9_]*_[a-z0-9_]*$' | sed 's/^/word /'
}
there() {
	allowed "$2" && return 0
	case $1 in
	file) file_exists "$2" ;;
	function) [ -n "${defined[$2]-}" ] ;;
	word) [ -n "${word[$2]-}" ] ;;
	esac
}
checked=0
for d in $docs; do
	gone=
	while read -r kind name; do
		checked=$((checked + 1))
		there "$kind" "$name" || gone="$gone $name"
	done < <(cited "$d" | sort -u)
	if [ -z "$gone" ]; then tap ok "$d: what it cites exists"; else tap no "$d cites what is not there:$gone"; fi
done
tap "$([ "$checked" -gt 0 ] && echo ok)" "the documents cite files and functions ($checked)"
echo "1..$n"
exit $fail
