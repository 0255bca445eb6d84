#!/usr/bin/env bats
# quote_name() against GNU md5sum's quoting of names in its messages, over
# some 2,500 names (every byte, quotes, UTF-8 valid and not) in the C and
# C.UTF-8 locales: see quote_test.sh.

bats_require_minimum_version 1.5.0

setup() {
	/usr/bin/md5sum --version 2>/dev/null | grep -q 'GNU coreutils' ||
		skip "no GNU md5sum to compare with (Debian: coreutils)"
}

@test "quote_name quotes every generated name as GNU md5sum does" {
	run -0 "$BATS_TEST_DIRNAME/quote_test.sh" "$BATS_TEST_DIRNAME/../build/tests/quote_driver"
}
