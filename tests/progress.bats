#!/usr/bin/env bats
# --progress on a real terminal: tmux runs md5sum in a detached pane of a
# known width, and capture-pane shows the screen as a person sees it.  The
# slow inputs are FIFOs whose writers wait for the test to let them go on,
# so that each test looks at the screen while the line must be there, and
# again once the run is over, when only the run's own lines must be left.
# Without tmux these tests skip; without a terminal, --progress must change
# nothing at all (the last tests, and the differential suite run with
# --progress added: MD5SUM_PROGRESS in tests/run).

bats_require_minimum_version 1.5.0
load assert

HA=900150983cd24fb0d6963f7d28e17f72	# "abc"

# What the status line begins with: files done, of how many when known.
LINE='^[0-9]+(/[0-9]+)? files?  '

setup() {
	BIN=$(realpath -- "$BATS_TEST_DIRNAME/../build/md5sum")
	[[ -x $BIN ]] || fail "build md5sum first"
	cd "$BATS_TEST_TMPDIR" || exit 1
	# Messages say "md5sum: ...", as short as a person's would be.
	mkdir bin
	ln -s "$BIN" bin/md5sum
	export LC_ALL=C.UTF-8 PATH=$PWD/bin:$PATH
	printf abc >a
}

teardown() {
	if [[ -n ${SOCK-} ]]; then
		tmux -L "$SOCK" kill-server 2>/dev/null || true
	fi
}

need_tmux() {
	command -v tmux >/dev/null 2>&1 || skip "tmux is not installed (Debian: tmux)"
}

# term WIDTH SCRIPT: run the bash SCRIPT in a terminal WIDTH columns wide
# and 24 rows high, in this directory; it stays open after the script.
term() {
	need_tmux
	SOCK=md5sum-progress-$$-$BATS_TEST_NUMBER
	printf '%s\nsleep 60\n' "$2" >script.sh
	printf 'set -g status off\n' >tmux.conf
	tmux -L "$SOCK" -f tmux.conf new-session -d -x "$1" -y 24 -c "$PWD" \
		"bash --norc --noprofile script.sh" ||
		fail "tmux cannot start a session"
}

# The screen, wrapped lines joined into one, without trailing blanks or
# blank lines.
screen() {
	tmux -L "$SOCK" capture-pane -p -J | sed 's/ *$//' | sed '/^$/d'
}

# until_screen REGEX: wait, 5 s at most, for a line of the screen to
# match; the screen is then in $SCREEN.
until_screen() {
	local i
	for ((i = 0; i < 50; i++)); do
		SCREEN=$(screen)
		grep -qE -- "$1" <<<"$SCREEN" && return 0
		sleep 0.1
	done
	fail "never on the screen: $1"$'\n'"--- the screen:"$'\n'"$SCREEN"
}

# let_go FIFO: the writer waiting on FIFO goes on.
let_go() {
	timeout 5 bash -c 'echo >"$1"' let_go "$1" || fail "no writer waits on $1"
}

# screen_is LINE...: the screen holds these lines and no other.
screen_is() {
	assert_equal "$SCREEN" "$(printf '%s\n' "$@")"
}

@test "progress: a slow pipe shows the line while it runs, then only the digest" {
	mkfifo go
	term 80 '{ printf abc; read <go; printf def; } | md5sum --progress; echo "rc=${PIPESTATUS[1]}"'
	until_screen "$LINE"
	# Nothing else is on the screen: the line tells the bytes, the rate
	# and the input waited for.
	[[ $SCREEN =~ ^0/1\ file\ \ 3\ B\ \ [0-9]+\ B/s\ \ -$ ]] || fail "the line: $SCREEN"
	let_go go
	until_screen '^rc='
	screen_is 'e80b5017098950fc58aad83c8c14978e  -' 'rc=0'
}

