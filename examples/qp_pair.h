/* SPDX-License-Identifier: BSD-3-Clause
 * Two QPs of one process connected to each other, each on its own port's Context (the ports
 * cabled to each other): what roce_bench and gaudi-testpmd's RoCE mode (app/gaudi-testpmd/
 * roce_mode.cpp) both need, built once as the small qp_pair library they link. Not a verb of the
 * RoCE layer: ibverbs has no such call (an application learns its peer's QPN and address over
 * its own channel, as the other examples do through SideChannel or the RDMA CM).
 */
#pragma once

#include "roce_verbs.h"

namespace gaudi::examples {

/* The qkey both UD ends use. */
inline constexpr uint32_t kPairQkey = 0x11111111;

/* QPs a (on Context actx) and b (on bctx), of one type, taken through RESET -> INIT -> RTR -> RTS
 * (IBA 11.4) with the other's MAC, GID and QPN at path MTU mtu: RC and UC allow remote WRITE and
 * READ with 16 READs/atomics in flight each way, UD uses kPairQkey. false when a transition is
 * refused. The port bounds the path MTU: the QPs may run at a smaller one (attr().path_mtu). */
bool connect_qp_pair(roce::Context &actx, roce::QueuePair &a, roce::Context &bctx,
		     roce::QueuePair &b, ibv_mtu mtu);

} /* namespace gaudi::examples */
