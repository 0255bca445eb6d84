#!/usr/bin/env bats
# Differential tests, check mode (-c): GNU md5sum 9.1 vs ours.
# See diff_helper.bash.  Run against GNU itself with MD5SUM=/usr/bin/md5sum.
#
# Fixtures (diff_setup): a="abc" ($HA), e="" ($HE), h="hello\n" ($HH), x="x" ($HX)

load diff_helper

setup() {
	diff_setup
}

teardown() {
	diff_teardown
}

# list LINE...: write the lines to file "list", each followed by "\n".
# Lines are used verbatim (printf %s), so write real control characters
# with $'...'.
list() {
	printf '%s\n' "$@" >list
}

# rawlist STRING: write STRING to "list" through printf %b (for NUL bytes
# and a missing final newline).
rawlist() {
	printf '%b' "$1" >list
}

# ------------------------------------------------------------ line forms

@test "check: GNU line with two spaces" {
	list "$HA  a"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\n'
	gnu_stderr_empty
	gnu_status_is 0
}

@test "check: GNU line with '*' binary marker" {
	list "$HA *a"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\n'
}

@test "check: GNU line with a single space" {
	list "$HA a"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\n'
}

@test "check: GNU line with a tab separator" {
	list "$HA"$'\t'"a"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\n'
}

@test "check: tab separator then '*'" {
	list "$HA"$'\t'"*a"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\n'
}

@test "check: three spaces: the name starts with a space" {
	list "$HA   a"
	same_as_gnu -- -c list
	gnu_stdout_is $' a: FAILED open or read\n'
}

@test "check: space then tab: the name starts with a tab" {
	list "$HA "$'\t'"a"
	same_as_gnu -- -c list
	gnu_status_is 1
}

@test "check: two tabs: the name starts with a tab" {
	list "$HA"$'\t\t'"a"
	same_as_gnu -- -c list
}

@test "check: two spaces then '*': the name is '*a'" {
	printf 'abc' >'*a'
	list "$HA  *a" "$HE  *a"
	same_as_gnu -- -c list
	gnu_stdout_is $'*a: OK\n*a: FAILED\n'
}

@test "check: hash directly followed by '*' (no space) is rejected" {
	list "$HA*a"
	same_as_gnu -- -c list
	gnu_stderr_is $'md5sum: list: no properly formatted checksum lines found\n'
	gnu_status_is 1
}

@test "check: space then '?' is part of the name" {
	list "$HA ?a"
	same_as_gnu -- -c list
	gnu_stdout_is $'?a: FAILED open or read\n'
}

@test "check: hash alone is rejected" {
	list "$HA"
	same_as_gnu -- -c list
	gnu_stderr_has 'no properly formatted checksum lines found'
}

@test "check: hash and one space (empty name) is rejected" {
	list "$HA "
	same_as_gnu -- -c list
	gnu_status_is 1
	gnu_stdout_empty
}

@test "check: hash and two spaces means the name ' '" {
	list "$HA  "
	same_as_gnu -- -c list
	gnu_stdout_is $' : FAILED open or read\n'
}

@test "check: hash, space, '*' and nothing else means the name '*'" {
	list "$HA *"
	same_as_gnu -- -c list
	gnu_stdout_is $'*: FAILED open or read\n'
}

@test "check: trailing spaces are part of the name" {
	list "$HA  a  "
	same_as_gnu -- -c list
	gnu_stdout_is $'a  : FAILED open or read\n'
}

@test "check: leading spaces and tabs before the hash are skipped" {
	list "  $HA  a" $'\t'"$HA  a" $' \t '"$HA  a"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\na: OK\na: OK\n'
}

@test "check: leading \\v, \\f or \\r before the hash is rejected" {
	list $'\v'"$HA  a" $'\f'"$HA  a" $'\r'"$HA  a" "$HA  e"
	same_as_gnu -- -c list
	gnu_stderr_has 'WARNING: 3 lines are improperly formatted'
}

@test "check: \\v or \\r between hash and name is rejected" {
	list "$HA"$'\v'"a" "$HA"$'\r'"a"
	same_as_gnu -- -c list
}

@test "check: upper-case hex" {
	list "${HA^^}  a"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\n'
}

@test "check: mixed-case hex" {
	list "9001509${HA:7:1}3CD24fb0D6963f7D28E17F72  a"
	same_as_gnu -- -c list
}

@test "check: upper-case hex that does not match" {
	list "${HE^^}  a"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: FAILED\n'
}

@test "check: 31 hex digits is rejected" {
	list "${HA:1}  a"
	same_as_gnu -- -c list
	gnu_stderr_has 'no properly formatted'
}

@test "check: 33 hex digits is rejected" {
	list "${HA}0  a"
	same_as_gnu -- -c list
	gnu_stderr_has 'no properly formatted'
}

@test "check: 64 hex digits (a SHA-256 length) is rejected" {
	list "$HA$HA  a"
	same_as_gnu -- -c list
}

@test "check: non-hex digit is rejected" {
	list "${HA:0:31}g  a" "${HA:0:31}G  a" "${HA:0:10}-${HA:11}  a"
	same_as_gnu -- -c list
	gnu_stderr_has 'no properly formatted'
}

@test "check: hash followed by a letter is rejected" {
	list "${HA}x a"
	same_as_gnu -- -c list
}

@test "check: empty name after hash and '*'" {
	list "$HA *" "$HA  *" "$HA **"
	same_as_gnu -- -c list
}

# ------------------------- 'md5 -r' lines: the first GNU line picks the format
# A GNU line whose separator is not followed by ' ' or '*' (or whose name
# is one byte) reads as the BSD reversed form ("HASH NAME", as md5 -r
# writes it).  The first such or mode-character line of the run picks one
# format for the rest of the run, later lists included.

@test "reversed: after a first 'HASH NAME' line, a leading ' ' or '*' stays in later names" {
	printf 'abc' >' b'
	printf 'abc' >'*c'
	list "$HA a" "$HA  b" "$HA *c"
	same_as_gnu -- -c --strict list
	gnu_stdout_is $'a: OK\n b: OK\n*c: OK\n'
	gnu_stderr_empty
	gnu_status_is 0
}

@test "reversed: after a first line with a mode character, a 'HASH NAME' line is improperly formatted" {
	list "$HA  a" "$HA a" "$HA *a"
	same_as_gnu -- -c -w list
	gnu_stdout_is $'a: OK\na: OK\n'
	gnu_stderr_is $'md5sum: list: 2: improperly formatted MD5 checksum line\nmd5sum: WARNING: 1 line is improperly formatted\n'
}

@test "reversed: a tab separator with no mode character after it picks the reversed format" {
	printf 'abc' >'*c'
	list "$HA"$'\t'"a" "$HA *c"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\n*c: OK\n'
}

@test "reversed: a first line with a one-byte name picks the reversed format" {
	printf 'abc' >' '
	printf 'abc' >'*c'
	list "$HA  " "$HA *c"
	same_as_gnu -- -c list
	gnu_stdout_is $' : OK\n*c: OK\n'
}

@test "reversed: a non-hex line like '<32 letters> NAME' first picks no format" {
	list "$(printf 'z%.0s' {1..32}) name" "$HA  a" "$HA *a"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\na: OK\n'
	gnu_stderr_is $'md5sum: WARNING: 1 line is improperly formatted\n'
	gnu_status_is 0
}

@test "reversed: tag lines, comments and blank lines first pick no format" {
	printf 'abc' >'*c'
	list "MD5 (e) = $HE" '# comment' '' "$HA a" "$HA *c"
	same_as_gnu -- -c list
	gnu_stdout_is $'e: OK\na: OK\n*c: OK\n'
}

@test "reversed: the format picked by the first list holds in the next list" {
	printf 'abc' >' b'
	list "$HA a"
	printf '%s\n' "$HA  b" >list2
	same_as_gnu -- -c list list2
	gnu_stdout_is $'a: OK\n b: OK\n'
	list "$HA  a"
	printf '%s\n' "$HA a" >list2
	same_as_gnu -- -c list list2
	gnu_stdout_is $'a: OK\n'
	gnu_stderr_is $'md5sum: list2: no properly formatted checksum lines found\n'
	gnu_status_is 1
}