@test "progress: -c over a list with slow FIFOs: the line, then OK, FAILED and warnings whole" {
	mkfifo slow1 slow2 go1 go2
	printf xyz >b
	printf '%s  %s\n' "$HA" a "$HA" slow1 "$HA" missing >list
	echo 'not a checksum line' >>list
	printf '%s  %s\n' "$HA" slow2 "$HA" b >>list
	term 80 '{ printf ab; read <go1; printf c; } >slow1 &
		{ printf a; read <go2; printf bc; } >slow2 &
		md5sum --progress -w -c list; echo "rc=$?"'
	until_screen "$LINE"
	[[ ${SCREEN##*$'\n'} =~ ^1\ file\ \ [0-9]+\ B\ \ list\ [0-9]+%\ \ .*\ \ slow1$ ]] ||
		fail "the line: $SCREEN"
	screen_is 'a: OK' "${SCREEN##*$'\n'}"
	# A message while the line is shown clears it first, and the line is
	# drawn again after it.
	let_go go1
	until_screen "$LINE.*slow2\$"
	[[ ${SCREEN##*$'\n'} =~ ^3\ files\ \  ]] || fail "the line: $SCREEN"
	screen_is 'a: OK' 'slow1: OK' \
		'md5sum: missing: No such file or directory' \
		'missing: FAILED open or read' \
		'md5sum: list: 4: improperly formatted MD5 checksum line' \
		"${SCREEN##*$'\n'}"
	let_go go2
	until_screen '^rc='
	screen_is 'a: OK' 'slow1: OK' \
		'md5sum: missing: No such file or directory' \
		'missing: FAILED open or read' \
		'md5sum: list: 4: improperly formatted MD5 checksum line' \
		'slow2: OK' 'b: FAILED' \
		'md5sum: WARNING: 1 line is improperly formatted' \
		'md5sum: WARNING: 1 listed file could not be read' \
		'md5sum: WARNING: 1 computed checksum did NOT match' \
		'rc=1'
}

@test "progress: -c over a list that comes slowly names the list while it waits for it" {
	mkfifo go
	term 80 '{ printf "%s  a\n" '"$HA"'; read <go; printf "%s  a\n" '"$HA"'; } |
		md5sum --progress -c; echo "rc=${PIPESTATUS[1]}"'
	until_screen "$LINE"
	# a's line is out; the line names standard input, which the run waits
	# for, not a, which it has hashed.
	[[ ${SCREEN##*$'\n'} =~ ^1\ file\ \ 3\ B\ .*\ \ -$ ]] || fail "the line: $SCREEN"
	screen_is 'a: OK' "${SCREEN##*$'\n'}"
	let_go go
	until_screen '^rc='
	screen_is 'a: OK' 'a: OK' 'rc=0'
}

@test "progress: output elsewhere: a message clears the line, which comes back after it and goes at the end" {
	mkfifo slow go1 go2
	term 80 '{ printf ab; read <go2; printf c; } >slow &
		{ printf abc; read <go1; } | md5sum --progress - missing slow >out; echo "rc=$?"'
	until_screen "$LINE"
	[[ $SCREEN =~ ^0/3\ files\ .*\ \ -$ ]] || fail "the line: $SCREEN"
	let_go go1
	until_screen "$LINE.*slow\$"
	[[ ${SCREEN##*$'\n'} =~ ^2/3\ files\ \  ]] || fail "the line: $SCREEN"
	screen_is 'md5sum: missing: No such file or directory' "${SCREEN##*$'\n'}"
	let_go go2
	until_screen '^rc='
	screen_is 'md5sum: missing: No such file or directory' 'rc=1'
	assert_equal "$(cat out)" "$HA  -"$'\n'"$HA  slow"
}

@test "progress: a terminal of 40 columns gets a line that fits, the name shortened" {
	local name=a-long-name-that-does-not-fit-in-forty-columns.iso
	mkfifo "$name" go
	term 40 '{ printf ab; read <go; } >'"$name"' & md5sum --progress '"$name"' a; echo "rc=$?"'
	until_screen "$LINE"
	[[ $SCREEN =~ ^0/2\ files\ \ .*\ \ a-lo.*\.\.\..*\.iso$ ]] || fail "the line: $SCREEN"
	# No line wrapped, none as wide as the terminal.
	while IFS= read -r l; do
		((${#l} < 40)) || fail "a line of ${#l} columns: $l"
	done <<<"$SCREEN"
	let_go go
	until_screen '^rc='
	screen_is "$(printf ab | md5sum | cut -c 1-32)  $name" "$HA  a" 'rc=0'
}

@test "progress: Ctrl-C clears the line, and the run dies of SIGINT" {
	term 80 'trap : INT; { printf ab; sleep 20; } | md5sum --progress; echo "rc=${PIPESTATUS[1]}"'
	until_screen "$LINE"
	tmux -L "$SOCK" send-keys C-c
	until_screen '^rc='
	screen_is 'rc=130'
}

@test "progress: SIGPIPE clears the line, and the run dies of it as without --progress" {
	mkfifo slow go
	term 80 '{ printf ab; read <go; } >slow & md5sum --progress slow a | true; echo "rc=${PIPESTATUS[0]}"'
	until_screen "$LINE"
	let_go go
	until_screen '^rc='
	screen_is 'rc=141'
}

@test "progress: regular files: the share done and the time left; SIGTERM clears the line" {
	# Sparse: read fast, and long enough to be seen, without the space.
	truncate -s 20G sparse || skip "no sparse file of 20 GiB here"
	term 80 'md5sum --progress sparse a & echo $! >pid; wait $!; echo "rc=$?"'
	until_screen "$LINE"
	[[ $SCREEN =~ ^0/2\ files\ \ [0-9.]+/20\.0\ GiB\ [0-9]+%\ \ [0-9.]+\ [KMG]iB/s\ \ [0-9:]+\ left\ \ sparse$ ]] ||
		fail "the line: $SCREEN"
	kill -TERM "$(cat pid)"
	until_screen '^rc='
	screen_is 'rc=143'
}

@test "progress: a run in the background of the terminal draws nothing" {
	mkfifo slow go
	# Job control: the run is a job of its own, not the terminal's
	# foreground.
	term 80 'set -m; { printf ab; read <go; } >slow & md5sum --progress slow a >out & wait $!; echo "rc=$?"'
	# Long past the second after which a run in the foreground draws.
	sleep 1.6
	SCREEN=$(screen)
	screen_is ''
	let_go go
	until_screen '^rc='
	screen_is 'rc=0'
	assert_equal "$(wc -l <out)" 2
}

@test "progress: a run shorter than a second writes nothing more to the terminal" {
	command -v script >/dev/null 2>&1 || skip "script is not installed (Debian: bsdutils)"
	printf '%s  a\n' "$HA" >list
	run -0 script -qec 'md5sum --progress a; md5sum --progress -c list' /dev/null
	assert_equal "$output" "$HA  a"$'\r\n''a: OK'$'\r'
}

@test "progress: without a terminal, output, messages and status are those of a run without it" {
	printf '%s  %s\n' "$HA" a "$HA" missing 0123 x >list
	local args
	for args in "a missing -" "-c list" "-c -w --strict list nowhere"; do
		# shellcheck disable=SC2086
		md5sum $args <a >out1 2>err1 && rc1=0 || rc1=$?
		# shellcheck disable=SC2086
		md5sum --progress $args <a >out2 2>err2 && rc2=0 || rc2=$?
		cmp out1 out2 || fail "stdout differs for $args"
		cmp err1 err2 || fail "stderr differs for $args"
		assert_equal "$rc2" "$rc1"
	done
	[[ -s err1 ]] || fail "the runs gave no message to compare"
}
