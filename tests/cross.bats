#!/usr/bin/env bats
# The hash and the lane engines on other CPUs: tests/unit and
# tests/lanes_test cross-compiled and run under qemu's user-mode emulation,
# on AArch64 (the NEON engine) and on s390x (big-endian: the scalar
# transform's loads and stores, and no lane engine).  Each test skips,
# saying why, when its cross-compiler or qemu is not installed (Debian:
# gcc-aarch64-linux-gnu, gcc-s390x-linux-gnu, qemu-user).

bats_require_minimum_version 1.5.0

setup() {
	ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
	cd "$BATS_TEST_TMPDIR" || return
}

# cross ARCH PROGRAM SOURCE...: build PROGRAM for ARCH, statically, with
# the project's warnings, and run it under qemu; its TAP in $output.
cross() {
	local arch=$1 prog=$2 cc=$1-linux-gnu-gcc
	shift 2
	command -v "$cc" >/dev/null || skip "$cc is not installed (Debian: gcc-$arch-linux-gnu)"
	command -v "qemu-$arch" >/dev/null || skip "qemu-$arch is not installed (Debian: qemu-user)"
	"$cc" -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Wall -Wextra -Werror \
		-Wconversion -static -I"$ROOT" -I"$ROOT/lib" -I"$ROOT/tests" -o "$prog" \
		"${@/#/$ROOT/}"
	run "qemu-$arch" "./$prog"
	printf '%s\n' "$output"
	[ "$status" -eq 0 ]
	[[ $output == *$'\n1..'* ]]
	[[ $output != *"not ok"* ]]
}

@test "cross: AArch64, the RFC 1321 vectors and md5.h" {
	cross aarch64 unit tests/unit.c tests/tap.c
}

@test "cross: AArch64, every lane engine against the scalar transform" {
	cross aarch64 lanes_test tests/lanes_test.c tests/tap.c run/lanecount.c lib/md5.c lib/lanes.c
	[[ $output == *"# engines: neon/4 scalar/1"* ]]
}

@test "cross: s390x (big-endian), the RFC 1321 vectors and md5.h" {
	cross s390x unit tests/unit.c tests/tap.c
}

@test "cross: s390x (big-endian), the engines there against md5_blocks" {
	cross s390x lanes_test tests/lanes_test.c tests/tap.c run/lanecount.c lib/md5.c lib/lanes.c
	[[ $output == *"# engines: scalar/1"* ]]
}
