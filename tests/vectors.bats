#!/usr/bin/env bats
# Digests from the command against RFC 1321 and an independent MD5
# (openssl, else python3's hashlib, else GNU md5sum), over every length
# that matters.

bats_require_minimum_version 1.5.0

load assert

setup() {
	MD5SUM=$(realpath "${MD5SUM:-$BATS_TEST_DIRNAME/../build/md5sum}")
	cd "$BATS_TEST_TMPDIR"
	if command -v openssl >/dev/null; then
		REFERENCE=openssl
	elif command -v python3 >/dev/null; then
		REFERENCE=python3
	elif /usr/bin/md5sum --version 2>/dev/null | grep -q 'GNU coreutils'; then
		REFERENCE=gnu
	else
		skip "no MD5 but ours to compare with (Debian: openssl)"
	fi
}

# The reference digest of a file, from a tool that is not ours.
reference_md5() {
	reference_lines "$1" | cut -c1-32
}

# "DIGEST  NAME" for each file named, from the same tool, run once.
reference_lines() {
	case $REFERENCE in
	openssl) openssl dgst -md5 -r "$@" | sed 's/ \*/  /' ;;
	python3) python3 -c 'import hashlib,sys
for f in sys.argv[1:]: print(hashlib.md5(open(f,"rb").read()).hexdigest() + "  " + f)' "$@" ;;
	gnu) /usr/bin/md5sum -- "$@" ;;
	esac
}

@test "RFC 1321 A.5 test suite through standard input" {
	while IFS=' ' read -r want text; do
		run -0 "$MD5SUM" <<<"$text"
		printf %s "$text" >msg
		run -0 "$MD5SUM" <msg
		assert_output "$want  -"
	done <<'END'
d41d8cd98f00b204e9800998ecf8427e 
0cc175b9c0f1b6a831c399e269772661 a
900150983cd24fb0d6963f7d28e17f72 abc
f96b697d7cb7938d525a2f31aaf161d0 message digest
c3fcd3d76192e4007dfb496cca67e13b abcdefghijklmnopqrstuvwxyz
d174ab98d277d9f5a5611c2c9f419d9f ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789
57edf4a22be3c955ac49da2e2107b67a 12345678901234567890123456789012345678901234567890123456789012345678901234567890
END
}

@test "every length 0..1000 matches the reference (busybox's digest of digests)" {
	text=
	for n in $(seq 0 1000); do
		printf %s "$text" >"f$n"
		text="${text}$((n % 10))"
	done
	"$MD5SUM" $(seq -f 'f%g' 0 1000) >ours
	reference_lines $(seq -f 'f%g' 0 1000) >theirs
	[[ $(wc -l <theirs) == 1001 ]] || fail "$REFERENCE gave $(wc -l <theirs) lines for 1,001 files"
	run diff ours theirs
	assert_success
	# One digest that covers them all, as busybox's test does.
	run -0 "$MD5SUM" <ours
	assert_output "$(reference_md5 theirs)  -"
}

@test "block boundaries 55 56 63 64 65 119 120 127 128 4095 4096 4097 and 1 MiB + 1" {
	for n in 55 56 63 64 65 119 120 127 128 4095 4096 4097 1048577; do
		head -c "$n" /dev/urandom >"r$n"
		run -0 "$MD5SUM" "r$n"
		assert_output "$(reference_md5 "r$n")  r$n"
	done
}

@test "read sizes do not matter: a pipe in odd-sized pieces gives the file's digest" {
	head -c 300001 /dev/urandom >big
	run -0 sh -c "dd if=big bs=777 status=none | '$MD5SUM'"
	assert_output "$(reference_md5 big)  -"
}