@test "round-trip: md5sum's own list for names starting with ' ' or '*' checks with --strict" {
	printf 'a\n' >a1
	printf 'b\n' >' b'
	printf 'c\n' >'*c'
	printf 's\n' >' '
	same_as_gnu_sh -- 'md5sum -t a1 " b" "*c" " " >"$SCRATCH/l" && md5sum --strict -c "$SCRATCH/l"'
	gnu_stdout_is $'a1: OK\n b: OK\n*c: OK\n : OK\n'
	gnu_status_is 0
}

@test "round-trip: md5sum's own list, made 'md5 -r' style (one space), checks with --strict" {
	printf 'a\n' >a1
	printf 'b\n' >' b'
	printf 'c\n' >'*c'
	printf 's\n' >' '
	same_as_gnu_sh -- 'md5sum -t a1 " b" "*c" " " | sed "s/  / /" >"$SCRATCH/l" && md5sum --strict -c "$SCRATCH/l"'
	gnu_stdout_is $'a1: OK\n b: OK\n*c: OK\n : OK\n'
	gnu_status_is 0
}

@test "round-trip: a 'md5 -r' style list whose first name starts with ' ' fails with --strict" {
	printf 'b\n' >' b'
	printf 'c\n' >'*c'
	same_as_gnu_sh -- 'md5sum -t " b" "*c" | sed "s/  / /" >"$SCRATCH/l"; md5sum --strict -c "$SCRATCH/l"'
	gnu_stdout_is $'b: FAILED open or read\nc: FAILED open or read\n'
	gnu_status_is 1
}

@test "round-trip: a --tag list for names starting with ' ' or '*' checks with --strict" {
	printf 'a\n' >a1
	printf 'b\n' >' b'
	printf 'c\n' >'*c'
	printf 's\n' >' '
	same_as_gnu_sh -- 'md5sum --tag a1 " b" "*c" " " >"$SCRATCH/l" && md5sum --strict -c "$SCRATCH/l"'
	gnu_stdout_is $'a1: OK\n b: OK\n*c: OK\n : OK\n'
	gnu_status_is 0
}

@test "round-trip: a --tag list for names with backslash, newline and tab checks with --strict" {
	: >'x\y'
	: >'x\'
	: >$'x\ny'
	: >$'x\ty'
	same_as_gnu_sh -- 'md5sum --tag "x\y" "x\\" "$(printf "x\ny")" "$(printf "x\ty")" >"$SCRATCH/l" && md5sum --strict -c "$SCRATCH/l"'
	gnu_stdout_is $'x\\y: OK\nx\\: OK\n\\x\\ny: OK\nx\ty: OK\n'
	gnu_status_is 0
}

# ------------------------------------------------------------ BSD tag lines

@test "tag: standard 'MD5 (NAME) = HASH'" {
	list "MD5 (a) = $HA"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\n'
}

@test "tag: mismatch" {
	list "MD5 (a) = $HE"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: FAILED\n'
	gnu_stderr_is $'md5sum: WARNING: 1 computed checksum did NOT match\n'
	gnu_status_is 1
}

@test "tag: no space before '(' and no spaces around '=' variants" {
	list "MD5(a)= $HA" "MD5 (a)=$HA" "MD5(a)=$HA" "MD5(a) = $HA" "MD5 (a) =$HA"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\na: OK\na: OK\na: OK\na: OK\n'
}

@test "tag: extra spaces and tabs around '='" {
	list "MD5 (a)  = $HA" "MD5 (a) =  $HA" "MD5 (a)"$'\t'"= $HA" "MD5 (a) ="$'\t'"$HA" "MD5 (a)"$'\t=\t'"$HA"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\na: OK\na: OK\na: OK\na: OK\n'
}

@test "tag: two spaces before '(' is rejected" {
	list "MD5  (a) = $HA"
	same_as_gnu -- -c list
	gnu_stderr_has 'no properly formatted'
}

@test "tag: tab before '(' is rejected" {
	list "MD5"$'\t'"(a) = $HA"
	same_as_gnu -- -c list
}

@test "tag: \\v and \\f around '=' are rejected" {
	list "MD5 (a)"$'\v'"= $HA" "MD5 (a) ="$'\f'"$HA"
	same_as_gnu -- -c list
}

@test "tag: lower-case 'md5' is rejected" {
	list "md5 (a) = $HA"
	same_as_gnu -- -c list
	gnu_stderr_has 'no properly formatted'
}

@test "tag: other algorithm names are rejected" {
	list "SHA1 (a) = $HA" "MD4 (a) = $HA" "MD5SUM (a) = $HA" "SHA256 (a) = $HA$HA"
	same_as_gnu -- -c list
	gnu_stderr_has 'no properly formatted'
}

@test "tag: other algorithm names without the space ('SHA1(a)= HASH') are rejected" {
	list "SHA1(a)= $HA" "SHA256(a)= $HA$HA"
	same_as_gnu -- -c list
	gnu_stderr_is $'md5sum: list: no properly formatted checksum lines found\n'
	gnu_status_is 1
}

@test "tag: upper-case hex" {
	list "MD5 (a) = ${HA^^}"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\n'
}

@test "tag: wrong-length and non-hex digests are rejected" {
	list "MD5 (a) = ${HA:1}" "MD5 (a) = ${HA}0" "MD5 (a) = ${HA:0:31}z" "MD5 (a) = "
	same_as_gnu -- -c list
	gnu_stderr_has 'no properly formatted'
}

@test "tag: base64 digest is rejected" {
	list "MD5 (a) = kAFQmDzST7DWlj99KOF/cg=="
	same_as_gnu -- -c list
	gnu_stderr_has 'no properly formatted'
}

@test "tag: trailing space or tab after the digest is rejected" {
	list "MD5 (a) = $HA " "MD5 (a) = $HA"$'\t'
	same_as_gnu -- -c list
	gnu_stderr_has 'no properly formatted'
}

@test "tag: trailing garbage after the digest is rejected" {
	list "MD5 (a) = $HA extra" "MD5 (a) = $HA)"
	same_as_gnu -- -c list
}

@test "tag: missing '=' or '==' is rejected" {
	list "MD5 (a) $HA" "MD5 (a) == $HA" "MD5 (a) = =$HA" "MD5 (a)"
	same_as_gnu -- -c list
	gnu_stderr_has 'no properly formatted'
}

@test "tag: text between ')' and '=' is rejected" {
	list "MD5 (a)b = $HA"
	same_as_gnu -- -c list
}

@test "tag: missing parentheses are rejected" {
	list "MD5 a) = $HA" "MD5 (a = $HA" "MD5 ("
	same_as_gnu -- -c list
	gnu_stderr_has 'no properly formatted'
}

@test "tag: a list of only 'MD5 (' with no newline is improperly formatted" {
	rawlist 'MD5 ('
	same_as_gnu -- -c list
	gnu_stderr_is $'md5sum: list: no properly formatted checksum lines found\n'
	gnu_status_is 1
}

@test "tag: the name ends at the last ')' (name contains ') = ')" {
	printf 'abc' >'x) = y'
	list "MD5 (x) = y) = $HA"
	same_as_gnu -- -c list
	gnu_stdout_is $'x) = y: OK\n'
}

@test "tag: spaces inside the parentheses are part of the name" {
	list "MD5 ( a) = $HA" "MD5 (a ) = $HA"
	same_as_gnu -- -c list
	gnu_stdout_is $' a: FAILED open or read\na : FAILED open or read\n'
}

@test "tag: empty name" {
	list "MD5 () = $HA"
	same_as_gnu -- -c list
	gnu_stdout_is $': FAILED open or read\n'
	gnu_stderr_has "md5sum: '': No such file or directory"
}

@test "tag: name starting with '*' is not a binary marker" {
	list "MD5 (*a) = $HA"
	same_as_gnu -- -c list
	gnu_stdout_is $'*a: FAILED open or read\n'
}

@test "tag: leading whitespace before MD5" {
	list " MD5 (a) = $HA" $'\t'"MD5 (a) = $HA"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\na: OK\n'
}

@test "tag: name with spaces and parentheses" {
	printf 'abc' >'(p q)'
	list "MD5 ((p q)) = $HA"
	same_as_gnu -- -c list
	gnu_stdout_is $'(p q): OK\n'
}

