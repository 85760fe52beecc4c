// SPDX-License-Identifier: GPL-2.0
/* For the root test tests/absurd_window.rs only: a sock_ops program that gives one TCP
 * connection, the test's, an initial window of 164 452 153 segments (the largest window the
 * controllers' guards met in a bulk transfer, docs/kernel.md "A window of 1.5 billion
 * segments"), through TCP_BPF_IW when it is established as the client. Linux sets it in
 * tcp_init_transfer() before the congestion control's init, so the controller meets the
 * window as it met the windows nobody has traced: one it did not write. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#define SOL_TCP 6
#define TCP_BPF_IW 1001

/* The test's server: 10.77.0.2, port 45613 (tests/absurd_window.rs). */
#define SERVER_IP4 0x0a4d0002u
#define SERVER_PORT 45613

/* [0]: windows set, [1]: refused. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} test_iw_stats SEC(".maps");

SEC("sockops")
int test_absurd_window(struct bpf_sock_ops *skops)
{
	if (skops->op != BPF_SOCK_OPS_ACTIVE_ESTABLISHED_CB || skops->family != 2 /* AF_INET */)
		return 1;
	if (skops->remote_ip4 != bpf_htonl(SERVER_IP4) || skops->remote_port != bpf_htonl(SERVER_PORT))
		return 1;
	int window = 164452153;
	__u32 which = bpf_setsockopt(skops, SOL_TCP, TCP_BPF_IW, &window, sizeof(window)) ? 1 : 0;
	__u64 *n = bpf_map_lookup_elem(&test_iw_stats, &which);
	if (n)
		__sync_fetch_and_add(n, 1);
	return 1;
}

char _license[] SEC("license") = "GPL";
