/* The seed's hello world (EXAMPLES.md section 2), built with plain `gcc hello.c -o hello`:
 * `rawprobe -l 'uprobe:.../hello*'` lists its _start, main, frame_dummy, ... */
#include <stdio.h>

int main() { printf("hello, world\n"); }
