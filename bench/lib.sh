# bench/lib.sh - shell functions that bench/run, bench/cold, bench/storage
# and bench/net share; sourced, not run.  The sourcing script sets PROG
# (its name, for messages) first, and, before it calls the set-up
# functions, WORK (its scratch directory, on a real disk) and HERE (bench/).
#
# The devices: loop_attach, queue, mkfs_on, remount, and lib_cleanup to
# tear down all that they set up (the sourcing script traps EXIT with it).
# The disk model: model_knobs reads its BENCH_COLD_* knobs (bench/cold's
# header lists them), fuse_ready says whether it can run, setup_rot makes
# its disk image (the same files for every script) and serves it.
# shellcheck shell=bash
# shellcheck disable=SC2034	# globals that the sourcing scripts read

die() { echo "$PROG: $*" >&2; exit 2; }
note() { echo "$PROG: $*" >&2; }

# The directories of the tree of real files (bench/run's t, tx, tc,
# bench/storage's v1 v2): BENCH_TREE_DIRS, separated by spaces.
TREE_DIRS_DEFAULT="/usr/include /usr/share/doc /usr/lib/python3.11"

# copy_tree DEST SRC...: copy each directory SRC to DEST/SRC (its full
# path under DEST), keeping only directories and regular files, so that
# every tool sees the same regular files; those missing are skipped, with
# a message.  Fails when no file was copied.
copy_tree() {
	local dest=$1 d
	shift
	mkdir -p "$dest" || die "cannot make $dest"
	for d in "$@"; do
		if [ ! -d "$d" ]; then
			echo "  tree: $d is not here, skipped"
			continue
		fi
		mkdir -p "$dest$(dirname "$d")" &&
			cp -R "$d" "$dest$d" 2>/dev/null ||
			echo "  tree: some of $d could not be copied"
	done
	find "$dest" ! -type f ! -type d -delete
	chmod -R u+rwX "$dest"
	[ -n "$(find "$dest" -type f -print -quit)" ]
}

# tree_stats DIR: what the tree holds, on one line.
tree_stats() {
	find "$1" -type f -printf '%s\n' | sort -n | awk '
		{ size[NR] = $1; sum += $1 }
		END { printf "%d files, %.0f MiB, median %d bytes\n",
			NR, sum / 1048576, size[int((NR + 1) / 2)] }'
}

# The runs cd into the data, so make the paths absolute.
abs_tool() {
	case $1 in
	*/*) [ -x "$1" ] || die "$1 is not an executable file"
	     echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" ;;
	*)   command -v "$1" || die "$1 not found" ;;
	esac
}

# median of a list of numbers (the mean of the middle two if even).
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 }
	END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# minmax of microseconds, in seconds: 1.23-1.45
minmax() { printf '%s\n' "$@" | sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 }
	END { printf "%.2f-%.2f", lo / 1e6, hi / 1e6 }'; }
commas() { sed ':a; s/\B[0-9]\{3\}\>/,&/; ta' <<< "$1"; }	# 20000: 20,000

# ----------------------------------------------------- setup and teardown
WORK='' MODEL_WORK='' FUSE_PID='' FMNT=''
MOUNTS=() LOOPS=()
declare -A QUEUE_WAS=()	# sysfs file -> its value before we set it
# DEV[device], MNT[device], DESC[device]: set once the device is ready.
declare -A DEV=() MNT=() DESC=()

# Tear down whatever was set up, in reverse: the file systems, the loop
# devices (the model's file stays busy while one is attached), the model,
# the scratch directories.
lib_cleanup() {
	local i
	cd / || :
	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
		mountpoint -q "${MOUNTS[i]}" || continue
		umount "${MOUNTS[i]}" 2>/dev/null || umount -l "${MOUNTS[i]}"
	done
	for i in "${LOOPS[@]}"; do
		losetup -d "$i" 2>/dev/null
	done
	# A loop device keeps its queue settings (the scheduler) when detached.
	for i in "${!QUEUE_WAS[@]}"; do
		echo "${QUEUE_WAS[$i]}" > "$i" 2>/dev/null
	done
	if [ -n "$FMNT" ] && mountpoint -q "$FMNT"; then
		for i in 1 2 3 4 5 6 7 8 9 10; do
			fusermount -u "$FMNT" 2>/dev/null && break
			sleep 0.2
		done
		mountpoint -q "$FMNT" && fusermount -uz "$FMNT"
	fi
	if [ -n "$FUSE_PID" ]; then
		for i in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$FUSE_PID" 2>/dev/null || break
			sleep 0.2
		done
		kill "$FUSE_PID" 2>/dev/null
		wait "$FUSE_PID" 2>/dev/null
	fi
	[ -z "$WORK" ] || rm -rf "$WORK"
	[ -z "$MODEL_WORK" ] || rm -rf "$MODEL_WORK"
}

# loop_attach VAR LOSETUP-OPTIONS... FILE: attach a loop device, name in VAR.
loop_attach() {
	local var=$1 loopdev next
	shift
	# The queue settings as they were before, to put back at the end.
	next=$(losetup -f) && save_queue "$next"
	loopdev=$(losetup -f --show "$@") || die "losetup $* failed"
	LOOPS+=("$loopdev")
	printf -v "$var" %s "$loopdev"
}

loop_detach() {
	local i
	losetup -d "$1" || die "cannot detach $1"
	for i in "${!LOOPS[@]}"; do
		[ "${LOOPS[i]}" = "$1" ] && unset 'LOOPS[i]'
	done
	LOOPS=("${LOOPS[@]}")
}

# save_queue DEV: note the queue settings that we change, once.
save_queue() {
	local key f was
	for key in rotational scheduler read_ahead_kb; do
		f=/sys/block/${1#/dev/}/queue/$key
		[ -z "${QUEUE_WAS[$f]:-}" ] || continue
		was=$(cat "$f" 2>/dev/null) || continue
		if [ "$key" = scheduler ]; then was=${was#*[}; was=${was%%]*}; fi
		QUEUE_WAS[$f]=$was
	done
}

# queue DEV KEY VALUE: set a block queue attribute; say so if it fails.
queue() {
	local f=/sys/block/${1#/dev/}/queue/$2
	save_queue "$1"
	echo "$3" > "$f" 2>/dev/null || note "cannot set $2=$3 on $1"
	if [ "$2" = scheduler ]; then
		grep -q "\[$3\]" "$f" || note "$1: scheduler $3 not available: $(cat "$f")"
	fi
}

# queue_desc DEV: its rotational flag, scheduler and read-ahead, in words.
queue_desc() {
	local q=/sys/block/${1#/dev/}/queue
	echo "rotational=$(cat "$q/rotational"), scheduler $(sed 's/.*\[\(.*\)\].*/\1/' "$q/scheduler"), read_ahead_kb=$(cat "$q/read_ahead_kb")"
}

