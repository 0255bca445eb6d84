/* quote_driver.c - print quote_name() of each argument, one per line, for
 * tests/quote_test.sh to compare with GNU md5sum's diagnostics. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>

#include "out/quote.h"

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	for (int i = 1; i < argc; i++) {
		char *q = quote_name(argv[i]);

		if (!q) {
			perror("quote_name");
			return 1;
		}
		puts(q);
		free(q);
	}
	return 0;
}