@test "tag: list produced by --tag round-trips" {
	printf 'abc' >'sp ace'
	printf '%s\n' "MD5 (a) = $HA" "MD5 (e) = $HE" "MD5 (sp ace) = $HA" "MD5 (h) = $HH" >list
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\ne: OK\nsp ace: OK\nh: OK\n'
}

@test "tag and GNU lines mixed in one list" {
	list "MD5 (a) = $HA" "$HE  e" "MD5 (h) = $HE" "$HH *h"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\ne: OK\nh: FAILED\nh: OK\n'
}

# ----------------------------------------------------- escaped names

@test "escape: backslash line with \\\\ in the name" {
	printf 'abc' >'b\s'
	list "\\$HA  b\\\\s"
	same_as_gnu -- -c list
	gnu_stdout_is $'b\\s: OK\n'
}

@test "escape: backslash line with \\n in the name (output is escaped again)" {
	printf 'abc' >$'n\nl'
	list "\\$HA  n\\nl"
	same_as_gnu -- -c list
	gnu_stdout_is $'\\n\\nl: OK\n'
}

@test "escape: backslash line with \\r in the name (output is not escaped)" {
	printf 'abc' >$'c\rr'
	list "\\$HA  c\\rr"
	same_as_gnu -- -c list
	gnu_stdout_is $'c\rr: OK\n'
}

@test "escape: name with both backslash and newline" {
	printf 'abc' >$'b\\\nx'
	list "\\$HA  b\\\\\\nx"
	same_as_gnu -- -c list
	gnu_stdout_is $'\\b\\\\\\nx: OK\n'
}

@test "escape: name with CR and LF is fully escaped in the output" {
	list "\\$HA  x\\r\\ny"
	same_as_gnu -- -c list
	gnu_stdout_is $'\\x\\r\\ny: FAILED open or read\n'
}

@test "escape: mismatch and missing with an escaped newline name" {
	printf 'abc' >$'n\nl'
	list "\\$HE  n\\nl" "\\$HA  gone\\nfile"
	same_as_gnu -- -c list
}

@test "escape: unknown escape \\t is rejected" {
	list "\\$HA  x\\ty"
	same_as_gnu -- -c list
	gnu_stderr_has 'no properly formatted'
}

@test "escape: trailing lone backslash is rejected" {
	list "\\$HA  x\\"
	same_as_gnu -- -c list
	gnu_stderr_has 'no properly formatted'
}

@test "escape: other unknown escapes (\\a \\0 \\x41 \\ ) are rejected" {
	list "\\$HA  x\\a" "\\$HA  x\\0" "\\$HA  x\\x41" "\\$HA  x\\ y" "$HA  a"
	same_as_gnu -- -c -w list
	gnu_stderr_has 'WARNING: 4 lines are improperly formatted'
}

@test "escape: a backslash line without escapes in the name" {
	list "\\$HA  a" "\\$HA *a"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\na: OK\n'
}

@test "escape: leading whitespace before the backslash" {
	list " \\$HA  a"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\n'
}

@test "escape: leading whitespace before a backslash tag line, with --strict" {
	list " \\MD5 (a) = $HA" $'\t'"\\MD5 (e) = $HE"
	same_as_gnu -- -c --strict list
	gnu_stdout_is $'a: OK\ne: OK\n'
	gnu_status_is 0
}

@test "escape: backslash then space is rejected" {
	list "\\ $HA  a"
	same_as_gnu -- -c list
}

@test "escape: without a leading backslash, backslashes are literal" {
	printf 'abc' >'b\\s'
	list "$HA  b\\\\s" "$HA  nonex\\nx"
	same_as_gnu -- -c list
	gnu_stdout_is $'b\\\\s: OK\nnonex\\nx: FAILED open or read\n'
}

@test "escape: a literal-backslash name is printed raw (not escaped)" {
	printf 'abc' >'b\s'
	list "$HA  b\\s" "$HE  b\\s"
	same_as_gnu -- -c list
	gnu_stdout_is $'b\\s: OK\nb\\s: FAILED\n'
}

@test "escape: tag line with leading backslash" {
	printf 'abc' >'a\b'
	printf 'abc' >$'n\nl'
	list "\\MD5 (a\\\\b) = $HA" "\\MD5 (n\\nl) = $HA" "\\MD5 (a) = $HA"
	same_as_gnu -- -c list
	gnu_stdout_is $'a\\b: OK\n\\n\\nl: OK\na: OK\n'
}

@test "escape: tag line without leading backslash keeps backslashes" {
	list "MD5 (a\\\\b) = $HA" "MD5 (\\a) = $HA"
	same_as_gnu -- -c list
	gnu_stdout_is $'a\\\\b: FAILED open or read\n\\a: FAILED open or read\n'
}

@test "escape: list produced by md5sum for special names round-trips" {
	printf 'abc' >'back\slash'
	printf 'abc' >$'new\nline'
	printf 'abc' >$'cr\rx'
	list "\\$HA  back\\\\slash" "\\$HA  new\\nline" "\\$HA  cr\\rx" "\\MD5 (new\\nline) = $HA"
	same_as_gnu -- -c list
}

@test "escape: missing-file error message quotes the unescaped name" {
	list "\\$HA  no\\nsuch" "\\$HA  no\\\\such"
	same_as_gnu -- -c list
	gnu_stderr_has "md5sum: 'no'\$'\\n''such': No such file or directory"
}

# ------------------------------------------------- line endings / layout

@test "layout: CRLF line endings (GNU lines)" {
	printf '%s\r\n' "$HA  a" "$HE  e" >list
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\ne: OK\n'
}

@test "layout: CRLF line endings (tag lines)" {
	printf '%s\r\n' "MD5 (a) = $HA" "MD5 (e) = $HE" >list
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\ne: OK\n'
}

@test "layout: CRLF with an escaped line" {
	printf 'abc' >$'n\nl'
	printf '%s\r\n' "\\$HA  n\\nl" >list
	same_as_gnu -- -c list
}

@test "layout: two CRs: only one is removed, the name ends in CR" {
	printf '%s\r\r\n' "$HA  a" >list
	same_as_gnu -- -c list
	gnu_stdout_is $'a\r: FAILED open or read\n'
	gnu_stderr_has "md5sum: 'a'\$'\\r': No such file or directory"
}

@test "layout: CR at end of file without LF is removed" {
	rawlist "$HA  a\r"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\n'
}

@test "layout: missing final newline (GNU line)" {
	rawlist "$HA  a"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\n'
}

@test "layout: missing final newline (tag line)" {
	rawlist "$HE  e\nMD5 (a) = $HA"
	same_as_gnu -- -c list
	gnu_stdout_is $'e: OK\na: OK\n'
}

@test "layout: empty list file" {
	: >list
	same_as_gnu -- -c list
	gnu_stderr_is $'md5sum: list: no properly formatted checksum lines found\n'
	gnu_status_is 1
}

@test "layout: comment lines are ignored, even with --strict" {
	list '# a comment' "$HA  a" '#' '#no space'
	same_as_gnu -- -c --strict list
	gnu_stdout_is $'a: OK\n'
	gnu_stderr_empty
	gnu_status_is 0
}

@test "layout: comment with CRLF is ignored" {
	printf '%s\r\n' '# comment' "$HA  a" >list
	same_as_gnu -- -c --strict --warn list
	gnu_stderr_empty
}

@test "layout: indented comment is an improperly formatted line" {
	list ' # indented' "$HA  a"
	same_as_gnu -- -c list
	gnu_stderr_is $'md5sum: WARNING: 1 line is improperly formatted\n'
	gnu_status_is 0
}

@test "layout: escaped '#' line is improperly formatted" {
	list '\#x' "$HA  a"
	same_as_gnu -- -c -w list
}

@test "layout: a list with only comments" {
	list '# one' '# two'
	same_as_gnu -- -c list
	gnu_stderr_has 'no properly formatted'
}

@test "layout: blank lines are ignored, even with --strict" {
	list '' "$HA  a" '' ''
	same_as_gnu -- -c --strict list
	gnu_stderr_empty
	gnu_status_is 0
}

