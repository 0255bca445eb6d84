#!/usr/bin/env bats
# Special files and names, against GNU md5sum 9.1 (diff_helper.bash): FIFOs,
# /dev/null, /proc files (size 0, yet content), directories, symlink loops,
# names with every byte value 1..255, the empty name.  Each through the
# plain path (one file), the lanes path (several files; MD5SUM_JOBS=1 and
# 2) and -c.

bats_require_minimum_version 1.5.0

load diff_helper

setup() {
	diff_setup
}

teardown() {
	diff_teardown
}

# each_jobs CMD...: run CMD with MD5SUM_JOBS unset, 1 and 2
each_jobs() {
	local j rc
	for j in '' 1 2; do
		if [[ -n $j ]]; then export MD5SUM_JOBS=$j; else unset MD5SUM_JOBS; fi
		rc=0
		"$@" || rc=$?
		unset MD5SUM_JOBS
		if ((rc != 0)); then
			echo "(this was with MD5SUM_JOBS=${j:-unset})" >&2
			return "$rc"
		fi
	done
}

# ------------------------------------------------------------------ FIFOs

@test "special: a FIFO by name, its writer slow and in pieces" {
	mkfifo fifo
	printf '%s  fifo\n' "$HH" >list
	each_jobs same_as_gnu_sh -- '{ printf hel; sleep 0.05; printf "lo\n"; } >fifo & md5sum fifo; wait'
	gnu_stdout_is "$HH  fifo"$'\n'
	each_jobs same_as_gnu_sh -- '{ printf hel; sleep 0.05; printf "lo\n"; } >fifo & md5sum a fifo x; wait'
	gnu_stdout_is "$HA  a"$'\n'"$HH  fifo"$'\n'"$HX  x"$'\n'
	each_jobs same_as_gnu_sh -- '{ printf hel; sleep 0.05; printf "lo\n"; } >fifo & md5sum -c list; wait'
	gnu_stdout_is $'fifo: OK\n'
}

@test "special: a FIFO as the list, and as standard input" {
	mkfifo fifo
	each_jobs same_as_gnu_sh -- 'printf "%s  a\n%s  x\n" "$HA" "$HH" >fifo & md5sum -c fifo; wait'
	gnu_stdout_is $'a: OK\nx: FAILED\n'
	each_jobs same_as_gnu_sh -- 'printf "hello\n" >fifo & md5sum - a <fifo; wait'
	gnu_stdout_is "$HH  -"$'\n'"$HA  a"$'\n'
}

@test "special: a FIFO whose writer goes away at once is empty" {
	mkfifo fifo
	each_jobs same_as_gnu_sh -- ': >fifo & md5sum a fifo; wait'
	gnu_stdout_is "$HA  a"$'\n'"$HE  fifo"$'\n'
}

# ---------------------------------------------------------- /dev and /proc

@test "special: /dev/null hashed, listed, and as the list" {
	printf '%s  /dev/null\n' "$HE" >list
	each_jobs same_as_gnu -- /dev/null
	gnu_stdout_is "$HE  /dev/null"$'\n'
	each_jobs same_as_gnu -- a /dev/null x
	each_jobs same_as_gnu -- -c list
	gnu_stdout_is $'/dev/null: OK\n'
	each_jobs same_as_gnu -- -c /dev/null
	gnu_stderr_is $'md5sum: /dev/null: no properly formatted checksum lines found\n'
	gnu_status_is 1
}

@test "special: /proc files (size 0, yet content) are read to their end" {
	local f=/proc/sys/kernel/ostype
	[[ -r $f && ! -s $f && -n $(cat $f) ]] || skip "$f is not a readable size-0 file with content"
	printf '%s  %s\n' "$("$GNU_MD5SUM" <$f | cut -c1-32)" "$f" >list
	each_jobs same_as_gnu -- $f
	gnu_stdout_is "$(cat $f | "$GNU_MD5SUM" | cut -c1-32)  $f"$'\n'
	each_jobs same_as_gnu -- a $f /proc/version x
	each_jobs same_as_gnu -- -c list
	gnu_stdout_is "$f: OK"$'\n'
	# the same command line makes the same /proc/self/cmdline
	each_jobs same_as_gnu -- /proc/self/cmdline
	gnu_stdout_is "$(printf 'md5sum\0/proc/self/cmdline\0' | "$GNU_MD5SUM" | cut -c1-32)  /proc/self/cmdline"$'\n'
}

@test "special: a sysfs file (size 4096, less content) is read to its end" {
	local f=/sys/devices/system/cpu/online
	[[ -r $f && $(stat -c %s $f) -gt $(cat $f | wc -c) ]] || skip "$f is not a readable file claiming more than it holds"
	each_jobs same_as_gnu -- $f
	gnu_stdout_is "$(cat $f | "$GNU_MD5SUM" | cut -c1-32)  $f"$'\n'
	each_jobs same_as_gnu -- a $f x
}

@test "special: a large /proc file, given in many short reads" {
	local f=/proc/self/cmdline
	# a command line of some 100 kB makes a /proc/self/cmdline of that size
	local long
	long=$(printf 'y%.0s' {1..2000})
	local -a args=()
	local i
	for ((i = 0; i < 50; i++)); do args+=("$long$i"); done
	each_jobs same_as_gnu -- $f "${args[@]}"
	gnu_status_is 1
	gnu_stdout_is "$( (printf 'md5sum\0%s\0' $f; printf '%s\0' "${args[@]}") | "$GNU_MD5SUM" | cut -c1-32)  $f"$'\n'
}