# mkfs_on DEV: ext4 with everything initialised now, so that no lazy-init
# thread writes in the background while we time; 4 KiB blocks, as on any
# real disk (mke2fs makes 1 KiB blocks below 512 MiB, and then every
# directory lookup of the small files costs a seek of its own).
mkfs_on() {
	mkfs.ext4 -q -F -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 "$1" ||
		die "mkfs.ext4 $1 failed"
}

# mkfiles DIR COUNT BYTES: COUNT files of BYTES each, named 000000...,
# written by one python3 process (a shell loop is slow for 20,000 files);
# random bytes, each file different in its first 8.
mkfiles() {
	python3 - "$@" <<-'EOF' || die "cannot make the files in $1"
	import os, sys
	d, n, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
	os.makedirs(d, exist_ok=True)
	buf = bytearray(os.urandom(size))
	for i in range(n):
	    buf[:8] = i.to_bytes(8, "little")[:size]
	    with open(os.path.join(d, "%06d" % i), "wb") as f:
	        f.write(buf)
	EOF
}

# names DIR COUNT: the names mkfiles gives, in creation order.
names() { seq -f "$1/%06g" 0 $(( $2 - 1 )); }

# digests MNT DATA: DATA.md5 by GNU, in list (= creation) order.
digests() {
	(cd "$1" && xargs -d '\n' "$GNU" < "$WORK/$2.list") > "$WORK/$2.md5" ||
		die "cannot make $2.md5"
}

# shuffled DATA: DATA-shuf.md5, SHUF lines of DATA.md5 in an order drawn
# from a fixed random source: the same list every run.
shuffled() {
	python3 -c 'import random, sys
sys.stdout.buffer.write(random.Random(20261201).randbytes(1 << 20))' \
		> "$WORK/seed" || die "cannot make the random source"
	shuf -n "$SHUF" --random-source="$WORK/seed" "$WORK/$1.md5" \
		> "$WORK/$1-shuf.md5" || die "shuf failed"
}

# remount DEVICE: cold again: unmount (the last close of the device drops
# its cache), drop whatever else the kernel caches, mount read-only (no
# atime or journal writes while we time).
remount() {
	local dev=${DEV[$1]} mnt=${MNT[$1]}
	if mountpoint -q "$mnt"; then
		umount "$mnt" || die "cannot unmount $mnt"
	fi
	sync
	echo 3 > /proc/sys/vm/drop_caches
	mount -o ro "$dev" "$mnt" || die "cannot mount $dev"
}

