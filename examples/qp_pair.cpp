/* SPDX-License-Identifier: BSD-3-Clause */
#include "qp_pair.h"

namespace gaudi::examples {

bool connect_qp_pair(roce::Context &actx, roce::QueuePair &a, roce::Context &bctx,
		     roce::QueuePair &b, ibv_mtu mtu)
{
	for (int i = 0; i < 2; i++) {
		roce::QueuePair &x = i ? b : a;
		roce::Context &yctx = i ? actx : bctx;
		roce::QueuePair &y = i ? a : b;
		const bool ud = x.type() == IBV_QPT_UD;
		roce::QpAttr at;
		at.qp_state = IBV_QPS_INIT;
		at.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
		at.qkey = kPairQkey;
		if (x.modify(at, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
					 (ud ? IBV_QP_QKEY : IBV_QP_ACCESS_FLAGS)))
			return false;
		at.qp_state = IBV_QPS_RTR;
		at.ah_attr = {yctx.mac(), yctx.gid(), 0, 0, 64};
		at.path_mtu = mtu;
		at.dest_qp_num = y.qp_num();
		at.max_dest_rd_atomic = 16;
		if (x.modify(at, ud ? IBV_QP_STATE
				    : IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
						 IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
						 IBV_QP_MIN_RNR_TIMER))
			return false;
		at.qp_state = IBV_QPS_RTS;
		at.max_rd_atomic = 16;
		if (x.modify(at, ud ? IBV_QP_STATE | IBV_QP_SQ_PSN
				    : IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
						 IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
						 IBV_QP_MAX_QP_RD_ATOMIC))
			return false;
	}
	return true;
}

} /* namespace gaudi::examples */
