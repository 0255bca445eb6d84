/* decide_listing.c - how much of a directory is read ahead of its
 * lookups; see decide.h. */
#include <string.h>

#include "run/decide.h"

/* The names of those in /proc/self/mountinfo, whole; and FUSE's, "fuse"
 * or "fuse." and its server's (fuse.sshfs, fuse.rclone). */
static const char *const networked_names[] = {
	"nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "ceph", "afs", "coda", "ncpfs",
	"lustre", "gpfs", "gfs2", "ocfs2", "orangefs", "fuse",
};

bool fs_name_networked(const char *name)
{
	if (strncmp(name, "fuse.", 5) == 0)
		return true;
	for (size_t i = 0; i < sizeof networked_names / sizeof networked_names[0]; i++)
		if (strcmp(networked_names[i], name) == 0)
			return true;
	return false;
}

/* statfs's f_type of the file systems served over a network (linux/magic.h
 * and the file systems' own sources; not all are in every libc's headers). */
static const uint64_t networked_types[] = {
	0x6969,		/* NFS */
	0x517b,		/* SMB */
	0xff534d42,	/* CIFS */
	0xfe534d42,	/* SMB2 */
	0x65735546,	/* FUSE */
	0x01021997,	/* 9p */
	0x00c36400,	/* Ceph */
	0x5346414f,	/* AFS */
	0x6b414653,	/* kAFS */
	0x73757245,	/* Coda */
	0x564c,		/* NCP */
	0x0bd00bd0,	/* Lustre */
	0x47504653,	/* GPFS */
	0x13661366,	/* OrangeFS */
	0x01161970,	/* GFS2 */
	0x7461636f,	/* OCFS2 */
};

bool fs_type_networked(uint64_t f_type)
{
	for (size_t i = 0; i < sizeof networked_types / sizeof networked_types[0]; i++)
		if (networked_types[i] == f_type)
			return true;
	return false;
}

enum list_act decide_listing(const struct list_facts *f)
{
	uint64_t due;

	if (!f->networked)
		return LIST_NEVER;
	due = f->names * LIST_ENTRIES_A_NAME;
	if (f->names < LIST_NAMES_LEAST || f->entries >= due || f->size / LIST_DIR_BYTES_AN_ENTRY > due)
		return LIST_WAIT;
	return LIST_READ;
}
