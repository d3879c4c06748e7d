/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: RoCE v2 mode. A requester on one port sends a stream of messages (UD SEND,
 * RC SEND, RC RDMA WRITE or RC RDMA READ) of a given size to a responder on its peer port,
 * keeping up to a queue depth of them outstanding, through the project's RoCE transport
 * (drivers/net/gaudi/roce/roce_verbs.h). Both ends run on one forwarding lcore, as the
 * transport's objects are single-threaded.
 */
#ifndef GTP_ROCE_MODE_H
#define GTP_ROCE_MODE_H

#include <atomic>
#include <cstdint>
#include <string>

struct rte_mempool;

namespace gtp {

enum class RoceOp { ud_send, rc_send, rc_write, rc_read };
const char *roce_op_name(RoceOp op);

struct RoceJob {
	/* Set up before the lcore starts. */
	uint16_t req_port = 0, resp_port = 1;
	rte_mempool *tx_pool = nullptr;
	RoceOp op = RoceOp::rc_write;
	uint32_t msg = 4096;
	uint32_t depth = 64;
	uint32_t mtu = 1024;
	uint64_t limit = 0;			     /* messages; 0 = no limit */
	const std::atomic<bool> *gen_stop = nullptr; /* stop posting, let the rest complete */
	const std::atomic<bool> *stop = nullptr;     /* return */
	/* Results (written by the lcore). */
	std::atomic<uint64_t> completed{0}; /* requester completions, successful */
	std::atomic<uint64_t> received{0};  /* responder receive completions (SEND) */
	std::atomic<uint64_t> errors{0};    /* completions with an error status */
	std::atomic<bool> done{false};	    /* limit reached or stopped, nothing outstanding */
	uint64_t retransmits = 0;
	bool data_ok = true; /* the responder's/requester's buffer as expected */
	std::string error;   /* set-up failure */
};

/* rte_eal_remote_launch function; arg: RoceJob. */
int roce_lcore(void *arg);

} /* namespace gtp */

#endif /* GTP_ROCE_MODE_H */