@test "layout: a line with only CR is blank" {
	printf '\r\n%s\n\r\n' "$HA  a" >list
	same_as_gnu -- -c --strict list
	gnu_status_is 0
}

@test "layout: lines with only whitespace are improperly formatted" {
	list '   ' $'\t' "$HA  a" $' \r'
	same_as_gnu -- -c list
	gnu_stderr_is $'md5sum: WARNING: 3 lines are improperly formatted\n'
}

@test "layout: a list with only blank lines" {
	list '' '' ''
	same_as_gnu -- -c list
	gnu_stderr_has 'no properly formatted'
}

@test "layout: a PGP clear-signed list: the armour lines are improperly formatted, the sums checked" {
	list '-----BEGIN PGP SIGNED MESSAGE-----' 'Hash: SHA512' '' '# release sums' \
		"$HA  a" "$HE  e" '-----BEGIN PGP SIGNATURE-----' '' \
		'iHUEARYKAB0WIQRmYWtlIHNpZ25hdHVyZSBmb3IgYSB0ZXN0AAoJEG1kNXN1bQ' \
		'=tEsT' '-----END PGP SIGNATURE-----'
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\ne: OK\n'
	gnu_stderr_is $'md5sum: WARNING: 6 lines are improperly formatted\n'
	gnu_status_is 0
}

@test "layout: a PGP clear-signed list fails with --strict" {
	list '-----BEGIN PGP SIGNED MESSAGE-----' 'Hash: SHA512' '' "$HA  a" \
		'-----BEGIN PGP SIGNATURE-----' '' 'iHUEARYKAB0WIQRmYWtlIHNpZ25hdHVyZQ' \
		'-----END PGP SIGNATURE-----'
	same_as_gnu -- -c --strict list
	gnu_stdout_is $'a: OK\n'
	gnu_stderr_is $'md5sum: WARNING: 5 lines are improperly formatted\n'
	gnu_status_is 1
}

@test "layout: very long garbage line (200 kB) before a good line" {
	{ head -c 200000 /dev/zero | tr '\0' 'g'; printf '\n%s  a\n' "$HA"; } >list
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\n'
	gnu_stderr_is $'md5sum: WARNING: 1 line is improperly formatted\n'
}

@test "layout: very long file name (5000 bytes)" {
	{ printf '%s  ' "$HA"; head -c 5000 /dev/zero | tr '\0' 'n'; printf '\n'; } >list
	same_as_gnu -- -c list
	gnu_status_is 1
}

@test "layout: long name through many directories" {
	local p=.
	for i in $(seq 1 40); do p+=/dir$i; done
	mkdir -p "$p"
	printf 'abc' >"$p/f"
	list "$HA  $p/f" "MD5 ($p/f) = $HA"
	same_as_gnu -- -c list
}

@test "layout: many lines (20000)" {
	# One process writes the lines: a loop of the test's own runs its
	# every step through bats's trap.
	printf '%s  a\n%s  e\nMD5 (h) = %s\n%s *x\n' "$HA" "$HE" "$HH" "$HX" >four
	awk '{ l[NR] = $0 } END { for (i = 0; i < 5000; i++) for (k = 1; k <= NR; k++) print l[k] }' four >list
	same_as_gnu -- -c list
	same_as_gnu -- -c --quiet list
	gnu_stdout_empty
}

# ------------------------------------------------------------- NUL bytes

@test "nul: NUL inside the name truncates the name" {
	rawlist "$HA  a\0junk\n"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\n'
}

@test "nul: line starting with NUL is improperly formatted" {
	rawlist "\0$HA  a\n$HA  a\n"
	same_as_gnu -- -c -w list
	gnu_stderr_has 'list: 1: improperly formatted MD5 checksum line'
}

@test "nul: NUL between hash and name is improperly formatted" {
	rawlist "$HA\0  a\n"
	same_as_gnu -- -c list
	gnu_stderr_has 'no properly formatted'
}

@test "nul: a line of NULs is improperly formatted" {
	rawlist "$HA  a\n\0\0\0\n$HA  a\n"
	same_as_gnu -- -c list
	gnu_stderr_is $'md5sum: WARNING: 1 line is improperly formatted\n'
}

@test "nul: NUL inside a tag name" {
	rawlist "MD5 (a\0b) = $HA\n"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\n'
}

@test "nul: list written by -z (NUL-terminated GNU lines)" {
	rawlist "$HA  a\0$HE  e\0"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\n'
}

@test "nul: list written by --tag -z (the tag parser sees the whole line)" {
	rawlist "MD5 (a) = $HA\0MD5 (e) = $HE\0"
	same_as_gnu -- -c list
	gnu_stdout_is "a) = $HA: FAILED open or read"$'\n'
}

@test "nul: NUL after the tag digest" {
	rawlist "MD5 (a) = $HA\0junk\n"
	same_as_gnu -- -c list
}

@test "nul: NUL in the middle of the hash" {
	rawlist "${HA:0:16}\0${HA:17}  a\n"
	same_as_gnu -- -c list
}

# one_bad_line_then_good BAD: a list of BAD and a good line for a: the bad
# one is counted and warned about, a is checked; every display option.
one_bad_line_then_good() {
	rawlist "$1$HA  a\n"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\n'
	gnu_stderr_is $'md5sum: WARNING: 1 line is improperly formatted\n'
	gnu_status_is 0
	same_as_gnu -- -c -w list
	gnu_stderr_is $'md5sum: list: 1: improperly formatted MD5 checksum line\nmd5sum: WARNING: 1 line is improperly formatted\n'
	same_as_gnu -- -c --strict list
	gnu_status_is 1
	same_as_gnu -- -c -w --strict list
	gnu_stdout_is $'a: OK\n'
	gnu_status_is 1
}

# only_bad_line BAD: a list of BAD alone has no properly formatted line.
only_bad_line() {
	rawlist "$1"
	same_as_gnu -- -c list
	gnu_stdout_empty
	gnu_stderr_is $'md5sum: list: no properly formatted checksum lines found\n'
	gnu_status_is 1
	same_as_gnu -- -c -w list
	gnu_stderr_is $'md5sum: list: 1: improperly formatted MD5 checksum line\nmd5sum: list: no properly formatted checksum lines found\n'
	same_as_gnu -- -c --strict list
	gnu_stderr_is $'md5sum: list: no properly formatted checksum lines found\n'
	gnu_status_is 1
	same_as_gnu -- -c -w --strict list
	gnu_status_is 1
}

@test "nul: escaped GNU line with a NUL in the name is improperly formatted" {
	one_bad_line_then_good "\\\\$HA  a\0junk\n"
}

@test "nul: escaped GNU line with a NUL in the name, alone: no properly formatted lines" {
	only_bad_line "\\\\$HA  a\0junk\n"
}

@test "nul: escaped tag line with a NUL in the name is improperly formatted" {
	one_bad_line_then_good "\\\\MD5 (a\0x) = $HA\n"
}

@test "nul: escaped tag line with a NUL in the name, alone: no properly formatted lines" {
	only_bad_line "\\\\MD5 (a\0x) = $HA\n"
}

@test "nul: unescaped GNU line with a NUL: the name up to the NUL is checked, also with -w and --strict" {
	rawlist "$HA  a\0junk\n"
	same_as_gnu_each -- '-c' '-c -w' '-c --strict' '-c -w --strict' ::: list
	gnu_stdout_is $'a: OK\n'
	gnu_stderr_empty
	gnu_status_is 0
}

@test "nul: unescaped tag line with a NUL: the name up to the NUL is checked, also with -w and --strict" {
	rawlist "MD5 (a\0x) = $HA\n"
	same_as_gnu_each -- '-c' '-c -w' '-c --strict' '-c -w --strict' ::: list
	gnu_stdout_is $'a: OK\n'
	gnu_stderr_empty
	gnu_status_is 0
}

# ------------------------------------------------------------ stdin lists

@test "stdin: -c with no list reads the list from stdin" {
	list "$HA  a" "$HE  e"
	same_as_gnu --stdin list -- -c
	gnu_stdout_is $'a: OK\ne: OK\n'
}

@test "stdin: -c - reads the list from stdin" {
	list "$HA  a"
	same_as_gnu --stdin list -- -c -
	gnu_stdout_is $'a: OK\n'
}

