#!/usr/bin/env bats
# sysfs_kind() (sysfs.c), through tests/device_probe, on storage made
# here: loop devices with either rotational flag, a partition, device-mapper
# and a fake sysfs for the stacks it makes, tmpfs, /proc and FUSE.  Most
# tests need root; each one that cannot run skips saying why.
#
# Uses, where present: mount (losetup, mount), util-linux (partx, blockdev,
# unshare), e2fsprogs (mkfs.ext4), fdisk (sfdisk), dmsetup, fuse2fs, and
# fuse3 (fusermount, for FUSE as a user).

bats_require_minimum_version 1.5.0

setup() {
	MOUNTS=() DMS=() LOOPS=() PIDS=()
	PROBE=${DEVICE_PROBE:-$BATS_TEST_DIRNAME/../build/tests/device_probe}
	[[ -x $PROBE ]] || skip "device_probe not built: $PROBE"
	[[ $PROBE == /* ]] || PROBE=$PWD/$PROBE
	cd "$BATS_TEST_TMPDIR" || return
}

# Every step is tried even when one fails, and a failure fails the test.
teardown() {
	local i rc=0

	[[ -z ${MODEL_PID:-} ]] || model_down || rc=1
	for i in "${PIDS[@]}"; do
		kill "$i" 2>/dev/null || true
	done
	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
		umount "${MOUNTS[i]}" 2>/dev/null ||
			fusermount -u "${MOUNTS[i]}" || rc=1
	done
	for i in "${DMS[@]}"; do
		dmsetup remove "$i" || rc=1
	done
	for i in "${LOOPS[@]}"; do
		losetup -d "$i" || rc=1
	done
	return "$rc"
}

need_root() {
	((EUID == 0)) || skip "needs root (losetup, mount)"
}

# need COMMAND PACKAGE
need() {
	command -v "$1" >/dev/null || skip "no $1 (Debian package $2)"
}

# answers WORD PATH: device_probe says WORD of PATH
answers() {
	run -0 "$PROBE" "$2"
	if [[ $output != "$1" ]]; then
		echo "device_probe $2: expected '$1', got '$output'" >&2
		return 1
	fi
}

# attach IMAGE [LOSETUP-OPTION...]: a loop device over IMAGE, in $LOOP
attach() {
	local img=$1 out

	shift
	need_root
	need losetup mount
	out=$(losetup -f --show "$@" "$img" 2>&1) || skip "losetup: $out"
	LOOP=$out
	LOOPS+=("$LOOP")
}

# new_loop: a loop device over a new image, in $LOOP
new_loop() {
	local img=disk${#LOOPS[@]}.img

	need_root
	truncate -s 64M "$img"
	attach "$img"
}

# set_rotational DISK 0|1
set_rotational() {
	local f=/sys/block/${1##*/}/queue/rotational err

	err=$({ echo "$2" >"$f"; } 2>&1) || skip "cannot write $f: $err"
	[[ $(<"$f") == "$2" ]] || skip "$f stays $(<"$f") when set to $2"
}

# mount_new_fs DEVICE: an ext4 on DEVICE, mounted, with a file, $FILE
mount_new_fs() {
	local mnt=$BATS_TEST_TMPDIR/mnt${#MOUNTS[@]} out

	need mkfs.ext4 e2fsprogs
	mkfs.ext4 -q -F "$1"
	mkdir "$mnt"
	out=$(mount "$1" "$mnt" 2>&1) || skip "cannot mount ext4: $out"
	MOUNTS+=("$mnt")
	FILE=$mnt/file
	echo hello >"$FILE"
}

# partitioned_loop: a loop device over an image with one partition, $LOOP,
# and that partition, $PART.  A kernel built without the parser for the
# table finds no partition: partx then adds it from user space.
partitioned_loop() {
	local i

	need_root
	need sfdisk fdisk
	truncate -s 64M part.img
	echo ',,L' | sfdisk -q part.img
	attach part.img -P
	PART=${LOOP}p1
	if [[ ! -e /sys/block/${LOOP##*/}/${PART##*/} ]]; then
		need partx util-linux
		partx -a "$LOOP"
	fi
	for ((i = 0; i < 50; i++)); do
		[[ ! -b $PART ]] || break
		sleep 0.1
	done
	[[ -b $PART ]] || skip "no $PART after losetup -P and partx -a"
	[[ -e /sys/class/block/${PART##*/}/partition ]]
}

need_dm() {
	local out

	need_root
	need dmsetup dmsetup
	need blockdev util-linux
	out=$(dmsetup version 2>&1) ||
		skip "device-mapper unusable here: ${out%%$'\n'*}"
}

# dm_linear DEVICE...: a device-mapper device laying DEVICEs end to end,
# in $DM
dm_linear() {
	local name=md5sum-device-$$-$BATS_TEST_NUMBER table="" start=0 size dev

	for dev; do
		size=$(blockdev --getsz "$dev")
		table+="$start $size linear $dev 0"$'\n'
		start=$((start + size))
	done
	printf %s "$table" | dmsetup create "$name"
	DMS+=("$name")
	dmsetup mknodes "$name"
	DM=/dev/mapper/$name
}

# ask_twice FLAG [OPTION...]: device_probe -t on $FILE, with $LOOP's
# rotational flag set to FLAG between the asks; answers in $FIRST, $SECOND
ask_twice() {
	local flag=$1 pid to from

	shift
	mkfifo ask.in ask.out
	"$PROBE" "$@" -t "$FILE" <ask.in >ask.out 3>&- &
	pid=$!
	PIDS+=("$pid")
	exec {to}>ask.in {from}<ask.out
	read -r -t 10 FIRST <&"$from"
	set_rotational "$LOOP" "$flag"
	echo >&"$to"
	read -r -t 10 SECOND <&"$from"
	exec {to}>&- {from}<&-
	wait "$pid"
}

# fake_sysfs: a file, $FILE, on a loop device, and under fake/ a sysfs
# tree of devices to stand in for that device's own; fake_answers shows
# the tree to device_probe as /sys/dev/block, in a mount namespace of its
# own.  This tries the walk over stacks where there is no device-mapper.
fake_sysfs() {
	need unshare util-linux
	[[ -d /sys/dev/block ]] || skip "no /sys/dev/block"
	new_loop
	mount_new_fs "$LOOP"
	FAKE_DEV=$(<"/sys/block/${LOOP##*/}/dev")
	mkdir -p fake/block fake/devices
	unshare -m true || skip "unshare -m fails here"
}

# fake_disk NAME 0|1 [SLAVE...]: a device in the fake tree; a slave is the
# NAME of another, or DISK/PART for a partition
fake_disk() {
	local d=fake/devices/$1 s

	mkdir -p "$d/queue" "$d/slaves"
	echo "$2" >"$d/queue/rotational"
	for s in "${@:3}"; do
		ln -s "../../$s" "$d/slaves/${s##*/}"
	done
}

# fake_partition DISK PART
fake_partition() {
	mkdir "fake/devices/$1/$2"
	: >"fake/devices/$1/$2/partition"
}

# fake_answers WORD [NAME]: device_probe says WORD of $FILE when its
# device is fake device NAME (none: the tree lacks it)
fake_answers() {
	[[ -z ${2-} ]] ||
		ln -s "$BATS_TEST_TMPDIR/fake/devices/$2" "fake/block/$FAKE_DEV"
	run -0 timeout 10 unshare -m sh -c \
		'mount --bind "$1" /sys/dev/block && exec "$2" "$3"' sh \
		"$BATS_TEST_TMPDIR/fake/block" "$PROBE" "$FILE"
	if [[ $output != "$1" ]]; then
		echo "fake sysfs: expected '$1', got '$output'" >&2
		return 1
	fi
}

@test "loop device, rotational 0: non-rotational" {
	new_loop
	set_rotational "$LOOP" 0
	mount_new_fs "$LOOP"
	answers non-rotational "$FILE"
}

@test "loop device, rotational 1: rotational" {
	new_loop
	set_rotational "$LOOP" 1
	mount_new_fs "$LOOP"
	answers rotational "$FILE"
}

@test "partition on a disk with rotational 0: non-rotational" {
	partitioned_loop
	set_rotational "$LOOP" 0
	mount_new_fs "$PART"
	answers non-rotational "$FILE"
}

@test "partition on a disk with rotational 1: rotational" {
	partitioned_loop
	set_rotational "$LOOP" 1
	mount_new_fs "$PART"
	answers rotational "$FILE"
}

@test "device-mapper over a rotating disk: rotational" {
	need_dm
	new_loop
	set_rotational "$LOOP" 1
	dm_linear "$LOOP"
	mount_new_fs "$DM"
	answers rotational "$FILE"
}

@test "device-mapper over a non-rotating disk: non-rotational" {
	need_dm
	new_loop
	set_rotational "$LOOP" 0
	dm_linear "$LOOP"
	mount_new_fs "$DM"
	answers non-rotational "$FILE"
}

# Both disks are flash when the table is loaded, which fixes dm's own
# flag; one turns to spinning after, which only the disks under it show.
@test "device-mapper over two disks, one rotating: rotational" {
	need_dm
	new_loop
	local a=$LOOP
	new_loop
	set_rotational "$a" 0
	set_rotational "$LOOP" 0
	dm_linear "$a" "$LOOP"
	mount_new_fs "$DM"
	set_rotational "$LOOP" 1
	answers rotational "$FILE"
}

# The one that rotates is the middle one in readdir order, so that a walk
# that stops at the first device or keeps the last one misses it.
@test "stack (fake sysfs): rotational if any device under it rotates" {
	local i order

	fake_sysfs
	for i in 0 1 2 3 4 5 6; do
		fake_disk "d$i" 0
	done
	fake_disk top 0 d0 d1 d2 d3 d4 d5 d6
	mapfile -t order < <(ls -f fake/devices/top/slaves | grep -v '^\.')
	echo 1 >"fake/devices/${order[3]}/queue/rotational"
	fake_answers rotational top
}

@test "stack (fake sysfs): non-rotational if none rotates, whatever its own flag" {
	fake_sysfs
	fake_disk a 0
	fake_disk b 0
	fake_disk top 1 a b
	fake_answers non-rotational top
}

@test "stack (fake sysfs): a partition under it answers for its disk" {
	fake_sysfs
	fake_disk disk 1
	fake_partition disk p1
	fake_disk top 0 disk/p1
	fake_answers rotational top
}

@test "stack (fake sysfs): a loop in slaves/ ends, non-rotational" {
	fake_sysfs
	fake_disk top 1 top
	fake_answers non-rotational top
}

# Far deeper than any real stack: the walk must give up before the disk.
@test "stack (fake sysfs): 64 deep, the walk gives up: non-rotational" {
	local i

	fake_sysfs
	fake_disk d64 1
	for ((i = 63; i >= 0; i--)); do
		fake_disk "d$i" 0 "d$((i + 1))"
	done
	fake_answers non-rotational d0
}

@test "sysfs without the device: non-rotational" {
	fake_sysfs
	set_rotational "$LOOP" 1
	fake_answers non-rotational
}

@test "tmpfs: no block device" {
	local dir=/dev/shm out

	if ((EUID == 0)); then
		mkdir tmp
		if out=$(mount -t tmpfs tmpfs tmp 2>&1); then
			MOUNTS+=("$BATS_TEST_TMPDIR/tmp")
			dir=tmp
		fi
	fi
	[[ $(stat -f -c %T "$dir") == tmpfs ]] ||
		skip "no tmpfs: /dev/shm is not one${out:+, and mount says: $out}"
	answers "no block device" "$dir"
}

@test "/proc: no block device" {
	[[ -e /proc/self/status ]] || skip "no /proc"
	answers "no block device" /proc/self/status
}

# The image sits on whatever this directory is on, maybe a spinning disk:
# FUSE hides it.
@test "FUSE (fuse2fs): no block device" {
	local out

	need fuse2fs fuse2fs
	need mkfs.ext4 e2fsprogs
	[[ -c /dev/fuse ]] || skip "no /dev/fuse"
	# libfuse 2, under fuse2fs, opens it even when fusermount mounts
	[[ -r /dev/fuse && -w /dev/fuse ]] ||
		skip "cannot open /dev/fuse (mode $(stat -c %a /dev/fuse))"
	((EUID == 0)) || need fusermount fuse3
	mkdir src mnt
	echo hello >src/file
	truncate -s 8M fs.img
	mkfs.ext4 -q -d src fs.img
	# fuse2fs can fail and still exit 0
	out=$(fuse2fs -o ro fs.img mnt 2>&1) || true
	[[ $(stat -f -c %T mnt) == fuse* ]] ||
		skip "fuse2fs did not mount: ${out//$'\n'/; }"
	MOUNTS+=("$BATS_TEST_TMPDIR/mnt")
	answers "no block device" mnt/file
}

@test "a path that cannot be stat'ed: exit 1 with a message" {
	run -1 "$PROBE" "$BATS_TEST_TMPDIR/absent"
	[[ $output == *"absent: No such file or directory"* ]]
}

@test "an answer is cached: asking again ignores a change in sysfs" {
	new_loop
	set_rotational "$LOOP" 0
	mount_new_fs "$LOOP"
	ask_twice 1
	[[ $FIRST == non-rotational && $SECOND == non-rotational ]]
	answers rotational "$FILE"
}

@test "a full cache: each ask looks the device up again" {
	new_loop
	set_rotational "$LOOP" 0
	mount_new_fs "$LOOP"
	ask_twice 1 -f
	[[ $FIRST == non-rotational && $SECOND == rotational ]]
}

# ---- How md5sum reads, by what the storage costs (readway.h, storage.h) ----
# Seen from outside with strace: the threads that read files they did not
# open are disk readers (the threads that hash in lanes open their own;
# a sanitizer's threads read none), and a read of memory only that found
# nothing there says the data came from the device.

need_strace() {
	need strace strace
	strace -f -qq -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
}

# traced DIR OURS... -- ARGS...: run our md5sum with our options OURS and
# ARGS under strace in DIR, and GNU's with ARGS, and compare the output;
# READERS: disk readers that read; READER_READS and LANE_READS: plain
# reads of files by them and by the threads that opened the files;
# NOWAIT_MISSED: reads of memory only that missed.
traced() {
	local dir=$1 md5=${MD5SUM:-$BATS_TEST_DIRNAME/../build/md5sum} t=$BATS_TEST_TMPDIR/trace

	shift
	[[ $md5 == /* ]] || md5=$BATS_TEST_DIRNAME/../$md5
	# (LeakSanitizer cannot work under ptrace.)
	(cd "$dir" && ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -o "$t" -e trace=openat,read,preadv2 "$md5" "$@" \
		>"$BATS_TEST_TMPDIR/out")
	READERS=$(awk '$2 ~ /^openat\(/ { opened[$1] = 1 }
		$2 ~ /^read\(([3-9]|[1-9][0-9]+),/ { reads[$1] = 1 }
		END { for (t in reads) n += !(t in opened); print n + 0 }' "$t")
	read -r READER_READS LANE_READS < <(awk '$2 ~ /^openat\(/ { opened[$1] = 1 }
		$2 ~ /^read\(([3-9]|[1-9][0-9]+),/ { reads[$1]++ }
		END { for (t in reads) if (t in opened) l += reads[t]; else r += reads[t]
		      print r + 0, l + 0 }' "$t")
	NOWAIT_MISSED=$(grep -c 'RWF_NOWAIT.*EAGAIN' "$t") || true
	echo "disk readers $READERS ($READER_READS reads), $LANE_READS reads by the threads that opened," \
		"reads of memory only that missed $NOWAIT_MISSED" >&2
	while [[ $1 != -- ]]; do
		shift	# ours only
	done
	(cd "$dir" && /usr/bin/md5sum "$@" >"$BATS_TEST_TMPDIR/gnu")
	cmp "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/gnu"
}

# small_files DIR N: N files of 4 KiB of their own bytes; FILES: their
# names.
small_files() {
	local i

	mkdir -p "$1"
	FILES=()
	for ((i = 0; i < $2; i++)); do
		head -c 4096 /dev/urandom >"$1/f$i"
		FILES+=("f$i")
	done
}

remount() {
	umount "$1" && mount ${2:+-o "$2"} "$LOOP" "$1"
}

@test "storage: a loop device marked rotational over fast storage is measured solid" {
	need_strace
	new_loop
	set_rotational "$LOOP" 1
	mount_new_fs "$LOOP"
	# 8 MiB: room for the reader's far reads, which measure it.
	small_files "${MOUNTS[0]}/d" 2000
	# With the CPUs busy (the suites beside this one, compilers), the loop
	# device's worker and strace wait for a CPU, and a far read of this
	# flash can take as long as a seek: a run may then read it all as
	# spinning.  So three cold runs, of which one must measure it solid.
	local try
	for try in 1 2 3; do
		remount "${MOUNTS[0]}"
		traced "${MOUNTS[0]}/d" -j2 -- "${FILES[@]}"
		((NOWAIT_MISSED > 0)) &&	# the data did come from the device,
			((READERS == 1)) &&	# read by the disk's reader until measured,
			((LANE_READS > READER_READS)) &&	# then, most of it, in lanes
			return 0
	done
	echo "read as spinning in three cold runs" >&2
	return 1
}

@test "storage: cached files on a device marked rotational are read in lanes" {
	need_strace
	new_loop
	set_rotational "$LOOP" 1
	mount_new_fs "$LOOP"
	small_files "${MOUNTS[0]}/d" 300
	cat "${MOUNTS[0]}"/d/* >/dev/null
	traced "${MOUNTS[0]}/d" -j2 -- "${FILES[@]}"
	((NOWAIT_MISSED == 0 && READERS == 0))
}

@test "storage: --disk=hdd still reads by the disk's reader, cached or not" {
	need_strace
	new_loop
	set_rotational "$LOOP" 0
	mount_new_fs "$LOOP"
	small_files "${MOUNTS[0]}/d" 50
	traced "${MOUNTS[0]}/d" -j2 --disk=hdd -- "${FILES[@]}"
	((READERS == 1))
}

# The disk's reader asks for the file it reads before those after it (the
# disk's queue then holds them in its order): in a reader's calls, a file
# first read after it asked for others (since its last read) was asked
# for no later than the first of them.  ASKED_LATE: the files read so.
@test "storage: the disk's reader asks for the file it reads before those after it" {
	local t=$BATS_TEST_TMPDIR/asks md5=${MD5SUM:-$BATS_TEST_DIRNAME/../build/md5sum}

	need_strace
	[[ $md5 == /* ]] || md5=$BATS_TEST_DIRNAME/../$md5
	new_loop
	set_rotational "$LOOP" 0
	mount_new_fs "$LOOP"
	small_files "${MOUNTS[0]}/d" 400
	remount "${MOUNTS[0]}"
	echo 3 >/proc/sys/vm/drop_caches
	(cd "${MOUNTS[0]}/d" && ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -y -o "$t" -e trace=openat,read,pread64,fadvise64 \
		"$md5" -j2 --disk=hdd "${FILES[@]}" >/dev/null)
	read -r ASKS ASKED_LATE < <(awk '
		function path(s) { sub(/^[^<]*</, "", s); sub(/>.*/, "", s); return s }
		$2 ~ /^openat\(/ { opened[$1] = 1 }
		$2 ~ /^fadvise64\(/ && /WILLNEED/ {
			n++; p = path($2)
			if (!(p in asked)) asked[p] = n
			if (!($1 in group)) group[$1] = n
		}
		$2 ~ /^p?read(64)?\([0-9]+</ && !($1 in opened) {
			p = path($2)
			if (!(($1, p) in seen) && $1 in group &&
			    !(p in asked && asked[p] <= group[$1]))
				late++
			seen[$1, p] = 1
			delete group[$1]
		}
		END { print n + 0, late + 0 }' "$t")
	echo "asks $ASKS, files read after asks for later ones: $ASKED_LATE" >&2
	((ASKS > 0 && ASKED_LATE == 0))
}

# The spinning-disk model of bench/ (a FUSE file system that times each
# read as one drive would), with a loop device over its image and ext4 on
# that, holding N files of 4 KiB in mnt/d.  Taken down by model_down, in
# its own order: the loop device holds the model's file open.
model_disk() {
	local py i img=$BATS_TEST_TMPDIR/model.img dev

	need_root
	need losetup mount
	need mkfs.ext4 e2fsprogs
	need fusermount fuse3
	[[ -c /dev/fuse ]] || skip "no /dev/fuse"
	for py in /usr/bin/python3 python3; do
		"$py" -c 'import fusepy' 2>/dev/null && break
		py=
	done
	[[ -n $py ]] || skip "no python3 with fusepy (Debian: python3-fusepy)"
	truncate -s 64M "$img"
	mkfs.ext4 -q -F "$img"
	mkdir model mnt
	mount -o loop "$img" mnt || skip "cannot mount ext4 on a loop device"
	small_files mnt/d "$1"
	umount mnt
	"$py" "$BATS_TEST_DIRNAME/../bench/diskmodel.py" --seek-ms 8.5 --mbps 160 \
		"$img" model 2>model.log &
	MODEL_PID=$!
	for ((i = 0; i < 100; i++)); do
		[[ -e model/disk.img ]] && break
		sleep 0.1
	done
	[[ -e model/disk.img ]] || skip "the disk model did not start: $(cat model.log)"
	dev=$(losetup -f --show -r model/disk.img) || skip "losetup over the model failed"
	MODEL_LOOP=$dev
	LOOP=$dev
	set_rotational "$dev" 1
	mount -o ro "$dev" mnt
	MODEL_MNT=$BATS_TEST_TMPDIR/mnt
}

model_down() {
	[[ -z ${MODEL_MNT:-} ]] || umount "$MODEL_MNT"
	[[ -z ${MODEL_LOOP:-} ]] || losetup -d "$MODEL_LOOP"
	fusermount -u "$BATS_TEST_TMPDIR/model" 2>/dev/null || umount "$BATS_TEST_TMPDIR/model"
	wait "$MODEL_PID" 2>/dev/null || true
}

@test "storage: the spinning-disk model is measured spinning; once cached, lanes" {
	need_strace
	model_disk 60
	traced mnt/d -j2 -- "${FILES[@]}"
	((READERS == 1))	# cold: the disk's reader read them
	traced mnt/d -j2 -- "${FILES[@]}"
	((READERS == 0 && NOWAIT_MISSED == 0))	# cached: lanes
}
