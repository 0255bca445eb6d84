#!/usr/bin/python3
"""bench/diskmodel.py - serve one disk image through a model of one drive.

    diskmodel.py [options] IMAGE MOUNTPOINT

The mount holds two files:

  disk.img   the image, every read and write of which is timed by the model
             (put a loop device over it, and a file system on that);
  .control   read: the settings and counters, one "key value" a line;
             write "key=value ..." to change a setting at run time
             (seek_ms, mbps, cache_kb) or "reset" to zero the counters.

The model is one spinning drive that serves one request at a time.  The
FUSE layer is multi-threaded, so requests that come together wait for the
drive, and it takes them in the order their threads reach it (--order
arrival, the default): Python's threads reach it in an order of their own,
not always that of the requests, so that small reads in flight together
may cost a seek each, as on a drive that took its queue in no order.
--order sorted takes the waiting request that starts at or next after the
head, else the lowest, as a drive with command queueing (NCQ), or the
kernel's elevator in front of one without it, would.  A request costs its
transfer time size / rate, plus one seek (--seek-ms, the average seek and
rotational delay together) when it does not start where the previous one
ended.  The drive cache (--cache-kb): a request that starts up to that
many bytes ahead of the previous end costs no seek, only the transfer of the bytes skipped and its own; and while the
drive is idle it goes on reading ahead into that cache, so a request that
follows on after a pause finds up to cache_kb of its bytes there already.
--cache-kb 0 turns the cache off: then only an exact follow-on is free of
the seek.  Time is modelled by sleeping until the drive would be done, so
the real read of the image (best kept in /dev/shm) is hidden while it is
quicker than the model.

The mount is made with direct_io, so the kernel's FUSE page cache never
answers a read that the model has not timed.  Debian: python3-fusepy
(libfuse2).  Runs in the foreground; fusermount -u MOUNTPOINT (or SIGINT/
SIGTERM) ends it, and it prints the counters on stderr when it does.
"""

import argparse
import errno
import os
import stat
import sys
import threading
import time

try:
    from fusepy import FUSE, FuseOSError, Operations  # Debian's name
except ImportError:
    from fuse import FUSE, FuseOSError, Operations  # PyPI's name

IMAGE_NAME = "disk.img"
CONTROL_NAME = ".control"


class Drive:
    """One drive: a head position, a time it is busy until, and counters."""

    def __init__(self, seek_ms, mbps, cache_kb, trace=None, sorted_queue=False):
        self.lock = threading.Lock()
        self.turn = threading.Condition(self.lock)
        self.sorted = sorted_queue
        self.waiting = []      # [offset, serial] of requests not booked yet
        self.serial = 0
        self.trace = trace     # a file: one line per request, or None
        self.set(seek_ms=seek_ms, mbps=mbps, cache_kb=cache_kb)
        self.head = 0          # where the last request ended
        self.free_at = 0.0     # monotonic time the drive is done by
        self.reset()

    def set(self, seek_ms=None, mbps=None, cache_kb=None):
        if seek_ms is not None:
            self.seek = float(seek_ms) / 1000.0
        if mbps is not None:
            self.rate = float(mbps) * 1e6        # MB/s are 10^6 bytes/s
        if cache_kb is not None:
            self.window = int(float(cache_kb) * 1024)

    def reset(self):
        self.requests = self.seeks = self.near = self.hits = 0
        self.bytes = self.skipped = 0
        self.busy = 0.0
        self.queued = self.max_queued = 0   # requests booked, not yet done

    def _next(self):
        """The waiting request the drive takes next (sorted): the first at
        or after the head, else the lowest."""
        ahead = [w for w in self.waiting if w[0] >= self.head]
        return min(ahead or self.waiting)

    def _wait_turn(self, offset):
        """Sorted: wait, lock held, until the drive is free and takes this
        request of those waiting."""
        me = [offset, self.serial]
        self.serial += 1
        self.waiting.append(me)
        while time.monotonic() < self.free_at or self._next() is not me:
            delay = self.free_at - time.monotonic()
            self.turn.wait(delay if delay > 0 else 0.0005)
        self.waiting.remove(me)
        self.turn.notify_all()

    def serve(self, offset, size):
        """Book the drive for one request; return when it will be done.
        In arrival order a request is booked behind those booked before
        it; sorted, it waits its turn first."""
        with self.lock:
            if self.sorted:
                self._wait_turn(offset)
            now = time.monotonic()
            start = max(now, self.free_at)
            gap = offset - self.head
            kind = "seq"
            if gap == 0 and self.window == 0:
                cost = size / self.rate
            elif 0 <= gap <= self.window and self.window > 0:
                # The drive streamed on from head while idle, into its cache,
                # until the cache was full: those bytes are there already.
                ahead = min(self.window, (start - self.free_at) * self.rate)
                cost = max(0.0, gap + size - ahead) / self.rate
                if gap:
                    self.near += 1
                    self.skipped += gap
                    kind = "near"
                if cost == 0.0:
                    self.hits += 1
                    kind = "hit"
            else:
                cost = self.seek + size / self.rate
                self.seeks += 1
                kind = "seek"
            if self.trace:
                self.trace.write("%.6f %d %d %d %s %.6f\n"
                                 % (start, offset, size, gap, kind, cost))
            self.requests += 1
            self.bytes += size
            self.busy += cost
            self.head = offset + size
            self.free_at = start + cost
            self.queued += 1
            self.max_queued = max(self.max_queued, self.queued)
            return self.free_at

    def done(self):
        with self.lock:
            self.queued = max(0, self.queued - 1)

    def report(self):
        with self.lock:
            if self.trace:
                self.trace.flush()
            return ("seek_ms %g\nmbps %g\ncache_kb %g\nrequests %d\nseeks %d\n"
                    "near %d\ncache_hits %d\nbytes %d\nskipped %d\nbusy_s %.6f\n"
                    "max_queued %d\n"
                    % (self.seek * 1000, self.rate / 1e6, self.window / 1024,
                       self.requests, self.seeks, self.near, self.hits,
                       self.bytes, self.skipped, self.busy, self.max_queued))