@test "stdin: -c -- - reads the list from stdin" {
	list "$HA  a"
	same_as_gnu --stdin list -- -c -- -
}

@test "stdin: list from a pipe" {
	same_as_gnu_sh -- 'printf "%s  a\n%s  e\n" "$HA" "$HA" | md5sum -c'
	gnu_stdout_is $'a: OK\ne: FAILED\n'
}

@test "stdin: bad lines in a stdin list are reported as 'standard input'" {
	list junk "$HA  a"
	same_as_gnu --stdin list -- -c -w
	gnu_stderr_is $'md5sum: \'standard input\': 1: improperly formatted MD5 checksum line\nmd5sum: WARNING: 1 line is improperly formatted\n'
}

@test "stdin: empty stdin list" {
	same_as_gnu --stdin e -- -c
	gnu_stderr_is $'md5sum: \'standard input\': no properly formatted checksum lines found\n'
}

@test "stdin: list from stdin twice (second is empty)" {
	list "$HA  a"
	same_as_gnu --stdin list -- -c - -
	gnu_stdout_is $'a: OK\n'
	gnu_stderr_has "'standard input': no properly formatted checksum lines found"
}

@test "stdin: stdin list between file lists" {
	list "$HA  a"
	cp list list2
	same_as_gnu --stdin list -- -c list2 - list2
}

@test "stdin: stdin closed, -c" {
	same_as_gnu --stdin-closed -- -c
	gnu_stderr_has "'standard input': read error"
	gnu_status_is 1
}

@test "stdin: stdin is a directory, -c" {
	mkdir d
	same_as_gnu --stdin d -- -c
	gnu_stderr_is $'md5sum: \'standard input\': read error\n'
}

@test "stdin: '-' named in a list file hashes stdin" {
	list "$HA  -"
	same_as_gnu --stdin a -- -c list
	gnu_stdout_is $'-: OK\n'
}

@test "stdin: '-' named in a list file, stdin does not match" {
	list "$HA  -"
	same_as_gnu --stdin e -- -c list
	gnu_stdout_is $'-: FAILED\n'
}

@test "stdin: '-' named in a list file, stdin closed" {
	list "$HA  -" "$HA  a"
	same_as_gnu --stdin-closed -- -c list
	gnu_stdout_is $'-: FAILED open or read\na: OK\n'
}

@test "stdin: '-' named twice in a list file" {
	list "$HA  -" "$HE  -"
	same_as_gnu --stdin a -- -c list
	gnu_stdout_is $'-: OK\n-: OK\n'
}

@test "stdin: '-' named in a list read from stdin is an improperly formatted line" {
	list "$HA  a" "$HE  -" "$HA  a"
	same_as_gnu --stdin list -- -c
	gnu_stdout_is $'a: OK\na: OK\n'
	gnu_stderr_is $'md5sum: WARNING: 1 line is improperly formatted\n'
}

@test "stdin: '-' in a stdin list, with --warn" {
	list "$HE  -"
	same_as_gnu --stdin list -- -c --warn
	gnu_stderr_has "'standard input': 1: improperly formatted MD5 checksum line"
}

@test "stdin: 'MD5 (-)' in a stdin list is improperly formatted too" {
	list "MD5 (-) = $HE" "$HA  a"
	same_as_gnu --stdin list -- -c -
}

# ---------------------------------------------------------- several lists

@test "lists: two lists each get their own summary" {
	list junk "$HA  a" "$HE  a" "$HA  nope"
	printf '%s\n' junk junk "$HA  a" "$HE  a" "$HE  a" "$HA  nope" "$HA  nope2" >list2
	same_as_gnu -- -c list list2
	gnu_stderr_is "md5sum: nope: No such file or directory
md5sum: WARNING: 1 line is improperly formatted
md5sum: WARNING: 1 listed file could not be read
md5sum: WARNING: 1 computed checksum did NOT match
md5sum: nope: No such file or directory
md5sum: nope2: No such file or directory
md5sum: WARNING: 2 lines are improperly formatted
md5sum: WARNING: 2 listed files could not be read
md5sum: WARNING: 2 computed checksums did NOT match
"
}

@test "lists: the same list twice" {
	list "$HA  a" "$HE  e"
	same_as_gnu -- -c list list
	gnu_stdout_is $'a: OK\ne: OK\na: OK\ne: OK\n'
}

@test "lists: a bad list then a good one: exit status 1" {
	list "$HE  a"
	printf '%s\n' "$HA  a" >good
	same_as_gnu -- -c list good
	gnu_status_is 1
}

@test "lists: a list with no valid lines among good lists" {
	list junk
	printf '%s\n' "$HA  a" >good
	same_as_gnu -- -c good list good
	gnu_stdout_is $'a: OK\na: OK\n'
	gnu_stderr_is $'md5sum: list: no properly formatted checksum lines found\n'
	gnu_status_is 1
}

@test "lists: missing list file" {
	same_as_gnu -- -c nolist
	gnu_stderr_is $'md5sum: nolist: No such file or directory\n'
	gnu_status_is 1
}

@test "lists: missing list among good lists" {
	list "$HA  a"
	same_as_gnu -- -c list nolist list
	gnu_stdout_is $'a: OK\na: OK\n'
	gnu_status_is 1
}

@test "lists: two missing lists are each reported" {
	same_as_gnu -- -c nolist1 nolist2
	gnu_stderr_is $'md5sum: nolist1: No such file or directory\nmd5sum: nolist2: No such file or directory\n'
	gnu_status_is 1
}

@test "lists: two empty lists each say 'no properly formatted checksum lines found'" {
	: >empty1
	: >empty2
	same_as_gnu -- -c empty1 empty2
	gnu_stderr_is $'md5sum: empty1: no properly formatted checksum lines found\nmd5sum: empty2: no properly formatted checksum lines found\n'
	gnu_status_is 1
}

@test "lists: list that is a directory" {
	mkdir d
	same_as_gnu -- -c d
	gnu_stderr_is $'md5sum: d: read error\n'
	gnu_status_is 1
}

@test "lists: list path through a regular file (ENOTDIR)" {
	same_as_gnu -- -c a/ a/list
	gnu_stderr_is $'md5sum: a/: Not a directory\nmd5sum: a/list: Not a directory\n'
}

@test "lists: list that cannot be read (EIO from /proc/self/mem)" {
	[[ -r /proc/self/mem ]] || skip "/proc/self/mem not available"
	(cat /proc/self/mem >/dev/null 2>&1) && skip "/proc/self/mem is readable here"
	same_as_gnu -- -c /proc/self/mem
	gnu_stderr_is $'md5sum: /proc/self/mem: read error\n'
}

@test "lists: unreadable list file (permission denied)" {
	list "$HA  a"
	chmod 000 list
	if ! cat list >/dev/null 2>&1; then
		same_as_gnu -- -c list
	else
		nobody_env a list
		same_as_gnu_sh --cwd "$NOBODY_W" -- "exec $AS_NOBODY md5sum -c list"
	fi
	gnu_stderr_is $'md5sum: list: Permission denied\n'
	gnu_status_is 1
}

@test "lists: list names are quoted in messages" {
	printf '%s\n' junk "$HA  a" >'my list'
	printf '%s\n' junk >$'nl\nlist'
	printf '%s\n' "$HA  nope" >"it's"
	same_as_gnu -- -c -w 'my list' $'nl\nlist' 'nolist here'
	gnu_stderr_has "md5sum: 'my list': 1: improperly formatted MD5 checksum line"
	same_as_gnu -- -c --ignore-missing "it's"
	gnu_stderr_is $'md5sum: "it\'s": no file was verified\n'
}

@test "lists: UTF-8 list name is not quoted" {
	printf '%s\n' junk >'lïst'
	same_as_gnu -- -c 'lïst'
	gnu_stderr_is $'md5sum: lïst: no properly formatted checksum lines found\n'
}

@test "lists: list given by a /dev/fd path (process substitution)" {
	same_as_gnu_sh -- 'md5sum -c <(printf "%s  a\n" "$HA") <(printf "junk\n")'
}

