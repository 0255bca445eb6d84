#!/bin/bash
# seeds.sh DIR - fill DIR with seed inputs for fuzz_check: every checksum
# list that the differential check suite (tests/diff_check.bats) gives to
# md5sum -c, as a file or on standard input, each with two option bytes
# (0x00: plain path, defaults; 0x33: lanes, 2 threads, --warn), lists of
# 16 KiB or more left out; and lists of long lines and long names.
set -eu
cd "$(dirname "$0")/.."
out=$(realpath -m -- "${1:?usage: fuzz/seeds.sh DIR}")
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/lists"
cat >"$tmp/wrap" <<WRAP
#!/bin/bash
# Save the lists given to -c, then run the real md5sum.
check=
for a in "\$@"; do
	case \$a in -c|--c|--ch*|-*c*) [[ \$a == --* && \$a != --c* ]] || check=1 ;; esac
done
if [[ -n \$check ]]; then
	for a in "\$@"; do
		[[ -f \$a ]] && cp -- "\$a" "$tmp/lists/\$RANDOM\$RANDOM" 2>/dev/null || true
	done
	if [[ -f /dev/stdin ]]; then
		cp /dev/stdin "$tmp/lists/in\$RANDOM\$RANDOM" 2>/dev/null || true
	fi
fi
exec -a md5sum "$PWD/md5sum" "\$@"
WRAP
chmod +x "$tmp/wrap"
MD5SUM=$tmp/wrap bats tests/diff_check.bats >/dev/null 2>&1 || true
n=0
for f in "$tmp/lists"/*; do
	# Big lists (the suite's long-line and many-line cases) only slow
	# the fuzzer down: keep lists under 16 KiB.
	[[ -s $f && $(stat -c %s -- "$f") -lt 16384 ]] || continue
	for flag in '\000' '\063'; do
		s=$tmp/seed
		{ printf "$flag"; cat -- "$f"; } >"$s"
		mv -- "$s" "$out/seed-$(md5sum <"$s" | cut -c1-16)"
		n=$((n + 1))
	done
done
# Long lines and long names, each shorter than the output buffer (16
# KiB) alone: escaped names of newlines and backslashes, which print
# twice as long, and plain ones, after lines that match, so that part of
# a line is buffered when they come.
ha=900150983cd24fb0d6963f7d28e17f72
for len in 1000 4000 7000; do
	for unit in 'n' '\\'; do
		s=$tmp/seed
		{
			printf '\000'
			printf '%s  a\n' "$ha"
			printf '\\%s  ' "$ha"
			head -c "$len" /dev/zero | tr '\0' x | sed "s/x/\\\\$unit/g"
			printf '\n%s  a\n' "$ha"
		} >"$s"
		mv -- "$s" "$out/seed-long-$len-${#unit}"
	done
	{ printf '\061MD5 (%s) = %s\n' "$(head -c "$len" /dev/zero | tr '\0' y)" "$ha"; } \
		>"$out/seed-long-tag-$len"
done
echo "$(ls "$out" | wc -l) seeds in $out"
