/* SPDX-License-Identifier: BSD-3-Clause */
// roce_bench: RC RDMA WRITE goodput and UD SEND message rate of the userspace RoCE v2
// transport between the two ports of a net_gaudi_emu `pair`, one thread polling both ends.
//
//   roce_bench [EAL args, e.g. --no-huge -m 1024 --vdev net_gaudi_emu0,ports=2,wire=pair,engine=inline]
//              -- [--seconds S] [--mtu 256..4096]
// Prints one line per size (64 B .. 64 KiB). Not a test: numbers depend on the machine.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "roce_verbs.h"

using namespace gaudi::roce;

namespace {

struct Side {
    std::unique_ptr<Context> ctx;
    std::unique_ptr<ProtectionDomain> pd;
    std::unique_ptr<CompletionQueue> cq;
    std::unique_ptr<QueuePair> qp;
    std::vector<uint8_t> buf;
    std::unique_ptr<MemoryRegion> mr;
    ~Side()
    {
        mr.reset();
        qp.reset();
        cq.reset();
        pd.reset();
    }
};

void make_side(Side &s, uint16_t port, rte_mempool *mp, uint8_t ip, ibv_qp_type t, size_t buflen)
{
    ContextConfig c;
    c.port_id = port;
    c.tx_pool = mp;
    c.gid = Gid::from_ipv4({10, 0, 0, ip});
    c.dcqcn = false;
    s.ctx = Context::create(c);
    s.pd = s.ctx->alloc_pd();
    s.cq = s.ctx->create_cq(8192);
    QpInitAttr a;
    a.qp_type = t;
    a.send_cq = a.recv_cq = s.cq.get();
    a.cap.max_send_wr = 1024;
    a.cap.max_recv_wr = 1024;
    s.qp = s.ctx->create_qp(*s.pd, a);
    s.buf.assign(buflen, 0x5a);
    s.mr = s.ctx->reg_mr(*s.pd, s.buf.data(), s.buf.size(),
                         IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
}

bool connect(Side &a, Side &b, ibv_mtu mtu)
{
    for (int i = 0; i < 2; i++) {
        Side &x = i ? b : a, &y = i ? a : b;
        QpAttr at;
        at.qp_state = IBV_QPS_INIT;
        at.qp_access_flags = IBV_ACCESS_REMOTE_WRITE;
        at.qkey = 0x11111111;
        bool ud = x.qp->type() == IBV_QPT_UD;
        if (x.qp->modify(at, IBV_QP_STATE | IBV_QP_PKEY_INDEX | (ud ? IBV_QP_QKEY : IBV_QP_ACCESS_FLAGS)))
            return false;
        at.qp_state = IBV_QPS_RTR;
        at.ah_attr = {y.ctx->mac(), y.ctx->gid(), 0, 0, 64};
        at.path_mtu = mtu;
        at.dest_qp_num = y.qp->qp_num();
        if (x.qp->modify(at, ud ? IBV_QP_STATE
                                : IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                                      IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
            return false;
        at.qp_state = IBV_QPS_RTS;
        if (x.qp->modify(at, ud ? IBV_QP_STATE | IBV_QP_SQ_PSN
                                : IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
                                      IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC))
            return false;
    }
    return true;
}

double seconds(uint64_t c) { return double(c) / double(rte_get_timer_hz()); }

void bench_write(rte_mempool *mp, uint32_t size, double secs, ibv_mtu mtu)
{
    Side a, b;
    make_side(a, 0, mp, 1, IBV_QPT_RC, size);
    make_side(b, 1, mp, 2, IBV_QPT_RC, size);
    if (!connect(a, b, mtu)) {
        fprintf(stderr, "connect failed\n");
        return;
    }
    Sge s{reinterpret_cast<uintptr_t>(a.buf.data()), size, a.mr->lkey()};
    SendWr w;
    w.sg_list = {&s, 1};
    w.opcode = IBV_WR_RDMA_WRITE;
    w.send_flags = IBV_SEND_SIGNALED;
    w.rdma = {reinterpret_cast<uintptr_t>(b.buf.data()), b.mr->rkey()};
    uint64_t done = 0, t0 = rte_get_timer_cycles(), end = t0 + uint64_t(secs * rte_get_timer_hz());
    WorkCompletion wc[64];
    while (rte_get_timer_cycles() < end) {
        while (a.qp->sq_outstanding() < 256 && a.qp->post_send(w) == 0) {
        }
        a.ctx->poll();
        b.ctx->poll();
        int n = a.cq->poll_cq(wc);
        for (int i = 0; i < n; i++)
            if (wc[i].status != IBV_WC_SUCCESS) {
                fprintf(stderr, "WRITE failed: %d\n", int(wc[i].status));
                return;
            }
        done += n;
    }
    double t = seconds(rte_get_timer_cycles() - t0);
    printf("RC WRITE %6u B: %10.0f msg/s  %7.3f Gbit/s goodput  (retransmits %lu)\n", size, done / t,
           double(done) * size * 8 / t / 1e9, a.ctx->counters().retransmits);
}

void bench_ud(rte_mempool *mp, uint32_t size, double secs)
{
    Side a, b;
    make_side(a, 0, mp, 1, IBV_QPT_UD, size + 40);
    make_side(b, 1, mp, 2, IBV_QPT_UD, size + 40);
    if (!connect(a, b, IBV_MTU_4096))
        return;
    auto ah = a.ctx->create_ah(*a.pd, {b.ctx->mac(), b.ctx->gid(), 0, 0, 64});
    Sge rs{reinterpret_cast<uintptr_t>(b.buf.data()), size + 40, b.mr->lkey()};
    for (int i = 0; i < 1024; i++)
        b.qp->post_recv({1, {&rs, 1}});
    Sge s{reinterpret_cast<uintptr_t>(a.buf.data()), size, a.mr->lkey()};
    SendWr w;
    w.sg_list = {&s, 1};
    w.opcode = IBV_WR_SEND;
    w.ud = {ah.get(), b.qp->qp_num(), 0x11111111};
    uint64_t rcvd = 0, t0 = rte_get_timer_cycles(), end = t0 + uint64_t(secs * rte_get_timer_hz());
    WorkCompletion wc[64];
    while (rte_get_timer_cycles() < end) {
        // Keep the sender at most 256 ahead of the receiver (UD has no flow control).
        while (a.qp->sq_outstanding() < 64 && b.qp->rq_posted() > 300 && a.qp->post_send(w) == 0) {
        }
        a.ctx->poll();
        b.ctx->poll();
        int n = b.cq->poll_cq(wc);
        for (int i = 0; i < n; i++)
            b.qp->post_recv({1, {&rs, 1}});
        rcvd += n;
    }
    double t = seconds(rte_get_timer_cycles() - t0);
    printf("UD SEND  %6u B: %7.3f Mpps  %7.3f Gbit/s  (receiver drops %lu)\n", size, rcvd / t / 1e6,
           double(rcvd) * size * 8 / t / 1e9, b.ctx->counters().rx_no_recv_wqe);
}

} // namespace

int main(int argc, char **argv)
{
    int n = rte_eal_init(argc, argv);
    if (n < 0)
        return 1;
    argc -= n;
    argv += n;
    double secs = 0.5;
    ibv_mtu mtu = IBV_MTU_4096;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--seconds"))
            secs = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--mtu"))
            mtu = ibv_mtu(__builtin_ctz(atoi(argv[i + 1]) >> 7));
    }
    rte_mempool *mp = rte_pktmbuf_pool_create("bench_pool", 16383, 256, 0, 4480 + RTE_PKTMBUF_HEADROOM, rte_socket_id());
    if (mp == nullptr || rte_eth_dev_count_avail() < 2) {
        fprintf(stderr, "need a mempool and two ports (--vdev net_gaudi_emu0,ports=2,wire=pair)\n");
        return 1;
    }
    for (uint16_t p = 0; p < 2; p++) {
        rte_eth_conf conf{};
        conf.rxmode.mtu = 4200;
        if (rte_eth_dev_configure(p, 1, 1, &conf) || rte_eth_rx_queue_setup(p, 0, 2048, 0, nullptr, mp) ||
            rte_eth_tx_queue_setup(p, 0, 2048, 0, nullptr) || rte_eth_dev_start(p)) {
            fprintf(stderr, "port %u setup failed\n", p);
            return 1;
        }
        rte_eth_promiscuous_enable(p);
    }
    printf("path MTU %u, %.2f s per point, one thread polling both ends\n", mtu_bytes(mtu), secs);
    for (uint32_t size = 64; size <= 65536; size *= 4)
        bench_write(mp, size, secs, mtu);
    for (uint32_t size = 64; size <= 4096; size *= 4)
        bench_ud(mp, size, secs);
    for (uint16_t p = 0; p < 2; p++)
        rte_eth_dev_stop(p);
    rte_eal_cleanup();
    return 0;
}
