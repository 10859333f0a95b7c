/* Which build options hide a function from uprobes (README, "The seed's open questions").
 * Built as a shared library, once per option, by the README's own commands:
 *   gcc -O0 -shared -fPIC samples/visibility.c -o /tmp/libvis.so          every function listed
 *   strip -o /tmp/libvis-stripped.so /tmp/libvis.so                       .symtab gone
 *   gcc -O2 -shared -fPIC ...                                             twice inlined, gone
 *   gcc -O2 -fno-semantic-interposition -shared -fPIC ...                 add_one inlined too
 *   gcc -O0 -shared -fPIC -fvisibility=hidden ...                         .dynsym holds vis_entry only
 * Each function stands for one case: */

/* static: a LOCAL symbol, in .symtab only; -O2 inlines it and leaves no body at all. */
static int twice(int x) { return 2 * x; }

/* global: in .symtab and in .dynsym (unless -fvisibility=hidden); -O2 keeps its body, since
 * another object may call it, and calls it through the PLT (it may be interposed) unless
 * -fno-semantic-interposition lets it inline the call. */
int add_one(int x) { return x + 1; }

/* The library's entry point, exported whatever -fvisibility says. */
__attribute__((visibility("default"))) int vis_entry(int x) { return add_one(twice(x)); }
