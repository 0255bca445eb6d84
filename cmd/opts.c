/* opts.c - the command line read as glibc's getopt_long reads it; see
 * opts.h.  The messages are glibc's, word for word, after argv[0]. */
#include <stdlib.h>
#include <string.h>

#include "out/format.h"
#include "out/lang.h"
#include "out/msg.h"
#include "cmd/opts.h"

void opts_init(struct opts *o, int argc, char **argv, const char *shorts,
	       const struct opt_long *longs, const struct opt_long *added)
{
	*o = (struct opts){
		.argc = argc, .argv = argv, .shorts = shorts, .longs = longs,
		.added = added,
		.posix = getenv("POSIXLY_CORRECT") != NULL, .ind = 1,
	};
}

/* Say glibc's message msgid, in the user's language, of argv[0] and
 * what, after "--" when it is a long option's; return '?'. */
static int fail(const struct opts *o, const char *msgid, const char *what, bool is_long)
{
	struct msg m = { 0 };
	const char *args[] = { o->argv[0], is_long ? "--" : what, what };

	format_put(&m, lang_libc(msgid), args, 3);
	msg_send(&m);
	return '?';
}

/* The next letter of the cluster; its argument is the rest of the cluster,
 * or else the next element, whatever that holds. */
static int short_option(struct opts *o)
{
	char letter[2] = { *o->cluster++, '\0' };
	const char *spec = letter[0] == ':' ? NULL : strchr(o->shorts, letter[0]);

	if (*o->cluster == '\0')
		o->cluster = NULL;
	if (!spec)
		return fail(o, "%s: invalid option -- '%c'\n", letter, false);
	if (spec[1] != ':')
		return letter[0];
	if (o->cluster)
		o->arg = o->cluster;
	else if (o->ind < o->argc)
		o->arg = o->argv[o->ind++];
	else
		return fail(o, "%s: option requires an argument -- '%c'\n", letter, false);
	o->cluster = NULL;
	return letter[0];
}

/* The long option p, given as "--NAME" or "--NAME=ARG": rest is "" or
 * "=ARG".  Messages call it by its full name, whatever prefix was given. */
static int long_argument(struct opts *o, const struct opt_long *p, char *rest)
{
	if (*rest == '=') {
		if (!p->has_arg)
			return fail(o, "%s: option '%s%s' doesn't allow an argument\n", p->name, true);
		o->arg = rest + 1;
	} else if (p->has_arg) {
		if (o->ind == o->argc)
			return fail(o, "%s: option '%s%s' requires an argument\n", p->name, true);
		o->arg = o->argv[o->ind++];
	}
	return p->val;
}

/* Every option of table that the first len bytes of text begin, in table
 * order. */
static int ambiguous(const struct opts *o, const struct opt_long *table,
		     const char *text, size_t len)
{
	struct msg m = { 0 };
	const char *args[] = { o->argv[0], "--", text };

	format_put(&m, lang_libc("%s: option '%s%s' is ambiguous; possibilities:"), args, 3);
	for (const struct opt_long *p = table; p->name; p++) {
		if (strncmp(p->name, text, len) == 0) {
			msg_add(&m, " '--");
			msg_add(&m, p->name);
			msg_add(&m, "'");
		}
	}
	msg_end(&m);
	return '?';
}

/* The option of table that the first len bytes of text name: the one
 * named whole, which wins over the longer names it begins, else the one
 * they begin.  NULL when they begin none; *many when they begin several
 * and name none whole. */
static const struct opt_long *find_long(const struct opt_long *table,
					const char *text, size_t len, bool *many)
{
	const struct opt_long *found = NULL;

	*many = false;
	for (const struct opt_long *p = table; p->name; p++) {
		if (strncmp(p->name, text, len) != 0)
			continue;
		if (p->name[len] == '\0') {
			*many = false;
			return p;
		}
		*many |= found != NULL;
		if (!found)
			found = p;
	}
	return found;
}

/* text is what follows "--".  The added options are looked at only when
 * text begins none of the others, so that they change neither what an
 * abbreviation of those means nor the list of an ambiguous one. */
static int long_option(struct opts *o, char *text)
{
	size_t len = strcspn(text, "=");
	const struct opt_long *table = o->longs;
	bool many;
	const struct opt_long *p = find_long(table, text, len, &many);

	if (!p && o->added) {
		table = o->added;
		p = find_long(table, text, len, &many);
	}
	if (!p)
		return fail(o, "%s: unrecognized option '%s%s'\n", text, true);
	if (many)
		return ambiguous(o, table, text, len);
	return long_argument(o, p, text + len);
}

/* The operands met so far are at argv[1..], in order; the ones left after
 * them.  Move them all to the end of argv, where opts.h says they are. */
static int end(struct opts *o)
{
	while (o->ind < o->argc)
		o->argv[1 + o->operands++] = o->argv[o->ind++];
	o->ind = o->argc - o->operands;
	memmove(o->argv + o->ind, o->argv + 1, (size_t)o->operands * sizeof *o->argv);
	return -1;
}

int opts_next(struct opts *o)
{
	o->arg = NULL;
	if (o->cluster)
		return short_option(o);
	while (o->ind < o->argc) {
		char *a = o->argv[o->ind++];

		if (strcmp(a, "--") == 0)
			break;
		if (a[0] == '-' && a[1] == '-')
			return long_option(o, a + 2);
		if (a[0] == '-' && a[1] != '\0') {
			o->cluster = a + 1;
			return short_option(o);
		}
		/* An operand: to the slots of the elements already read. */
		o->argv[1 + o->operands++] = a;
		if (o->posix)
			break;
	}
	return end(o);
}
