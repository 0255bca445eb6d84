#!/usr/bin/python3
"""bench/netmodel.py - serve a directory through a model of a network file system.

    netmodel.py [options] SOURCE MOUNTPOINT

The mount shows SOURCE, read-only: its directories, regular files and
symbolic links, as they are (a passthrough); and one file more, hidden
(not listed) at the top:

  .netmodel  read: the settings and counters, one "key value" a line;
             write "key=value ..." to change a setting at run time
             (rtt_ms, mbps, lookups, cache_s) or "reset" to zero the
             counters.  Requests about it cost nothing and are not counted.

The model is a file server at the other end of a network, as NFS and SMB
are: every request the kernel sends costs one round trip (--rtt-ms) before
it is answered: each lookup and getattr, access, open, opendir, readdir,
statfs, readlink and read; a read costs its transfer time too, the bytes it
returns / the rate (--mbps, 10^6 bytes/s, for each request on its own: the
link is not shared between requests).  Closing (flush, release, releasedir)
is free.  Requests are served side by side, as NFS and SMB servers serve
concurrent requests: the FUSE layer is multi-threaded and each request
waits only for its own time, with no lock held while it waits (but a
directory's, with serial lookups: below).  Time is
modelled by sleeping until the request would be answered, so the real work
on SOURCE (best kept in /dev/shm) is hidden while it is quicker than the
model; the sleeps end a little sooner than asked by as much as they were
seen to end late, so that on average a request is answered on time.  What
the model cannot hide is its own cost: the kernel's and libfuse's, and
Python's (fusepy), some 0.1-0.3 ms of CPU a request, which adds to every
round trip and bounds how many requests a second it answers.

The mount is made with direct_io, so that the kernel's page cache never
answers a read that the model has not timed, and with attr_timeout=0,
entry_timeout=0 and negative_timeout=0, so that the kernel caches no
lookup or attribute either: every open of a name asks the server again.
It is not mounted ro, so that .netmodel can be written; the model refuses
every other write (EROFS), and SOURCE is never written.

Two modes of lookups (--lookups).  parallel, the default: lookups are
served side by side, as NFS and SMB servers serve them, and a directory
listing brings names alone.  serial: lookups in one directory are served
one at a time (those in different directories side by side), as on a FUSE
file system without parallel directory operations (sshfs), and what a
listing brings (each entry's attributes) or a lookup answered answers a
later lookup of that name within --cache-s seconds (20; 0 in parallel
mode) without a round trip, as sshfs's cache does and NFS's and SMB's
READDIRPLUS: so md5sum -c, which looks its names up one at a time, takes a
round trip a file more than hashing the names a glob found, unless the
directory is read first.  Both live in the model, not in the kernel's
flags: a lock a directory, held while a lookup or a directory read in it
waits its round trip, and the attributes of SOURCE as walked when the
model starts (a server reads them on its own CPUs), each with when a
listing handed it out and when a lookup answered it.  A directory is
handed out a reply at a time (as much as the kernel's buffer takes), a
round trip each, in both modes.  bench/netmodel.c says why at length.

One way the kernel's FUSE client is not NFS's: libfuse 2 cannot ask for
parallel directory operations, so the kernel looks up a name that it has
never seen (no dentry yet) under the directory's lock, one at a time in a
directory, whereas NFS and SMB clients look names up side by side.  Names
it has seen once are checked again (entry_timeout=0) without that lock, side
by side: look every name up once after mounting (at rtt_ms 0, say, then set
the round trip through .netmodel and reset) to have every lookup cost a
round trip and be served side by side, as on NFS.
Debian: python3-fusepy (libfuse2).  Runs in the foreground; fusermount -u
MOUNTPOINT (or SIGINT/SIGTERM) ends it, and it prints the counters on
stderr when it does: the requests by kind (getattr by name: the lookups
and stat; fgetattr: fstat), the bytes read, the most requests in flight at
once (all kinds, and reads alone), late_ms, how late on average a request
was answered, the lookups answered without a round trip from a listing
(lookups_listed) or an earlier lookup (lookups_cached), and the most
lookups in flight at once in one directory (max_dir_lookups).
"""