# ------------------------------------------------ directories and symlinks

@test "special: directories, hashed and listed" {
	mkdir d
	printf '%s  d\n%s  a\n%s  .\n' "$HE" "$HA" "$HE" >list
	each_jobs same_as_gnu -- d
	gnu_stderr_is $'md5sum: d: Is a directory\n'
	each_jobs same_as_gnu -- a d . / x
	gnu_stdout_is "$HA  a"$'\n'"$HX  x"$'\n'
	each_jobs same_as_gnu -- -c list
	gnu_stdout_is $'d: FAILED open or read\na: OK\n.: FAILED open or read\n'
	each_jobs same_as_gnu -- -c d
	gnu_stderr_is $'md5sum: d: read error\n'
}

@test "special: symlink loops, hashed, listed and as the list" {
	ln -s loop loop
	ln -s l2 l1
	ln -s l1 l2
	printf '%s  loop\n%s  a\n%s  l1/x\n' "$HE" "$HA" "$HE" >list
	each_jobs same_as_gnu -- loop
	gnu_stderr_is $'md5sum: loop: Too many levels of symbolic links\n'
	each_jobs same_as_gnu -- a loop l1 l2/x x
	gnu_stdout_is "$HA  a"$'\n'"$HX  x"$'\n'
	each_jobs same_as_gnu -- -c list
	gnu_stdout_is $'loop: FAILED open or read\na: OK\nl1/x: FAILED open or read\n'
	each_jobs same_as_gnu -- -c --ignore-missing list
	each_jobs same_as_gnu -- -c loop
	gnu_stderr_is $'md5sum: loop: Too many levels of symbolic links\n'
}

# ------------------------------------------------------------------ names

# names_with_every_byte PREFIX SUFFIX: set $names to PREFIX b SUFFIX for
# every byte b in 1..255 but '/'
names_with_every_byte() {
	local b c
	names=()
	for ((b = 1; b < 256; b++)); do
		((b == 47)) && continue
		printf -v c "\\$(printf %03o "$b")"
		names+=("$1$c$2")
	done
}

@test "names: every byte value 1..255 in a file name, hashed (all forms) and checked" {
	local n
	names_with_every_byte n e
	for n in "${names[@]}"; do printf '%s' "$n" >"$n"; done
	each_jobs same_as_gnu -- "${names[@]}"
	gnu_status_is 0
	same_as_gnu -- --tag "${names[@]}"
	same_as_gnu -- -z "${names[@]}"
	# one by one, the plain path: the names that need escaping or quoting
	for n in n$'\n'e n$'\r'e n'\'e n$'\t'e n$'\001'e n$'\177'e n$'\200'e n$'\377'e n' 'e; do
		same_as_gnu -- "$n"
		same_as_gnu -- --tag "$n"
	done
	# GNU's own output read back by -c
	"$GNU_MD5SUM" "${names[@]}" >list
	"$GNU_MD5SUM" --tag "${names[@]}" >tags
	each_jobs same_as_gnu -- -c list tags
	gnu_status_is 0
	(($(wc -l <"$GNU_OUT") == 2 * 254)) || fail "GNU did not check every name"
}

@test "names: every byte value 1..255 in a missing file's name: GNU's quoting, in two locales" {
	names_with_every_byte m ''
	each_jobs same_as_gnu -- "${names[@]}"
	gnu_stderr_has "md5sum: mA: No such file or directory"
	gnu_stderr_has "md5sum: 'm'\$'\\n': No such file or directory"
	LC_ALL=C same_as_gnu -- "${names[@]}"
	LC_ALL=C gnu_stderr_has "md5sum: 'm'\$'\\303': No such file or directory"
	# listed: escaped result lines, quoted messages
	local n
	for n in "${names[@]}"; do
		if [[ $n == *'\'* || $n == *$'\n'* || $n == *$'\r'* ]]; then
			local e=${n//\\/\\\\}
			e=${e//$'\n'/\\n}
			printf '\\%s  %s\n' "$HE" "${e//$'\r'/\\r}"
		else
			printf '%s  %s\n' "$HE" "$n"
		fi
	done >list
	each_jobs same_as_gnu -- -c list
	gnu_status_is 1
	gnu_stderr_has 'md5sum: WARNING: 254 listed files could not be read'
}

@test "names: single-byte names, every byte value 1..255" {
	names_with_every_byte '' ''
	each_jobs same_as_gnu -- "${names[@]}"
	gnu_stderr_has 'md5sum: .: Is a directory'
	gnu_stdout_is "$HE  -"$'\n'"$HA  a"$'\n'"$HE  e"$'\n'"$HH  h"$'\n'"$HX  x"$'\n'
}

@test "names: the empty name, hashed and listed" {
	printf '%s  a\nMD5 () = %s\n' "$HA" "$HE" >list
	each_jobs same_as_gnu -- ''
	gnu_stderr_is $'md5sum: \'\': No such file or directory\n'
	each_jobs same_as_gnu -- a '' x
	gnu_stdout_is "$HA  a"$'\n'"$HX  x"$'\n'
	each_jobs same_as_gnu -- -c list
	gnu_stdout_is $'a: OK\n: FAILED open or read\n'
	each_jobs same_as_gnu -- -c --ignore-missing list
	gnu_status_is 0
	each_jobs same_as_gnu -- -c ''
	gnu_stderr_is $'md5sum: \'\': No such file or directory\n'
}