@test "lists: options after the list name (permutation)" {
	list "$HA  a" "$HE  a"
	same_as_gnu -- list -c --quiet
	gnu_stdout_is $'a: FAILED\n'
}

@test "lists: --check long form and abbreviation" {
	list "$HA  a"
	same_as_gnu_each -- '--check' '--chec' '--c' ::: list
}

# --------------------------------------------- results, counts, plurals

@test "result: mismatch" {
	list "$HE  a"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: FAILED\n'
	gnu_stderr_is $'md5sum: WARNING: 1 computed checksum did NOT match\n'
	gnu_status_is 1
}

@test "result: two mismatches (plural)" {
	list "$HE  a" "$HE  h"
	same_as_gnu -- -c list
	gnu_stderr_is $'md5sum: WARNING: 2 computed checksums did NOT match\n'
}

@test "result: missing listed file" {
	list "$HA  nope"
	same_as_gnu -- -c list
	gnu_stdout_is $'nope: FAILED open or read\n'
	gnu_stderr_is $'md5sum: nope: No such file or directory\nmd5sum: WARNING: 1 listed file could not be read\n'
	gnu_status_is 1
}

@test "result: two missing listed files (plural)" {
	list "$HA  nope" "$HA  nope"
	same_as_gnu -- -c list
	gnu_stderr_has 'WARNING: 2 listed files could not be read'
}

@test "result: one improperly formatted line (singular), exit 0" {
	list junk "$HA  a"
	same_as_gnu -- -c list
	gnu_stderr_is $'md5sum: WARNING: 1 line is improperly formatted\n'
	gnu_status_is 0
}

@test "result: two improperly formatted lines (plural)" {
	list junk "$HA  a" junk
	same_as_gnu -- -c list
	gnu_stderr_is $'md5sum: WARNING: 2 lines are improperly formatted\n'
}

@test "result: all lines bad: no summary, only 'no properly formatted'" {
	list junk junk2 junk3
	same_as_gnu -- -c list
	gnu_stderr_is $'md5sum: list: no properly formatted checksum lines found\n'
	gnu_status_is 1
}

@test "result: all kinds mixed, order of the summary lines" {
	list junk "$HA  a" "$HE  a" "$HA  nope"
	same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\na: FAILED\nnope: FAILED open or read\n'
	gnu_stderr_is $'md5sum: nope: No such file or directory\nmd5sum: WARNING: 1 line is improperly formatted\nmd5sum: WARNING: 1 listed file could not be read\nmd5sum: WARNING: 1 computed checksum did NOT match\n'
}

@test "result: directory listed in a list" {
	mkdir d
	list "$HA  d" "$HA  a"
	same_as_gnu -- -c list
	gnu_stdout_is $'d: FAILED open or read\na: OK\n'
	gnu_stderr_has 'md5sum: d: Is a directory'
}

@test "result: listed file that cannot be read (EIO)" {
	[[ -r /proc/self/mem ]] || skip "/proc/self/mem not available"
	(cat /proc/self/mem >/dev/null 2>&1) && skip "/proc/self/mem is readable here"
	list "$HA  /proc/self/mem"
	same_as_gnu -- -c list
	gnu_stderr_has 'md5sum: /proc/self/mem: Input/output error'
}

@test "result: listed file that is unreadable (permission denied)" {
	printf 'abc' >locked
	chmod 000 locked
	list "$HA  locked" "$HA  a"
	if ! cat locked >/dev/null 2>&1; then
		same_as_gnu -- -c list
	else
		nobody_env a list locked
		same_as_gnu_sh --cwd "$NOBODY_W" -- "exec $AS_NOBODY md5sum -c list"
	fi
	gnu_stdout_is $'locked: FAILED open or read\na: OK\n'
	gnu_stderr_is $'md5sum: locked: Permission denied\nmd5sum: WARNING: 1 listed file could not be read\n'
}

@test "result: listed path through a regular file (ENOTDIR)" {
	list "$HA  a/x" "$HA  e/"
	same_as_gnu -- -c list
	gnu_stderr_has 'md5sum: a/x: Not a directory'
}

@test "result: listed names with spaces, UTF-8 and a leading dash" {
	printf 'abc' >'sp ace'
	printf 'abc' >'ütf ☃'
	printf 'abc' >-dash
	list "$HA  sp ace" "$HA  ütf ☃" "$HA  -dash" "$HA  --" "$HA  -c"
	same_as_gnu -- -c list
}

@test "result: listed names quoted in error messages" {
	list "$HA  no such" "$HA  it's" "$HA  "$'t\tb' "$HA  "$'bad\377'
	same_as_gnu -- -c list
	gnu_stderr_has "md5sum: 'no such': No such file or directory"
}

@test "result: C locale: error messages escape non-ASCII, result lines stay raw" {
	list "$HA  ütf" "\\$HA  ü\\n"
	LC_ALL=C same_as_gnu -- -c list
	gnu_stderr_has "md5sum: ''\$'\\303\\274''tf': No such file or directory"
	gnu_stdout_has 'ütf: FAILED open or read'
}

@test "result: listed names with tabs and control characters are printed raw" {
	printf 'abc' >$'t\tb'
	printf 'abc' >$'c\001x'
	list "$HA  "$'t\tb' "$HA  "$'c\001x'
	same_as_gnu -- -c list
	gnu_stdout_is $'t\tb: OK\nc\001x: OK\n'
}

@test "result: a large file in the list" {
	seq 1 300000 >big
	list "$(md5sum <big | cut -c1-32)  big" "${HE}  big"
	same_as_gnu -- -c list
	gnu_stdout_is $'big: OK\nbig: FAILED\n'
}

@test "result: the same file many times" {
	for i in $(seq 1 50); do printf '%s  a\n%s  a\n' "$HA" "$HE"; done >list
	same_as_gnu -- -c list
	gnu_stderr_has 'WARNING: 50 computed checksums did NOT match'
}

# ---------------------------------------------------------- --ignore-missing

@test "ignore-missing: missing files are skipped silently" {
	list "$HA  nope" "$HA  a"
	same_as_gnu -- -c --ignore-missing list
	gnu_stdout_is $'a: OK\n'
	gnu_stderr_empty
	gnu_status_is 0
}

@test "ignore-missing: nothing verified" {
	list "$HA  nope" "$HA  nope2"
	same_as_gnu -- -c --ignore-missing list
	gnu_stderr_is $'md5sum: list: no file was verified\n'
	gnu_status_is 1
	gnu_stdout_empty
}

@test "ignore-missing: nothing verified, with --status" {
	list "$HA  nope"
	same_as_gnu -- -c --ignore-missing --status list
	gnu_stderr_empty
	gnu_status_is 1
}

@test "ignore-missing: nothing verified, with --quiet" {
	list "$HA  nope"
	same_as_gnu -- -c --ignore-missing --quiet list
	gnu_stderr_has 'no file was verified'
}

@test "ignore-missing: a mismatch alone counts as nothing verified" {
	list "$HE  a"
	same_as_gnu -- -c --ignore-missing list
	gnu_stderr_is $'md5sum: WARNING: 1 computed checksum did NOT match\nmd5sum: list: no file was verified\n'
}

@test "ignore-missing: a mismatch and a match" {
	list "$HE  a" "$HA  a"
	same_as_gnu -- -c --ignore-missing list
	gnu_stderr_is $'md5sum: WARNING: 1 computed checksum did NOT match\n'
	gnu_status_is 1
}

@test "ignore-missing: a digest starting with 00 is checked, not taken for a missing file" {
	printf 'zz539' >z
	list "00ac8fef9cbf78a81787b631eb0bc49d  z"
	same_as_gnu -- -c --ignore-missing list
	gnu_stdout_is $'z: OK\n'
	gnu_stderr_empty
	gnu_status_is 0
}

@test "ignore-missing: a directory is not ignored" {
	mkdir d
	list "$HA  d"
	same_as_gnu -- -c --ignore-missing list
	gnu_stderr_is $'md5sum: d: Is a directory\nmd5sum: WARNING: 1 listed file could not be read\nmd5sum: list: no file was verified\n'
}

@test "ignore-missing: ENOTDIR is not ignored, a missing directory is" {
	list "$HA  a/x" "$HA  nodir/x" "$HA  a"
	same_as_gnu -- -c --ignore-missing list
	gnu_stdout_is $'a/x: FAILED open or read\na: OK\n'
}

