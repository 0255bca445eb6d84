/* decide_listing_test.c - how much of a directory is read ahead of its
 * lookups (decide_listing.c), from a table of the facts and the act each
 * gives; and which file systems count as served over a network.  TAP. */
#include <stdio.h>

#include "run/decide.h"
#include "tap.h"

enum { LEAST = LIST_NAMES_LEAST, A_NAME = LIST_ENTRIES_A_NAME };

enum { BYTES = LIST_DIR_BYTES_AN_ENTRY };

static const struct row {
	bool networked;
	uint64_t names, entries, size;
	enum list_act act;
	const char *what;
} rows[] = {
	{ false, 0, 0, 0, LIST_NEVER, "local storage, nothing named yet: never" },
	{ false, 1000, 0, 0, LIST_NEVER, "local storage, many names: never" },
	{ false, 1000, 5, 0, LIST_NEVER, "local storage, entries read somehow: never" },
	{ true, 0, 0, 0, LIST_WAIT, "networked, no name: wait" },
	{ true, 1, 0, 0, LIST_WAIT, "networked, one name: wait (its lookup is done)" },
	{ true, LEAST - 1, 0, 0, LIST_WAIT, "networked, one name short of the least: wait" },
	{ true, LEAST, 0, 0, LIST_READ, "networked, the least names: read" },
	{ true, LEAST, LEAST * A_NAME - 1, 0, LIST_READ, "the least names, an entry short of their due: read on" },
	{ true, LEAST, LEAST * A_NAME, 0, LIST_WAIT, "the least names, their entries read: wait for more names" },
	{ true, LEAST + 1, LEAST * A_NAME, 0, LIST_READ, "a name more: read on" },
	{ true, 10, 100000, 0, LIST_WAIT, "10 names, 100,000 entries read: wait" },
	{ true, 10, 10 * A_NAME, 0, LIST_WAIT, "10 names of a directory of many: no more than their due" },
	{ true, 10, 10 * A_NAME - 1, 0, LIST_READ, "10 names, an entry short of their due: read on" },
	{ true, 2000, 1500, 0, LIST_READ, "2,000 names, 1,500 entries: read on" },
	{ true, UINT64_MAX / A_NAME, 0, 0, LIST_READ, "very many names: read" },
	{ true, 10, 0, 100000 * 20, LIST_WAIT, "10 names, a directory of 100,000 (tmpfs's size): not read" },
	{ true, 10, 0, 10 * A_NAME * BYTES, LIST_READ, "10 names, a directory of their due by its size: read" },
	{ true, 10, 0, 10 * A_NAME * BYTES + BYTES, LIST_WAIT, "10 names, an entry more than their due by its size: wait" },
	{ true, 800, 0, 100000 * 20, LIST_READ, "800 names of 100,000 entries (tmpfs's size): read" },
	{ true, 2000, 0, 4096, LIST_READ, "2,000 names, a size that says little: read" },
	{ true, 3, 0, 64, LIST_WAIT, "3 names of a small directory: wait" },
	{ false, 2000, 0, 4096, LIST_NEVER, "local, by its size worth it: never" },
	{ true, 10, 10 * A_NAME, 4096, LIST_WAIT, "10 names, their due read, a small size: wait" },
};

static void test_acts(void)
{
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct row *r = &rows[i];
		struct list_facts f = { .networked = r->networked, .names = r->names,
					.entries = r->entries, .size = r->size };
		enum list_act a = decide_listing(&f);

		ok(a == r->act, "listing: %s (got %d)", r->what, (int)a);
	}
}

static const struct fs {
	uint64_t type;
	bool networked;
	const char *name;
} types[] = {
	{ 0x6969, true, "NFS" },
	{ 0xff534d42, true, "CIFS" },
	{ 0xfe534d42, true, "SMB2" },
	{ 0x517b, true, "SMB" },
	{ 0x65735546, true, "FUSE (sshfs)" },
	{ 0x01021997, true, "9p" },
	{ 0x00c36400, true, "Ceph" },
	{ 0xef53, false, "ext2/3/4" },
	{ 0x58465342, false, "XFS" },
	{ 0x9123683e, false, "Btrfs" },
	{ 0x01021994, false, "tmpfs" },
	{ 0x794c7630, false, "overlayfs" },
	{ 0x2fc12fc1, false, "ZFS" },
	{ 0, false, "none" },
};

static const struct named {
	const char *name;
	bool networked;
} names[] = {
	{ "nfs", true }, { "nfs4", true }, { "cifs", true }, { "smb3", true },
	{ "9p", true }, { "ceph", true }, { "fuse", true }, { "fuse.sshfs", true },
	{ "fuse.netmodel", true }, { "fuse.rclone", true }, { "lustre", true },
	{ "ext4", false }, { "xfs", false }, { "btrfs", false }, { "tmpfs", false },
	{ "overlay", false }, { "zfs", false }, { "fuseblk", false }, { "nfsd", false },
	{ "proc", false }, { "", false }, { "fuse.", true },
};

static void test_types(void)
{
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		ok(fs_type_networked(types[i].type) == types[i].networked, "file system %s: %s",
		   types[i].name, types[i].networked ? "networked" : "local");
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		ok(fs_name_networked(names[i].name) == names[i].networked,
		   "file system named '%s' in mountinfo: %s", names[i].name,
		   names[i].networked ? "networked" : "local");
}

int main(void)
{
	test_acts();
	test_types();
	return tap_done();
}
