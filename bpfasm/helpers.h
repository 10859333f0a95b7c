// The BPF helper functions: id and name of every helper in the uapi <linux/bpf.h>
// (___BPF_FUNC_MAPPER). The list stops at 211 because mainline froze it there
// (Linux 6.2 added cgrp_storage_get/delete; newer interfaces are kfuncs).
// tests/unit/bpfasm_helpers_test.cpp checks it against this machine's header.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace rawprobe::bpf {

// X(name, id): one line per helper, names without the "bpf_" prefix as in the uapi header.
#define RAWPROBE_BPF_HELPERS(X) \
  X(unspec, 0) \
  X(map_lookup_elem, 1) \
  X(map_update_elem, 2) \
  X(map_delete_elem, 3) \
  X(probe_read, 4) \
  X(ktime_get_ns, 5) \
  X(trace_printk, 6) \
  X(get_prandom_u32, 7) \
  X(get_smp_processor_id, 8) \
  X(skb_store_bytes, 9) \
  X(l3_csum_replace, 10) \
  X(l4_csum_replace, 11) \
  X(tail_call, 12) \
  X(clone_redirect, 13) \
  X(get_current_pid_tgid, 14) \
  X(get_current_uid_gid, 15) \
  X(get_current_comm, 16) \
  X(get_cgroup_classid, 17) \
  X(skb_vlan_push, 18) \
  X(skb_vlan_pop, 19) \
  X(skb_get_tunnel_key, 20) \
  X(skb_set_tunnel_key, 21) \
  X(perf_event_read, 22) \
  X(redirect, 23) \
  X(get_route_realm, 24) \
  X(perf_event_output, 25) \
  X(skb_load_bytes, 26) \
  X(get_stackid, 27) \
  X(csum_diff, 28) \
  X(skb_get_tunnel_opt, 29) \
  X(skb_set_tunnel_opt, 30) \
  X(skb_change_proto, 31) \
  X(skb_change_type, 32) \
  X(skb_under_cgroup, 33) \
  X(get_hash_recalc, 34) \
  X(get_current_task, 35) \
  X(probe_write_user, 36) \
  X(current_task_under_cgroup, 37) \
  X(skb_change_tail, 38) \
  X(skb_pull_data, 39) \
  X(csum_update, 40) \
  X(set_hash_invalid, 41) \
  X(get_numa_node_id, 42) \
  X(skb_change_head, 43) \
  X(xdp_adjust_head, 44) \
  X(probe_read_str, 45) \
  X(get_socket_cookie, 46) \
  X(get_socket_uid, 47) \
  X(set_hash, 48) \
  X(setsockopt, 49) \
  X(skb_adjust_room, 50) \
  X(redirect_map, 51) \
  X(sk_redirect_map, 52) \
  X(sock_map_update, 53) \
  X(xdp_adjust_meta, 54) \
  X(perf_event_read_value, 55) \
  X(perf_prog_read_value, 56) \
  X(getsockopt, 57) \
  X(override_return, 58) \
  X(sock_ops_cb_flags_set, 59) \
  X(msg_redirect_map, 60) \
  X(msg_apply_bytes, 61) \
  X(msg_cork_bytes, 62) \
  X(msg_pull_data, 63) \
  X(bind, 64) \
  X(xdp_adjust_tail, 65) \
  X(skb_get_xfrm_state, 66) \
  X(get_stack, 67) \
  X(skb_load_bytes_relative, 68) \
  X(fib_lookup, 69) \
  X(sock_hash_update, 70) \
  X(msg_redirect_hash, 71) \
  X(sk_redirect_hash, 72) \
  X(lwt_push_encap, 73) \
  X(lwt_seg6_store_bytes, 74) \
  X(lwt_seg6_adjust_srh, 75) \
  X(lwt_seg6_action, 76) \
  X(rc_repeat, 77) \
  X(rc_keydown, 78) \
  X(skb_cgroup_id, 79) \
  X(get_current_cgroup_id, 80) \
  X(get_local_storage, 81) \
  X(sk_select_reuseport, 82) \
  X(skb_ancestor_cgroup_id, 83) \
  X(sk_lookup_tcp, 84) \
  X(sk_lookup_udp, 85) \
  X(sk_release, 86) \
  X(map_push_elem, 87) \
  X(map_pop_elem, 88) \
  X(map_peek_elem, 89) \
  X(msg_push_data, 90) \
  X(msg_pop_data, 91) \
  X(rc_pointer_rel, 92) \
  X(spin_lock, 93) \
  X(spin_unlock, 94) \
  X(sk_fullsock, 95) \
  X(tcp_sock, 96) \
  X(skb_ecn_set_ce, 97) \
  X(get_listener_sock, 98) \
  X(skc_lookup_tcp, 99) \
  X(tcp_check_syncookie, 100) \
  X(sysctl_get_name, 101) \
  X(sysctl_get_current_value, 102) \
  X(sysctl_get_new_value, 103) \
  X(sysctl_set_new_value, 104) \
  X(strtol, 105) \
  X(strtoul, 106) \
  X(sk_storage_get, 107) \
  X(sk_storage_delete, 108) \
  X(send_signal, 109) \
  X(tcp_gen_syncookie, 110) \
  X(skb_output, 111) \
  X(probe_read_user, 112) \
  X(probe_read_kernel, 113) \
  X(probe_read_user_str, 114) \
  X(probe_read_kernel_str, 115) \
  X(tcp_send_ack, 116) \
  X(send_signal_thread, 117) \
  X(jiffies64, 118) \
  X(read_branch_records, 119) \
  X(get_ns_current_pid_tgid, 120) \
  X(xdp_output, 121) \
  X(get_netns_cookie, 122) \
  X(get_current_ancestor_cgroup_id, 123) \
  X(sk_assign, 124) \
  X(ktime_get_boot_ns, 125) \
  X(seq_printf, 126) \
  X(seq_write, 127) \
  X(sk_cgroup_id, 128) \
  X(sk_ancestor_cgroup_id, 129) \
  X(ringbuf_output, 130) \
  X(ringbuf_reserve, 131) \
  X(ringbuf_submit, 132) \
  X(ringbuf_discard, 133) \
  X(ringbuf_query, 134) \
  X(csum_level, 135) \
  X(skc_to_tcp6_sock, 136) \
  X(skc_to_tcp_sock, 137) \
  X(skc_to_tcp_timewait_sock, 138) \
  X(skc_to_tcp_request_sock, 139) \
  X(skc_to_udp6_sock, 140) \
  X(get_task_stack, 141) \
  X(load_hdr_opt, 142) \
  X(store_hdr_opt, 143) \
  X(reserve_hdr_opt, 144) \
  X(inode_storage_get, 145) \
  X(inode_storage_delete, 146) \
  X(d_path, 147) \
  X(copy_from_user, 148) \
  X(snprintf_btf, 149) \
  X(seq_printf_btf, 150) \
  X(skb_cgroup_classid, 151) \
  X(redirect_neigh, 152) \
  X(per_cpu_ptr, 153) \
  X(this_cpu_ptr, 154) \
  X(redirect_peer, 155) \
  X(task_storage_get, 156) \
  X(task_storage_delete, 157) \
  X(get_current_task_btf, 158) \
  X(bprm_opts_set, 159) \
  X(ktime_get_coarse_ns, 160) \
  X(ima_inode_hash, 161) \
  X(sock_from_file, 162) \
  X(check_mtu, 163) \
  X(for_each_map_elem, 164) \
  X(snprintf, 165) \
  X(sys_bpf, 166) \
  X(btf_find_by_name_kind, 167) \
  X(sys_close, 168) \
  X(timer_init, 169) \
  X(timer_set_callback, 170) \
  X(timer_start, 171) \
  X(timer_cancel, 172) \
  X(get_func_ip, 173) \
  X(get_attach_cookie, 174) \
  X(task_pt_regs, 175) \
  X(get_branch_snapshot, 176) \
  X(trace_vprintk, 177) \
  X(skc_to_unix_sock, 178) \
  X(kallsyms_lookup_name, 179) \
  X(find_vma, 180) \
  X(loop, 181) \
  X(strncmp, 182) \
  X(get_func_arg, 183) \
  X(get_func_ret, 184) \
  X(get_func_arg_cnt, 185) \
  X(get_retval, 186) \
  X(set_retval, 187) \
  X(xdp_get_buff_len, 188) \
  X(xdp_load_bytes, 189) \
  X(xdp_store_bytes, 190) \
  X(copy_from_user_task, 191) \
  X(skb_set_tstamp, 192) \
  X(ima_file_hash, 193) \
  X(kptr_xchg, 194) \
  X(map_lookup_percpu_elem, 195) \
  X(skc_to_mptcp_sock, 196) \
  X(dynptr_from_mem, 197) \
  X(ringbuf_reserve_dynptr, 198) \
  X(ringbuf_submit_dynptr, 199) \
  X(ringbuf_discard_dynptr, 200) \
  X(dynptr_read, 201) \
  X(dynptr_write, 202) \
  X(dynptr_data, 203) \
  X(tcp_raw_gen_syncookie_ipv4, 204) \
  X(tcp_raw_gen_syncookie_ipv6, 205) \
  X(tcp_raw_check_syncookie_ipv4, 206) \
  X(tcp_raw_check_syncookie_ipv6, 207) \
  X(ktime_get_tai_ns, 208) \
  X(user_ringbuf_drain, 209) \
  X(cgrp_storage_get, 210) \
  X(cgrp_storage_delete, 211)

enum class Helper : int32_t {
#define RAWPROBE_BPF_HELPER_ENUM(name, id) name = id,
  RAWPROBE_BPF_HELPERS(RAWPROBE_BPF_HELPER_ENUM)
#undef RAWPROBE_BPF_HELPER_ENUM
};

// Number of helper ids (highest id + 1).
int32_t helper_count();
// "bpf_map_lookup_elem" for 1; empty when the id is unknown.
std::string_view helper_name(int32_t id);
// Id of "bpf_map_lookup_elem" or "map_lookup_elem"; nullopt when unknown.
std::optional<int32_t> helper_id(std::string_view name);

}  // namespace rawprobe::bpf