@test "ignore-missing: empty name line is ignored as missing" {
	list "$HA  "
	same_as_gnu -- -c --ignore-missing list
	gnu_stderr_has 'no file was verified'
}

@test "ignore-missing: improperly formatted lines and nothing verified, with --strict" {
	list junk "$HA  nope"
	same_as_gnu -- -c --ignore-missing --strict list
	gnu_stderr_is $'md5sum: WARNING: 1 line is improperly formatted\nmd5sum: list: no file was verified\n'
}

@test "ignore-missing: only bad lines gives 'no properly formatted', not 'no file was verified'" {
	list junk
	same_as_gnu -- -c --ignore-missing list
	gnu_stderr_is $'md5sum: list: no properly formatted checksum lines found\n'
}

@test "ignore-missing: per list (one list verified, the other not)" {
	list "$HA  a"
	printf '%s\n' "$HA  nope" >list2
	same_as_gnu -- -c --ignore-missing list list2
	gnu_stderr_is $'md5sum: list2: no file was verified\n'
}

@test "ignore-missing: list from stdin with nothing verified" {
	list "$HA  nope"
	same_as_gnu --stdin list -- -c --ignore-missing
	gnu_stderr_is $'md5sum: \'standard input\': no file was verified\n'
}

@test "ignore-missing: the missing list file itself is still an error" {
	same_as_gnu -- -c --ignore-missing nolist
	gnu_stderr_is $'md5sum: nolist: No such file or directory\n'
}

# ------------------------------------------------------------ --quiet

@test "quiet: OK lines are not printed" {
	list "$HA  a" "$HE  e"
	same_as_gnu -- -c --quiet list
	gnu_stdout_empty
	gnu_stderr_empty
	gnu_status_is 0
}

@test "quiet: failures are still printed" {
	list "$HA  a" "$HE  a" "$HA  nope" junk
	same_as_gnu -- -c --quiet list
	gnu_stdout_is $'a: FAILED\nnope: FAILED open or read\n'
	gnu_stderr_has 'WARNING: 1 line is improperly formatted'
}

@test "quiet: 'no properly formatted' is still printed" {
	list junk
	same_as_gnu -- -c --quiet list
	gnu_stderr_has 'no properly formatted'
}

# ------------------------------------------------------------ --status

@test "status: prints nothing on success" {
	list "$HA  a"
	same_as_gnu -- -c --status list
	gnu_stdout_empty
	gnu_stderr_empty
	gnu_status_is 0
}

@test "status: mismatch gives exit 1 and no output" {
	list "$HE  a"
	same_as_gnu -- -c --status list
	gnu_stdout_empty
	gnu_stderr_empty
	gnu_status_is 1
}

@test "status: open errors are still reported, summaries are not" {
	list junk "$HA  a" "$HE  a" "$HA  nope"
	same_as_gnu -- -c --status list
	gnu_stdout_empty
	gnu_stderr_is $'md5sum: nope: No such file or directory\n'
	gnu_status_is 1
}

@test "status: improperly formatted lines alone give exit 0" {
	list junk "$HA  a"
	same_as_gnu -- -c --status list
	gnu_stderr_empty
	gnu_status_is 0
}

@test "status: 'no properly formatted' is still reported" {
	list junk
	same_as_gnu -- -c --status list
	gnu_stderr_is $'md5sum: list: no properly formatted checksum lines found\n'
}

@test "status: missing and directory lists are still reported" {
	mkdir d
	same_as_gnu -- -c --status nolist d
	gnu_stderr_is $'md5sum: nolist: No such file or directory\nmd5sum: d: read error\n'
}

# ------------------------------------------------------------ --strict

@test "strict: an improperly formatted line makes the exit status 1" {
	list junk "$HA  a"
	same_as_gnu -- -c --strict list
	gnu_stdout_is $'a: OK\n'
	gnu_stderr_is $'md5sum: WARNING: 1 line is improperly formatted\n'
	gnu_status_is 1
}

@test "strict: all good gives exit 0" {
	list "$HA  a"
	same_as_gnu -- -c --strict list
	gnu_status_is 0
}

@test "strict: with --status" {
	list junk "$HA  a"
	same_as_gnu -- -c --strict --status list
	gnu_stderr_empty
	gnu_status_is 1
}

@test "strict: with --quiet" {
	list junk "$HA  a"
	same_as_gnu -- -c --strict --quiet list
	gnu_stdout_empty
	gnu_status_is 1
}

@test "strict: applies to a later good list too" {
	list junk "$HA  a"
	printf '%s\n' "$HA  a" >good
	same_as_gnu -- -c --strict good list good
	gnu_status_is 1
}

@test "strict: only bad lines" {
	list junk
	same_as_gnu -- -c --strict list
	gnu_stderr_has 'no properly formatted'
}

# -------------------------------------------------------------- --warn

@test "warn: each bad line is reported with its line number" {
	list '# comment' '' junk "$HA  a" 'more junk'
	same_as_gnu -- -c --warn list
	gnu_stderr_is $'md5sum: list: 3: improperly formatted MD5 checksum line\nmd5sum: list: 5: improperly formatted MD5 checksum line\nmd5sum: WARNING: 2 lines are improperly formatted\n'
	gnu_status_is 0
}

@test "warn: -w short form" {
	list junk "$HA  a"
	same_as_gnu -- -c -w list
	gnu_stderr_has 'list: 1: improperly formatted MD5 checksum line'
}

@test "warn: with only bad lines" {
	list junk junk
	same_as_gnu -- -c --warn list
	gnu_stderr_is $'md5sum: list: 1: improperly formatted MD5 checksum line\nmd5sum: list: 2: improperly formatted MD5 checksum line\nmd5sum: list: no properly formatted checksum lines found\n'
}

@test "warn: line numbers in a second list restart at 1" {
	list "$HA  a" junk
	printf '%s\n' junk >list2
	same_as_gnu -- -c --warn list list2
}

@test "warn: CRLF and NUL lines are numbered like others" {
	rawlist "$HA  a\r\njunk\r\n\0\n$HA  a\n"
	same_as_gnu -- -c --warn list
}

@test "warn: with mismatches and missing files" {
	list junk "$HA  a" "$HE  a" "$HA  nope"
	same_as_gnu -- -c --warn list
}

# ----------------------------------------- overriding of --warn/--quiet/--status

@test "override: --status --warn (warn wins, last)" {
	list junk "$HA  a" "$HE  a"
	same_as_gnu -- -c --status --warn list
	gnu_stdout_is $'a: OK\na: FAILED\n'
	gnu_stderr_has 'list: 1: improperly formatted MD5 checksum line'
}

@test "override: --warn --status (status wins, last)" {
	list junk "$HA  a" "$HE  a"
	same_as_gnu -- -c --warn --status list
	gnu_stdout_empty
	gnu_stderr_empty
	gnu_status_is 1
}

@test "override: --quiet --status (status wins)" {
	list junk "$HA  a" "$HE  a"
	same_as_gnu -- -c --quiet --status list
	gnu_stdout_empty
	gnu_stderr_empty
}

@test "override: --status --quiet (quiet wins)" {
	list junk "$HA  a" "$HE  a"
	same_as_gnu -- -c --status --quiet list
	gnu_stdout_is $'a: FAILED\n'
}

@test "override: --quiet --warn (warn wins, OK lines are printed)" {
	list junk "$HA  a"
	same_as_gnu -- -c --quiet --warn list
	gnu_stdout_is $'a: OK\n'
	gnu_stderr_has 'list: 1: improperly formatted'
}

@test "override: --warn --quiet (quiet wins, no per-line warning)" {
	list junk "$HA  a"
	same_as_gnu -- -c --warn --quiet list
	gnu_stdout_empty
	gnu_stderr_is $'md5sum: WARNING: 1 line is improperly formatted\n'
}

@test "override: --status --warn --ignore-missing on only missing files: 'no file was verified' (warn wins)" {
	list "$HA  nope"
	same_as_gnu -- -c --status --warn --ignore-missing list
	gnu_stdout_empty
	gnu_stderr_is $'md5sum: list: no file was verified\n'
	gnu_status_is 1
}

