#include <stdio.h>

struct point {
    int x;
    int y;
};

typedef struct {
    int w;
} size;

static int add(int a, int b)
{
    return a + b;
}

int (*lookup(const char *name))(int) {
    return NULL;
}

int (*handler)(int);

int main(void) {
    printf("%d\n", add(1, 2));
    return 0;
}
