#!/bin/bash
# seeds.sh DIR - fill DIR with seed inputs for fuzz_check: every checksum
# list that the differential check suite (tests/diff_check.bats) gives to
# md5sum -c, as a file or on standard input, each with two option bytes
# (0x00: plain path, defaults; 0x33: lanes, 2 threads, --warn).  Lists
# of 16 KiB or more are left out.
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
echo "$(ls "$out" | wc -l) seeds in $out"