@test "override: all orders of --warn --quiet --status --strict --ignore-missing" {
	list junk "$HA  a" "$HE  a" "$HA  nope" "$HE  e"
	same_as_gnu_each -- '-w -q' '--quiet -w' '-w --status' '--status -w' '--quiet --status' '--status --quiet' \
		'-w --quiet --status' '--status --quiet -w' '--quiet -w --status' '--strict -w' '--strict --status' \
		'--strict --quiet' '--ignore-missing -w' '--ignore-missing --status' '--ignore-missing --quiet' \
		'--ignore-missing --strict --warn' '--status --strict --ignore-missing' ::: -c list
}

@test "override: combinations on an all-good list" {
	list "$HA  a" "MD5 (e) = $HE"
	same_as_gnu_each -- '' '-w' '--quiet' '--status' '--strict' '--ignore-missing' '--quiet --strict' \
		'--status --ignore-missing' '-w --strict --ignore-missing --quiet' ::: -c list
}

@test "override: combinations on a list with only missing files" {
	list "$HA  nope" "MD5 (nope2) = $HE"
	same_as_gnu_each -- '' '-w' '--quiet' '--status' '--strict' '--ignore-missing' '--ignore-missing --quiet' \
		'--ignore-missing --status' '--ignore-missing -w' ::: -c list
}

# ------------------------------------------------------- -c and -z, -b, --tag

@test "check with -z is refused" {
	list "$HA  a"
	same_as_gnu -- -c -z list
	gnu_stderr_has 'the --zero option is not supported when verifying checksums'
}

@test "check with --tag is refused" {
	list "$HA  a"
	same_as_gnu -- -c --tag list
	gnu_stderr_has 'the --tag option is meaningless when verifying checksums'
}

@test "check with -b or -t is refused" {
	list "$HA  a"
	same_as_gnu_each -- '-b' '-t' '--binary' '--text' ::: -c list
}

# --------------------------------------------------------- output errors

@test "output error: -c to /dev/full" {
	need_dev_full
	list "$HA  a"
	same_as_gnu_sh -- 'md5sum -c list >/dev/full; echo "rc=$?"'
	gnu_stdout_is $'rc=1\n'
	gnu_stderr_is $'md5sum: write error\n'
}

@test "output error: -c with stdout closed" {
	list "$HA  a"
	same_as_gnu_sh -- 'md5sum -c list >&-; echo "rc=$?"'
	gnu_stderr_is $'md5sum: write error: Bad file descriptor\n'
}

@test "output error: -c --status to /dev/full writes nothing: exit 0" {
	need_dev_full
	list "$HA  a"
	same_as_gnu_sh -- 'md5sum -c --status list >/dev/full; echo "rc=$?"'
	gnu_stdout_is $'rc=0\n'
}

@test "output error: -c --quiet with all OK and stdout closed: exit 0" {
	list "$HA  a"
	same_as_gnu_sh -- 'md5sum -c --quiet list >&-; echo "rc=$?"'
	gnu_stdout_is $'rc=0\n'
}

@test "output error: -c --quiet with a failure to /dev/full" {
	need_dev_full
	list "$HE  a"
	same_as_gnu_sh -- 'md5sum -c --quiet list >/dev/full; echo "rc=$?"'
}

@test "output error: -c to /dev/full with a missing file and bad lines" {
	need_dev_full
	list junk "$HA  a" "$HA  nope"
	same_as_gnu_sh -- 'md5sum -c list >/dev/full; echo "rc=$?"'
}

@test "output error: -c | head -n1, default SIGPIPE" {
	yes "$HA  a" | head -n 40000 >list
	same_as_gnu_sh -- 'env --default-signal=PIPE md5sum -c list | head -n1; echo "md5sum=${PIPESTATUS[0]} head=${PIPESTATUS[1]}"'
	gnu_stdout_is $'a: OK\nmd5sum=141 head=0\n'
}

@test "output error: -c | head -n1, SIGPIPE ignored" {
	yes "$HA  a" | head -n 40000 >list
	same_as_gnu_sh -- 'trap "" PIPE; md5sum -c list | head -n1; echo "md5sum=${PIPESTATUS[0]} head=${PIPESTATUS[1]}"'
	gnu_stdout_is $'a: OK\nmd5sum=1 head=0\n'
	gnu_stderr_is $'md5sum: write error\n'
}

@test "output error: -c | head -n1, SIGPIPE ignored: keeps going, summary still printed" {
	{ yes "$HA  a" | head -n 40000; echo "$HA  nope"; echo junk; } >list
	same_as_gnu_sh -- 'trap "" PIPE; md5sum -c list | head -n1; echo "md5sum=${PIPESTATUS[0]}"'
	gnu_stderr_is $'md5sum: nope: No such file or directory\nmd5sum: WARNING: 1 line is improperly formatted\nmd5sum: WARNING: 1 listed file could not be read\nmd5sum: write error\n'
}

# ------------------------------------------ interleaving of stdout and stderr

@test "ordering: errors and results interleave line by line (2>&1)" {
	list junk "$HA  a" "$HA  nope" "$HE  a" "$HA  e"
	same_as_gnu_sh -- 'md5sum -c -w list 2>&1'
	gnu_stdout_is $'md5sum: list: 1: improperly formatted MD5 checksum line\na: OK\nmd5sum: nope: No such file or directory\nnope: FAILED open or read\na: FAILED\ne: FAILED\nmd5sum: WARNING: 1 line is improperly formatted\nmd5sum: WARNING: 1 listed file could not be read\nmd5sum: WARNING: 2 computed checksums did NOT match\n'
}

@test "ordering: two lists, 2>&1 into a regular file" {
	list "$HA  nope" "$HA  a"
	printf '%s\n' junk >list2
	same_as_gnu_sh -- 'md5sum -c list list2 list >"$SCRATCH/o" 2>&1; echo "rc=$?"; cat "$SCRATCH/o"'
}

@test "ordering: --quiet with failures, 2>&1" {
	list "$HA  nope" "$HA  a" "$HE  a"
	same_as_gnu_sh -- 'md5sum -c --quiet list 2>&1'
}

# ------------------------- read faults injected with strace, main thread only
# As a test of GNU's would run it: strace -o /dev/null -P FILE -e
# inject=read:error=EIO md5sum -c LIST, without -f (see
# same_as_gnu_read_eio).  GNU reads the list and every listed file in its
# only thread, so each read of FILE fails; the list itself is read fine.

@test "strace read fault: -c, a list naming only the file, default jobs: 'FAILED open or read', exit 1" {
	need_strace_inject
	list "$HA  a"
	same_as_gnu_read_eio '' a -c list
	gnu_stdout_is $'a: FAILED open or read\n'
	gnu_stderr_is $'md5sum: a: Input/output error\nmd5sum: WARNING: 1 listed file could not be read\n'
	gnu_status_is 1
}

@test "strace read fault: -c, a list naming only the file, -j1: 'FAILED open or read', exit 1" {
	need_strace_inject
	list "$HA  a"
	same_as_gnu_read_eio 1 a -c list
	gnu_stdout_is $'a: FAILED open or read\n'
	gnu_stderr_is $'md5sum: a: Input/output error\nmd5sum: WARNING: 1 listed file could not be read\n'
	gnu_status_is 1
}

@test "strace read fault: -c, a list naming the file and another, default jobs: the other is OK, exit 1" {
	need_strace_inject
	list "$HA  a" "$HH  h"
	same_as_gnu_read_eio '' a -c list
	gnu_stdout_is $'a: FAILED open or read\nh: OK\n'
	gnu_stderr_is $'md5sum: a: Input/output error\nmd5sum: WARNING: 1 listed file could not be read\n'
	gnu_status_is 1
}

@test "strace read fault: -c, a list naming the file and another, -j1: the other is OK, exit 1" {
	need_strace_inject
	list "$HA  a" "$HH  h"
	same_as_gnu_read_eio 1 a -c list
	gnu_stdout_is $'a: FAILED open or read\nh: OK\n'
	gnu_stderr_is $'md5sum: a: Input/output error\nmd5sum: WARNING: 1 listed file could not be read\n'
	gnu_status_is 1
}
