/* A block comment
   over three lines */
#include <stdio.h>

int main(void) { /* trailing block */
	const char *url = "http://example.com/*not a comment*/";
		   
	printf("%s\n", url); // line comment
	/* one-line block */
	int x = 1; /* opens
	still a comment
	closes */ int y = 2;
	return x + y;
}