import argparse
import contextlib
import ctypes
import errno
import itertools
import os
import stat
import sys
import threading
import time

try:
    from fusepy import FUSE, FuseOSError, Operations  # Debian's name
except ImportError:
    from fuse import FUSE, FuseOSError, Operations  # PyPI's name

# Requests that cost nothing: they end what was opened.
FREE = frozenset(("flush", "release", "releasedir", "init", "destroy"))
CONTROL = "/.netmodel"
CONTROL_FH = 1 << 62           # the control file's handle: no descriptor


class Dir:
    """A directory that names are looked up in."""

    def __init__(self):
        self.lock = threading.Lock()             # taken in serial mode
        self.lookups = 0                         # in flight, either mode


class Known:
    """An entry of SOURCE as walked at start: its attributes, and when a
    listing handed it out and a lookup answered it (None: never)."""
    __slots__ = ("attrs", "listed", "looked")

    def __init__(self, attrs):
        self.attrs = attrs
        self.listed = self.looked = None


class Link:
    """The network: what a request costs, and counters of what was asked."""

    def __init__(self, rtt_ms, mbps, lookups, cache_s):
        self.lock = threading.Lock()             # the counters' and dirs'
        self.set(rtt_ms=rtt_ms, mbps=mbps, lookups=lookups, cache_s=cache_s)
        self.bias = 0.0        # how much sooner to wake than the deadline
        self.inflight = self.reads = 0
        self.dirs = {}
        self.reset()

    def set(self, rtt_ms=None, mbps=None, lookups=None, cache_s=None):
        if rtt_ms is not None:
            rtt = float(rtt_ms) / 1000.0
            if not rtt >= 0:
                raise ValueError(rtt_ms)
            self.rtt = rtt
        if mbps is not None:
            rate = float(mbps) * 1e6             # MB/s are 10^6 bytes/s
            if not rate > 0:
                raise ValueError(mbps)
            self.rate = rate
        if lookups is not None:
            if lookups not in ("serial", "parallel"):
                raise ValueError(lookups)
            self.serial = lookups == "serial"
        if cache_s is not None:
            cache = float(cache_s)
            if not cache >= 0 or cache == float("inf"):
                raise ValueError(cache_s)
            self.cache = cache

    def reset(self):
        """Zero the counters (those in flight stay in flight)."""
        self.counts = {}
        self.bytes = 0
        self.max_inflight = self.inflight
        self.max_reads = self.reads
        self.late = 0.0        # the sum of how late requests were answered
        self.timed = 0
        self.listed = self.cached = 0
        self.max_dir_lookups = 0

    def dir(self, path):
        """The directory of that path, made the first time."""
        with self.lock:
            d = self.dirs.get(path)
            if d is None:
                d = self.dirs[path] = Dir()
            return d

    @contextlib.contextmanager
    def entered(self, d):
        """In d for a lookup or a directory read: its lock in serial mode."""
        if d is not None and self.serial:
            with d.lock:
                yield
        else:
            yield

    def wait_until(self, when):
        """Sleep until when.  A sleep ends late, by some 0.1-0.2 ms on a
        busy machine, which would add to every round trip: so wake up
        self.bias sooner, a bias that follows the lateness seen (an
        integral controller: on average a request is answered on time)."""
        now = time.monotonic()
        if now >= when:        # late by the work alone: nothing to learn
            return now - when
        delay = when - now - self.bias
        if delay > 0:
            time.sleep(delay)
        late = time.monotonic() - when
        # Races between threads here only blur the estimate a little.
        self.bias = min(max(self.bias + 0.1 * late, 0.0), self.rtt)
        return late

    def begin(self, kind):
        with self.lock:
            self.counts[kind] = self.counts.get(kind, 0) + 1
            self.inflight += 1
            self.max_inflight = max(self.max_inflight, self.inflight)
            if kind == "read":
                self.reads += 1
                self.max_reads = max(self.max_reads, self.reads)

    def end(self, kind, nbytes, late):
        with self.lock:
            self.inflight -= 1
            self.late += late
            self.timed += 1
            if kind == "read":
                self.reads -= 1
                self.bytes += nbytes

    def report(self):
        """The settings and counters, one "key value" a line."""
        with self.lock:
            lines = ["rtt_ms %g" % (self.rtt * 1000), "mbps %g" % (self.rate / 1e6),
                     "requests %d" % sum(self.counts.values())]
            lines += ["%s %d" % kv for kv in sorted(self.counts.items())]
            lines[2:2] = ["lookups %s" % ("serial" if self.serial else "parallel"),
                          "cache_s %g" % self.cache]
            lines += ["bytes %d" % self.bytes, "max_inflight %d" % self.max_inflight,
                      "max_reads_inflight %d" % self.max_reads,
                      "late_ms %.3f" % (self.late / max(self.timed, 1) * 1000),
                      "lookups_listed %d" % self.listed, "lookups_cached %d" % self.cached,
                      "max_dir_lookups %d" % self.max_dir_lookups]
            return "".join(line + "\n" for line in lines)


