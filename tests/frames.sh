#!/bin/sh
# TAP: no function of md5sum or of its library keeps a stack frame of
# more than 4 KiB, as each compiler at hand builds it (-O2): the main
# thread's stack is as small as ulimit -s makes it, and a thread's is
# ours to size (thread.c).  Sources are md5sum.c and those of its folders, lib/ among them.
cd "$(dirname "$0")/.." || exit 1
limit=4096
n=0
for cc in ${CC:-cc} clang; do
	n=$((n + 1))
	if ! command -v "$cc" >/dev/null 2>&1; then
		echo "ok $n - frames of at most $limit bytes ($cc) # skip $cc not found"
		continue
	fi
	bad=
	for f in md5sum.c */*.c; do
		inc=-I.
		case $f in tests/* | bench/* | fuzz/*) continue ;; lib/*) inc= ;; esac
		out=$("$cc" -std=c11 -D_POSIX_C_SOURCE=200809L $inc -O2 \
			-Wframe-larger-than=$limit -c "$f" -o /dev/null 2>&1) || {
			bad="$bad $f (does not build)"
			continue
		}
		case $out in *frame*) bad="$bad $f" ;; esac
	done
	if [ -z "$bad" ]; then
		echo "ok $n - frames of at most $limit bytes ($cc)"
	else
		echo "not ok $n - frames of more than $limit bytes ($cc):$bad"
	fi
done
echo "1..$n"