# ------------------------------------------------------- the disk model
# model_knobs: the model's data and timing, from bench/cold's knobs.
model_knobs() {
	MODEL_BASE=${BENCH_COLD_MODEL_DIR:-/dev/shm}
	BIG=${BENCH_COLD_BIG:-8}
	BIG_MB=${BENCH_COLD_BIG_MB:-32}
	FILES=${BENCH_COLD_FILES:-4000}
	FILE_KB=${BENCH_COLD_FILE_KB:-8}
	SHUF=${BENCH_COLD_SHUF:-1000}
	SEEK_MS=${BENCH_COLD_SEEK_MS:-8.5}
	MBPS=${BENCH_COLD_MBPS:-160}
	CACHE_KB=${BENCH_COLD_CACHE_KB:-256}
	RA_KB=${BENCH_COLD_RA_KB:-128}
	ORDER=${BENCH_COLD_ORDER:-arrival}
	TRACE=${BENCH_COLD_TRACE:-}
}

# The python that has fusepy: Debian's /usr/bin/python3 may not be the
# first python3 on PATH (pyenv and the like).
FUSE_PY=''
find_fuse_python() {
	local p
	for p in /usr/bin/python3 python3; do
		if "$p" -c 'import fusepy' 2>/dev/null ||
		   "$p" -c 'import fuse; fuse.FUSE' 2>/dev/null; then
			FUSE_PY=$p
			return 0
		fi
	done
	return 1
}

fuse_ready() {
	if ! find_fuse_python || ! command -v fusermount >/dev/null; then
		echo "installing python3-fusepy fuse3 ..."
		apt-get install -y -qq python3-fusepy fuse3 >/dev/null 2>&1
	fi
	find_fuse_python && command -v fusermount >/dev/null && [ -c /dev/fuse ]
}

# setup_rot: the model's disk image (in MODEL_BASE) with BIG files of
# BIG_MB MiB (big.list) and FILES of FILE_KB KiB (files.list, and the
# lists files.md5, files-shuf.md5 in WORK), served by bench/diskmodel.py,
# a loop device over it marked rotational, as the kernel would set up a
# real disk: DEV[rot], MNT[rot] (not mounted yet), DESC[rot].
setup_rot() {
	local img mib dev mnt=$WORK/rot i
	MODEL_WORK=$(mktemp -d "$MODEL_BASE/md5cold.XXXXXX") ||
		die "cannot make a directory in $MODEL_BASE"
	img=$MODEL_WORK/disk.img
	mib=$(( (BIG * BIG_MB + FILES * FILE_KB / 1024) * 5 / 4 + 128 ))
	echo "setting up the rotational model: $mib MiB image in $MODEL_BASE ..."
	truncate -s "${mib}M" "$img" || die "cannot make $img"
	# The files go in through a plain loop device, at memory speed; only
	# then is the image served through the model.
	loop_attach dev "$img"
	mkfs_on "$dev"
	{ mkdir -p "$mnt" && mount "$dev" "$mnt"; } || die "cannot mount $dev"
	MOUNTS+=("$mnt")
	names big "$BIG" > "$WORK/big.list"
	names files "$FILES" > "$WORK/files.list"
	mkfiles "$mnt/big" "$BIG" $(( BIG_MB << 20 ))
	mkfiles "$mnt/files" "$FILES" $(( FILE_KB << 10 ))
	digests "$mnt" big
	digests "$mnt" files
	shuffled files
	umount "$mnt" || die "cannot unmount $mnt"
	loop_detach "$dev"

	FMNT=$WORK/model
	mkdir -p "$FMNT" || die "cannot make $FMNT"
	# Niced up: a drive does not slow down when the CPUs are busy.
	nice -n -10 "$FUSE_PY" "$HERE/diskmodel.py" --seek-ms "$SEEK_MS" --mbps "$MBPS" \
		--cache-kb "$CACHE_KB" --order "$ORDER" ${TRACE:+--trace "$TRACE"} \
		"$img" "$FMNT" 2> "$WORK/model.log" &
	FUSE_PID=$!
	for ((i = 0; i < 100; i++)); do
		[ -e "$FMNT/disk.img" ] && break
		kill -0 "$FUSE_PID" 2>/dev/null ||
			die "the model did not start: $(cat "$WORK/model.log")"
		sleep 0.1
	done
	[ -e "$FMNT/disk.img" ] || die "the model did not mount in 10 s"
	loop_attach dev -r "$FMNT/disk.img"
	queue "$dev" rotational 1
	queue "$dev" scheduler mq-deadline
	queue "$dev" read_ahead_kb "$RA_KB"
	DEV[rot]=$dev MNT[rot]=$mnt
	DESC[rot]="bench/diskmodel.py (FUSE, direct_io): one 7200 rpm drive, ${SEEK_MS} ms for every read that does not follow on, $MBPS MB/s, drive cache ${CACHE_KB} KiB ahead (r rows) or off (o rows), waiting requests taken $ORDER; loop $(queue_desc "$dev"), ext4 mounted ro; small files of $FILE_KB KiB"
}

model() {		# model KEY: a setting or counter of the model
	awk -v k="$1" '$1 == k { print $2 }' "$FMNT/.control"
}