# Each request comes on one of libfuse's threads, which Python does not know:
# ctypes makes a Python thread state for it at every call and frees it
# after (an mmap and munmap and more each time).  Taking the GIL state once
# more on each thread, and never giving it back, keeps the thread's state
# from one request to the next: half the CPU time a request (0.19 ms ->
# 0.09 ms on a busy 2-CPU guest).
_kept = threading.local()


def keep_thread_state():
    if not getattr(_kept, "done", False):
        ctypes.pythonapi.PyGILState_Ensure()
        _kept.done = True


class NetModel(Operations):
    use_ns = True              # times in nanoseconds (fusepy >= 3)

    def __init__(self, source, link):
        self.root = os.path.realpath(source)
        self.link = link
        self.listings = {}     # an open directory's handle: its names
        self.handles = itertools.count(1)
        self.known = {}        # "/a/b": Known, of SOURCE as it is now
        skip = len(self.root) if self.root != "/" else 0
        for top, dirs, files in os.walk(self.root):
            for name in dirs + files:
                path = os.path.join(top, name)
                try:
                    self.known[path[skip:]] = Known(self.attrs(os.lstat(path)))
                except OSError:
                    pass       # gone: looked up by a round trip

    def __call__(self, op, *args):
        """Every request comes here: answer it, then wait out its cost."""
        keep_thread_state()
        if op in FREE or (args and args[0] == CONTROL):
            return super().__call__(op, *args)
        if op == "getattr" and (len(args) < 2 or args[1] is None):
            return self.lookup(args[0])
        if op == "readdir":
            d = self.link.dir(args[0])
            with self.link.entered(d):
                handed = self.timed(op, args)
                self.remember(args[0], handed)
                return handed
        return self.timed(op, args)

    def lookup(self, path):
        """A lookup by name (or a stat): answered from what a listing or a
        lookup brought, if kept, else with a round trip; either in its
        directory, one at a time there in serial mode."""
        link = self.link
        d = link.dir(os.path.dirname(path)) if path != "/" else None
        with link.entered(d):
            if d is not None:
                with link.lock:
                    d.lookups += 1
                    link.max_dir_lookups = max(link.max_dir_lookups, d.lookups)
            try:
                attrs = self.recall(path)
                if attrs is None:
                    attrs = self.timed("getattr", (path,))
                    k = self.known.get(path)
                    if link.cache > 0 and k is not None:
                        k.looked = time.monotonic()
                return attrs
            finally:
                if d is not None:
                    with link.lock:
                        d.lookups -= 1

    def recall(self, path):
        """What a listing or a lookup brought within cache_s, counted, or
        None."""
        link, k = self.link, self.known.get(path)
        if not link.cache > 0 or k is None:
            return None
        now = time.monotonic()
        if k.listed is not None and now - k.listed < link.cache:
            with link.lock:
                link.listed += 1
        elif k.looked is not None and now - k.looked < link.cache:
            with link.lock:
                link.cached += 1
        else:
            return None
        return k.attrs

    def remember(self, path, names):
        """The names a reply of path's listing handed out: listed now."""
        now = time.monotonic()
        top = "" if path == "/" else path
        for name in names:
            k = self.known.get(top + "/" + name)
            if k is not None:
                k.listed = now

    def timed(self, op, args):
        """Answer a request, then wait out its cost."""
        kind = op
        if op == "getattr":    # by name (a lookup, stat) or by handle (fstat)
            kind = "getattr" if len(args) < 2 or args[1] is None else "fgetattr"
        start = time.monotonic()
        self.link.begin(kind)
        nbytes = 0
        try:
            result = super().__call__(op, *args)
            if op == "read":
                nbytes = len(result)
            return result
        finally:
            late = self.link.wait_until(start + self.link.rtt + nbytes / self.link.rate)
            self.link.end(kind, nbytes, late)

    def _real(self, path):
        return self.root + path

    def getattr(self, path, fh=None):
        if path == CONTROL:
            # Size 0: with direct_io the kernel asks us anyway.
            return dict(st_mode=stat.S_IFREG | 0o644, st_nlink=1, st_size=0,
                        st_uid=os.getuid(), st_gid=os.getgid())
        try:
            st = os.lstat(self._real(path)) if fh is None else os.fstat(fh)
        except OSError as e:
            raise FuseOSError(e.errno)
        return self.attrs(st)

    @staticmethod
    def attrs(st):
        """The attributes that getattr returns, of an os.stat_result."""
        d = {k: getattr(st, k) for k in (
            "st_mode", "st_nlink", "st_size", "st_blocks", "st_rdev",
            "st_uid", "st_gid", "st_atime_ns", "st_mtime_ns", "st_ctime_ns")}
        for k in ("atime", "mtime", "ctime"):
            d["st_" + k] = d.pop("st_%s_ns" % k)
        return d

    def access(self, path, amode):
        if path == CONTROL:
            return 0
        if amode & os.W_OK:
            raise FuseOSError(errno.EROFS)
        if not os.access(self._real(path), amode):
            raise FuseOSError(errno.EACCES)
        return 0

    def readlink(self, path):
        try:
            return os.readlink(self._real(path))
        except OSError as e:
            raise FuseOSError(e.errno)

    def opendir(self, path):
        """The entries are read here, handed out by readdir."""
        if not os.path.isdir(self._real(path)):
            raise FuseOSError(errno.ENOTDIR)
        try:
            names = os.listdir(self._real(path))
        except OSError as e:
            raise FuseOSError(e.errno)
        fh = next(self.handles)
        self.listings[fh] = names
        return fh

    def readdir(self, path, fh, offset, put):
        """Hand out the entries from the offset'th ("." and ".." first),
        each with the offset of the next, until put says the reply is full,
        as a server hands a long listing out a reply at a time: the names
        handed out, but "." and ".."."""
        names = self.listings[fh]
        i = max(offset, 0)
        while i < len(names) + 2:
            if not put("." if i == 0 else ".." if i == 1 else names[i - 2], i + 1):
                break
            i += 1
        return names[max(offset, 2) - 2:max(i, 2) - 2]

    def statfs(self, path):
        st = os.statvfs(self._real(path))
        return {k: getattr(st, k) for k in (
            "f_bsize", "f_frsize", "f_blocks", "f_bfree", "f_bavail",
            "f_files", "f_ffree", "f_favail", "f_flag", "f_namemax")}

    def open(self, path, flags):
        if path == CONTROL:
            return CONTROL_FH
        if (flags & os.O_ACCMODE) != os.O_RDONLY:
            raise FuseOSError(errno.EROFS)
        try:
            return os.open(self._real(path), os.O_RDONLY | os.O_NOFOLLOW)
        except OSError as e:
            raise FuseOSError(e.errno)

    def read(self, path, size, offset, fh):
        if fh == CONTROL_FH:
            return self.link.report().encode()[offset:offset + size]
        try:
            return os.pread(fh, size, offset)
        except OSError as e:
            raise FuseOSError(e.errno)

    def flush(self, path, fh):
        return 0

    def release(self, path, fh):
        if fh != CONTROL_FH:
            os.close(fh)
        return 0

    def truncate(self, path, length, fh=None):
        if path == CONTROL:
            return 0           # so that "echo ... > .netmodel" works
        raise FuseOSError(errno.EROFS)

    def write(self, path, data, offset, fh):
        if fh != CONTROL_FH:
            raise FuseOSError(errno.EROFS)
        try:
            for word in data.decode().split():
                if word == "reset":
                    with self.link.lock:
                        self.link.reset()
                    continue
                key, value = word.split("=", 1)
                if key not in ("rtt_ms", "mbps", "lookups", "cache_s"):
                    raise ValueError(key)
                with self.link.lock:
                    self.link.set(**{key: value})
        except ValueError:
            raise FuseOSError(errno.EINVAL)
        return len(data)

    def releasedir(self, path, fh):
        self.listings.pop(fh, None)
        return 0

    def utimens(self, path, times=None):
        raise FuseOSError(errno.EROFS)

    def getxattr(self, path, name, position=0):
        raise FuseOSError(errno.ENODATA)

    def listxattr(self, path):
        return []


