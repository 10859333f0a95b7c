/* A module-like compilation unit for the BTF fuzz seeds (mk/btf.mk): pahole encodes its
   DWARF as split BTF on top of the running kernel's vmlinux BTF, as a module build does. */
struct task_struct;
struct seed_opaque;
struct list_head { struct list_head *next, *prev; };
struct seed_stats {
  int hits;
  struct task_struct *last;
  struct seed_opaque *opaque;
  struct list_head link;
  unsigned int flag : 3, mode : 5;
  char tail[];
};
enum seed_state { SEED_IDLE, SEED_BUSY = 7 };
int seed_func(struct seed_stats *st, enum seed_state s, ...) { return st->hits + s; }