def wait_until(when):
    delay = when - time.monotonic()
    if delay > 0:
        time.sleep(delay)


class DiskModel(Operations):
    def __init__(self, image, drive, writable):
        self.drive = drive
        self.writable = writable
        self.fd = os.open(image, os.O_RDWR if writable else os.O_RDONLY)
        self.size = os.fstat(self.fd).st_size
        self.started = time.time()

    def _stat(self, mode, size, nlink=1):
        t = self.started
        return dict(st_mode=mode, st_nlink=nlink, st_size=size,
                    st_uid=os.getuid(), st_gid=os.getgid(),
                    st_atime=t, st_mtime=t, st_ctime=t)

    def getattr(self, path, fh=None):
        if path == "/":
            return self._stat(stat.S_IFDIR | 0o755, 0, 2)
        if path == "/" + IMAGE_NAME:
            perm = 0o644 if self.writable else 0o444
            return self._stat(stat.S_IFREG | perm, self.size)
        if path == "/" + CONTROL_NAME:
            # Size 0: with direct_io the kernel asks us anyway.
            return self._stat(stat.S_IFREG | 0o644, 0)
        raise FuseOSError(errno.ENOENT)

    def readdir(self, path, fh):
        if path != "/":
            raise FuseOSError(errno.ENOTDIR)
        return [".", "..", IMAGE_NAME, CONTROL_NAME]

    def open(self, path, flags):
        if path == "/" + IMAGE_NAME:
            if (flags & os.O_ACCMODE) != os.O_RDONLY and not self.writable:
                raise FuseOSError(errno.EROFS)
            return 0
        if path == "/" + CONTROL_NAME:
            return 1
        raise FuseOSError(errno.ENOENT)

    def truncate(self, path, length, fh=None):
        if path == "/" + CONTROL_NAME:
            return 0           # so that "echo ... > .control" works
        raise FuseOSError(errno.EPERM)

    def read(self, path, size, offset, fh):
        if path == "/" + CONTROL_NAME:
            return self.drive.report().encode()[offset:offset + size]
        if offset >= self.size:
            return b""
        size = min(size, self.size - offset)
        return self._timed(offset, size, lambda: os.pread(self.fd, size, offset))

    def write(self, path, data, offset, fh):
        if path == "/" + CONTROL_NAME:
            return self._control(data)
        if not self.writable:
            raise FuseOSError(errno.EROFS)
        if offset + len(data) > self.size:
            raise FuseOSError(errno.ENOSPC)
        return self._timed(offset, len(data), lambda: os.pwrite(self.fd, data, offset))

    def _timed(self, offset, size, io):
        """Do io, then wait until the drive would have served the request."""
        done = self.drive.serve(offset, size)
        try:
            result = io()
            wait_until(done)
        finally:
            self.drive.done()
        return result

    def _control(self, data):
        try:
            for word in data.decode().split():
                if word == "reset":
                    with self.drive.lock:
                        self.drive.reset()
                    continue
                key, value = word.split("=", 1)
                if key not in ("seek_ms", "mbps", "cache_kb"):
                    raise ValueError(key)
                with self.drive.lock:
                    self.drive.set(**{key: value})
        except ValueError:
            raise FuseOSError(errno.EINVAL)
        return len(data)

    def fsync(self, path, datasync, fh):
        return 0

    def flush(self, path, fh):
        return 0

    def release(self, path, fh):
        return 0

    def statfs(self, path):
        return dict(f_bsize=4096, f_frsize=4096, f_blocks=self.size // 4096,
                    f_bfree=0, f_bavail=0, f_namemax=255)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("image")
    p.add_argument("mountpoint")
    p.add_argument("--seek-ms", type=float, default=8.5,
                   help="cost of a request that does not follow on (8.5)")
    p.add_argument("--mbps", type=float, default=160.0,
                   help="transfer rate in 10^6 bytes/s (160)")
    p.add_argument("--cache-kb", type=float, default=256.0,
                   help="drive cache window in KiB, 0 = off (256)")
    p.add_argument("--writable", action="store_true",
                   help="allow writes (timed like reads)")
    p.add_argument("--order", choices=("sorted", "arrival"), default="arrival",
                   help="which waiting request the drive takes next (arrival)")
    p.add_argument("--trace", metavar="FILE",
                   help="log each request: start offset size gap kind cost "
                        "(buffered: written out when .control is read)")
    a = p.parse_args()
    trace = open(a.trace, "w", buffering=1 << 20) if a.trace else None
    drive = Drive(a.seek_ms, a.mbps, a.cache_kb, trace, a.order == "sorted")
    ops = DiskModel(a.image, drive, a.writable)
    try:
        FUSE(ops, a.mountpoint, foreground=True, nothreads=False,
             direct_io=True, fsname="diskmodel", subtype="diskmodel")
    finally:
        sys.stderr.write("diskmodel: " +
                         drive.report().replace("\n", "; ").rstrip("; ") + "\n")


if __name__ == "__main__":
    main()
