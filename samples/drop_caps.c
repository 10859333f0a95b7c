// drop_caps [-u UID] [-k] CAP[,CAP...] COMMAND [ARG...]
//
// Runs COMMAND without the named capabilities: each is dropped from the bounding,
// effective, permitted, inheritable and ambient sets, so neither this process nor anything
// it execs can get it back. With -k the list names the capabilities to KEEP and every other
// one is dropped ("" keeps none). With -u, the command runs as user and group UID (no
// supplementary groups), keeping the remaining capabilities across the exec through the
// ambient set, as `setpriv --reuid --inh-caps --ambient-caps` does. The VM guests have no
// setpriv or capsh; this is what their capability tests use.
//
// Names as capabilities(7) spells them, with or without "cap_", any case: cap_bpf, PERFMON.
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

// Indexed by number, as include/uapi/linux/capability.h numbers them.
static const char* const kNames[] = {
    "chown", "dac_override", "dac_read_search", "fowner", "fsetid", "kill", "setgid", "setuid",
    "setpcap", "linux_immutable", "net_bind_service", "net_broadcast", "net_admin", "net_raw",
    "ipc_lock", "ipc_owner", "sys_module", "sys_rawio", "sys_chroot", "sys_ptrace", "sys_pacct",
    "sys_admin", "sys_boot", "sys_nice", "sys_resource", "sys_time", "sys_tty_config", "mknod",
    "lease", "audit_write", "audit_control", "setfcap", "mac_override", "mac_admin", "syslog",
    "wake_alarm", "block_suspend", "audit_read", "perfmon", "bpf", "checkpoint_restore",
};
enum { kKnown = sizeof kNames / sizeof kNames[0] };

static int die(const char* what) {
  fprintf(stderr, "drop_caps: %s: %s\n", what, strerror(errno));
  return 126;
}

// The highest capability this kernel knows (a 5.4 kernel stops before perfmon).
static int last_cap(void) {
  FILE* f = fopen("/proc/sys/kernel/cap_last_cap", "r");
  int last = kKnown - 1;
  if (f) {
    if (fscanf(f, "%d", &last) != 1) last = kKnown - 1;
    fclose(f);
  }
  return last;
}

// The bit of one name from the list, or -1.
static int cap_number(const char* name, size_t len) {
  if (len > 4 && strncasecmp(name, "cap_", 4) == 0) name += 4, len -= 4;
  for (int i = 0; i < kKnown; ++i)
    if (strlen(kNames[i]) == len && strncasecmp(kNames[i], name, len) == 0) return i;
  return -1;
}

int main(int argc, char** argv) {
  int keep_listed = 0;
  long uid = -1;
  int opt;
  while ((opt = getopt(argc, argv, "+ku:")) != -1) {
    if (opt == 'k') keep_listed = 1;
    else if (opt == 'u') uid = strtol(optarg, NULL, 10);
    else return 2;
  }
  if (argc - optind < 2) {
    fprintf(stderr, "usage: drop_caps [-u UID] [-k] CAP[,CAP...] COMMAND [ARG...]\n");
    return 2;
  }
  uint64_t listed = 0;
  for (const char* at = argv[optind]; *at;) {
    size_t len = strcspn(at, ",");
    int bit = cap_number(at, len);
    if (len && bit < 0) {
      fprintf(stderr, "drop_caps: unknown capability '%.*s'\n", (int)len, at);
      return 2;
    }
    if (len) listed |= 1ull << bit;
    at += len + (at[len] == ',');
  }
  int last = last_cap();
  uint64_t all = last >= 63 ? ~0ull : (1ull << (last + 1)) - 1;
  uint64_t keep = (keep_listed ? listed : ~listed) & all;

  // The bounding set first: dropping from it needs CAP_SETPCAP, which may be among the dropped.
  for (int cap = 0; cap <= last; ++cap)
    if (!(keep & (1ull << cap)) && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0) return die("PR_CAPBSET_DROP");
  if (uid >= 0) {
    // Permitted survives setuid with KEEPCAPS; effective is cleared and set again below.
    if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) != 0) return die("PR_SET_KEEPCAPS");
    if (setgroups(0, NULL) != 0) return die("setgroups");
    if (setgid((gid_t)uid) != 0) return die("setgid");
    if (setuid((uid_t)uid) != 0) return die("setuid");
  }
  struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct data[2];
  if (syscall(SYS_capget, &header, data) != 0) return die("capget");
  uint64_t permitted = data[0].permitted | (uint64_t)data[1].permitted << 32;
  keep &= permitted;
  for (int i = 0; i < 2; ++i) {
    uint32_t half = (uint32_t)(keep >> (32 * i));
    data[i].effective = data[i].permitted = data[i].inheritable = half;
  }
  if (syscall(SYS_capset, &header, data) != 0) return die("capset");
  // Ambient: only what is kept, so a non-root exec keeps exactly that (and root's exec gets
  // no more than the bounding set allows anyway).
  if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0) return die("PR_CAP_AMBIENT_CLEAR_ALL");
  for (int cap = 0; cap <= last; ++cap)
    if ((keep & (1ull << cap)) && prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0) != 0)
      return die("PR_CAP_AMBIENT_RAISE");
  execvp(argv[optind + 1], argv + optind + 1);
  return die(argv[optind + 1]);
}