class NetFUSE(FUSE):
    """fusepy's FUSE, but that readdir passes the operation the offset the
    kernel asks from and a way to hand out an entry, which fusepy's does
    not: a listing handed out a reply at a time."""

    def readdir(self, path, buf, filler, offset, fip):
        def put(name, next_offset):
            return filler(buf, name.encode(self.encoding), None, next_offset) == 0
        self.operations("readdir", self._decode_optional_path(path), fip.contents.fh,
                        offset, put)
        return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("source")
    p.add_argument("mountpoint")
    p.add_argument("--rtt-ms", type=float, default=0.5,
                   help="round trip of every request, in ms (0.5)")
    p.add_argument("--mbps", type=float, default=1000.0,
                   help="transfer rate of each read, 10^6 bytes/s (1000)")
    p.add_argument("--lookups", choices=("parallel", "serial"), default="parallel",
                   help="parallel, or serial: one at a time in a directory (parallel)")
    p.add_argument("--cache-s", type=float, default=None,
                   help="how long what a listing or lookup brought answers lookups,"
                   " in s (0 parallel, 20 serial)")
    p.add_argument("--allow-other", action="store_true",
                   help="let other users than the one who mounts see the mount")
    a = p.parse_args()
    if not os.path.isdir(a.source):
        p.error("%s is not a directory" % a.source)
    if a.cache_s is None:      # sshfs keeps what it learnt 20 s (cache_timeout)
        a.cache_s = 20.0 if a.lookups == "serial" else 0.0
    if a.rtt_ms < 0 or a.mbps <= 0 or not 0 <= a.cache_s < float("inf"):
        p.error("--rtt-ms and --cache-s must be 0 or more and --mbps more than 0")
    link = Link(a.rtt_ms, a.mbps, a.lookups, a.cache_s)
    ops = NetModel(a.source, link)
    try:
        NetFUSE(ops, a.mountpoint, foreground=True, nothreads=False,
             direct_io=True, attr_timeout=0, entry_timeout=0,
             negative_timeout=0, allow_other=a.allow_other,
             fsname="netmodel", subtype="netmodel")
    finally:
        sys.stderr.write("netmodel: " + link.report().replace("\n", "; ").rstrip("; ")
                         + "\n")


if __name__ == "__main__":
    main()
