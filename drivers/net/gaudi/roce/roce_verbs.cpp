/* SPDX-License-Identifier: BSD-3-Clause */
// RoCE v2 transport: see roce_verbs.h for the API contract and the spec references.
//
// Structure: Context::poll() = RX burst -> parse (roce_framing) -> per-QP dispatch
// (requests to the responder half, ACK/READ responses/atomic ACKs to the requester half,
// CNPs to the DCQCN reaction point) -> held (delayed/reordered) packets -> timers ->
// per-QP TX (responder output queue first, then requester packets) -> tx_burst.
// Reliability (RC) is go-back-N as in IBA 9.7: cumulative ACKs, PSN-sequence NAKs,
// local ACK timeout, RNR NAK backoff, responder duplicate detection.
#include "roce_verbs.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <initializer_list>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

namespace gaudi::roce {

namespace {

constexpr uint32_t kQpnBase = 0x000100;
constexpr uint32_t kTxBufLen = 256;
constexpr uint32_t kHeldLen = 1024;
constexpr uint32_t kRespQueueLen = 256;
constexpr size_t kGrhLen = 40;
// Largest header stack we emit: Eth + IPv6 + UDP + BTH + AtomicETH + ICRC + pad.
constexpr uint32_t kMaxHdr = kEthHdrLen + kIpv6HdrLen + kUdpHdrLen + kBthLen + kAtomicEthLen + kIcrcLen + 4;
// AETH syndromes (IBA 9.7.5.2.8 Table 44 / rxe_hdr.h AETH_*).
constexpr uint8_t kSynAck = 0x1F;   // ACK, credit field "invalid" (no credit flow control)
constexpr uint8_t kSynRnrNak = 0x20; // RNR NAK: bits 4:0 = timer code
constexpr uint8_t kSynTypeMask = 0x60;
constexpr uint8_t kNakSeq = 0x60, kNakInvReq = 0x61, kNakRemAccess = 0x62, kNakRemOp = 0x63;
constexpr uint8_t kNakDrop = 0xFF;  // internal: no response, the requester retries

// BTH opcode = transport (bits 7:5) | operation (bits 4:0); RC and UC share the operations.
constexpr uint8_t kOpOperationMask = 0x1F;
constexpr uint8_t operation(Opcode o) { return static_cast<uint8_t>(o) & kOpOperationMask; }
constexpr uint8_t u8(Opcode o) { return static_cast<uint8_t>(o); }
// The UC opcode of an RC operation (same operation, transport 001).
constexpr Opcode uc_opcode(Opcode rc) { return static_cast<Opcode>(u8(Opcode::UC_SEND_FIRST) | operation(rc)); }
constexpr bool is_response(uint8_t op)
{
    return op >= u8(Opcode::RC_RDMA_READ_RESPONSE_FIRST) && op <= u8(Opcode::RC_ATOMIC_ACKNOWLEDGE);
}
constexpr bool is_rnr(uint8_t syndrome) { return (syndrome & kSynTypeMask) == kSynRnrNak; }
constexpr uint8_t kEcnMask = 0x03, kEcnEct0 = 0x02, kEcnCe = 0x03;

uint32_t pow2_at_least(uint32_t v)
{
    uint32_t p = 1;
    while (p < v)
        p <<= 1;
    return p;
}

bool is_read_or_atomic(ibv_wr_opcode op)
{
    return op == IBV_WR_RDMA_READ || op == IBV_WR_ATOMIC_CMP_AND_SWP || op == IBV_WR_ATOMIC_FETCH_AND_ADD;
}

ibv_wc_opcode wc_opcode(ibv_wr_opcode op)
{
    switch (op) {
    case IBV_WR_RDMA_WRITE:
    case IBV_WR_RDMA_WRITE_WITH_IMM: return IBV_WC_RDMA_WRITE;
    case IBV_WR_RDMA_READ: return IBV_WC_RDMA_READ;
    case IBV_WR_ATOMIC_CMP_AND_SWP: return IBV_WC_COMP_SWAP;
    case IBV_WR_ATOMIC_FETCH_AND_ADD: return IBV_WC_FETCH_ADD;
    default: return IBV_WC_SEND;
    }
}

// Mark a received frame's IP ECN field CE in place (what a congested switch does), fixing the
// IPv4 header checksum. The ICRC masks TOS/traffic class (A17.4.1), so it stays valid.
void mark_ce(uint8_t *frame, size_t len, Packet &pkt)
{
    size_t ip = kEthHdrLen + (pkt.eth.has_vlan ? kVlanTagLen : 0);
    if (pkt.ip_version == IpVersion::v4) {
        if (len < ip + kIpv4HdrMinLen)
            return;
        frame[ip + 1] |= kEcnCe;
        pkt.ip4.tos = frame[ip + 1];
        size_t ihl = (frame[ip] & 0x0F) * 4u;
        uint16_t c = ipv4_header_checksum({frame + ip, ihl});
        frame[ip + 10] = uint8_t(c >> 8);
        frame[ip + 11] = uint8_t(c);
    } else {
        if (len < ip + kIpv6HdrLen)
            return;
        frame[ip + 1] |= 0x30; // traffic class bits 1:0 are byte 1 bits 5:4
        pkt.ip6.traffic_class |= kEcnCe;
    }
}

} // namespace

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------
uint32_t rnr_timer_us(uint8_t code)
{
    // IBA Table 45 (microseconds); NOT the rxe table (it has the 61410 typo).
    static constexpr uint32_t kTable[32] = {
        655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960, 1280, 1920,
        2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720, 40960, 61440, 81920, 122880,
        163840, 245760, 327680, 491520};
    return kTable[code & 31];
}

uint64_t ack_timeout_ns(uint8_t timeout)
{
    if (timeout == 0)
        return 0;
    return 4096ull << std::min<uint8_t>(timeout, 31); // 4.096 us = 4096 ns
}

uint32_t mtu_bytes(ibv_mtu mtu)
{
    switch (mtu) {
    case IBV_MTU_256: return 256;
    case IBV_MTU_512: return 512;
    case IBV_MTU_1024: return 1024;
    case IBV_MTU_2048: return 2048;
    case IBV_MTU_4096: return 4096;
    default: return 0;
    }
}

// Largest IB MTU whose RoCE v2 frame (headers without Ethernet, as ethdev counts its MTU) fits
// `port_mtu`.
static ibv_mtu ib_mtu_for_port(uint16_t port_mtu)
{
    for (int m = IBV_MTU_4096; m > IBV_MTU_256; m--)
        if (mtu_bytes(ibv_mtu(m)) + kMaxHdr - kEthHdrLen <= port_mtu)
            return ibv_mtu(m);
    return IBV_MTU_256;
}

uint32_t calc_flow_label(uint32_t lqpn, uint32_t rqpn)
{
    uint64_t v = uint64_t(lqpn) * rqpn;
    v ^= v >> 20;
    v ^= v >> 40;
    return static_cast<uint32_t>(v & 0xFFFFF);
}

bool FaultConfig::enabled() const
{
    auto any = [](const FaultDir &d) {
        return d.drop > 0 || d.dup > 0 || d.reorder > 0 || d.corrupt > 0 || d.delay > 0 || d.ecn_ce > 0;
    };
    return any(tx) || any(rx);
}

bool MemoryRegion::contains(uint64_t va, uint64_t len) const
{
    uint64_t base = reinterpret_cast<uintptr_t>(addr_);
    return va >= base && len <= length_ && va - base <= length_ - len;
}

// ---------------------------------------------------------------------------------------
// CompletionQueue
// ---------------------------------------------------------------------------------------
bool CompletionQueue::push(const WorkCompletion &wc)
{
    if (count_ == ring_.size()) {
        overflows_++;
        return false;
    }
    ring_[(head_ + count_) % ring_.size()] = wc;
    count_++;
    return true;
}

int CompletionQueue::poll_cq(std::span<WorkCompletion> wc)
{
    uint32_t n = std::min<uint32_t>(count_, static_cast<uint32_t>(wc.size()));
    for (uint32_t i = 0; i < n; i++) {
        wc[i] = ring_[head_];
        head_ = (head_ + 1) % ring_.size();
    }
    count_ -= n;
    return static_cast<int>(n);
}

// ---------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------
Context::Context(const ContextConfig &cfg) : cfg_(cfg) {}

std::unique_ptr<Context> Context::create(const ContextConfig &cfg, int *err)
{
    auto fail = [err](int e) { if (err) *err = e; return std::unique_ptr<Context>(); };
    if (!rte_eth_dev_is_valid_port(cfg.port_id) || cfg.tx_pool == nullptr || cfg.max_qps == 0 ||
        cfg.max_mrs == 0 || cfg.max_mrs > 0xFFFFFF || cfg.rx_burst == 0)
        return fail(-EINVAL);
    std::unique_ptr<Context> c(new Context(cfg));
    if (cfg.mac_from_port) {
        rte_ether_addr a;
        if (rte_eth_macaddr_get(cfg.port_id, &a) != 0)
            return fail(-EINVAL);
        std::copy(a.addr_bytes, a.addr_bytes + 6, c->mac_.begin());
    } else {
        c->mac_ = cfg.mac;
    }
    c->gid_ = cfg.gid;
    c->v4_ = cfg.gid.is_ipv4();
    c->hz_ = rte_get_timer_hz();
    c->qps_.assign(cfg.max_qps, nullptr);
    c->mrs_.assign(cfg.max_mrs, nullptr);
    c->mr_gen_.assign(cfg.max_mrs, 0);
    c->tx_buf_.assign(kTxBufLen, nullptr);
    c->rx_buf_.assign(cfg.rx_burst, nullptr);
    c->held_.assign(kHeldLen, Held{});
    c->scratch_.assign(4096 + 64, 0);
    c->rx_linear_.assign(kIcrcScratchLen, 0);
    if (cfg.neighbour) {
        c->neigh_ = std::make_unique<Neighbour>(c->mac_);
        c->neigh_->add_address(c->gid_);
    }
    if (err)
        *err = 0;
    return c;
}

Context::~Context()
{
    if (live_objects_ != 0)
        fprintf(stderr, "roce: Context destroyed with %u live objects (PD/CQ/QP/MR/AH)\n", live_objects_);
    for (uint32_t i = 0; i < tx_count_; i++)
        rte_pktmbuf_free(tx_buf_[i]);
    for (uint32_t i = 0; i < held_count_; i++)
        rte_pktmbuf_free(held_[i].m);
}

ibv_mtu Context::active_mtu() const
{
    uint16_t port_mtu = RTE_ETHER_MTU;
    rte_eth_dev_get_mtu(cfg_.port_id, &port_mtu);
    return ib_mtu_for_port(port_mtu);
}

std::unique_ptr<ProtectionDomain> Context::alloc_pd()
{
    live_objects_++;
    return std::unique_ptr<ProtectionDomain>(new ProtectionDomain(*this));
}

ProtectionDomain::~ProtectionDomain() { ctx_.live_objects_--; }

std::unique_ptr<CompletionQueue> Context::create_cq(uint32_t depth)
{
    if (depth == 0 || depth > (1u << 22))
        return nullptr;
    return std::unique_ptr<CompletionQueue>(new CompletionQueue(depth));
}

std::unique_ptr<AddressHandle> Context::create_ah(ProtectionDomain &pd, const AddressVector &av)
{
    if (&pd.ctx_ != this || av.gid.is_ipv4() != v4_)
        return nullptr;
    return std::unique_ptr<AddressHandle>(new AddressHandle(pd, av));
}

std::unique_ptr<MemoryRegion> Context::reg_mr(ProtectionDomain &pd, void *addr, size_t length,
                                             unsigned access, int *err)
{
    auto fail = [err](int e) { if (err) *err = e; return std::unique_ptr<MemoryRegion>(); };
    constexpr unsigned kKnown = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                                IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
    if (&pd.ctx_ != this || (addr == nullptr && length != 0) || (access & ~kKnown) != 0)
        return fail(-EINVAL);
    // IBA 10.6.3.1 / ibv_reg_mr(3): remote write or atomic needs local write.
    if ((access & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)) && !(access & IBV_ACCESS_LOCAL_WRITE))
        return fail(-EINVAL);
    std::unique_ptr<MemoryRegion> mr(new MemoryRegion(pd, addr, length, access));
    uint32_t key = register_mr(mr.get());
    if (key == 0)
        return fail(-ENOMEM);
    mr->key_ = key;
    live_objects_++;
    if (err)
        *err = 0;
    return mr;
}

uint32_t Context::register_mr(MemoryRegion *mr)
{
    for (uint32_t i = 0; i < mrs_.size(); i++) {
        if (mrs_[i] == nullptr) {
            mrs_[i] = mr;
            mr_gen_[i]++; // a stale rkey of a freed MR does not match its slot's successor
            return ((i + 1) << 8) | mr_gen_[i];
        }
    }
    return 0;
}

void Context::unregister_mr(uint32_t key)
{
    uint32_t idx = (key >> 8) - 1;
    if (idx < mrs_.size())
        mrs_[idx] = nullptr;
}

MemoryRegion *Context::lookup_mr(uint32_t key) const
{
    uint32_t idx = (key >> 8) - 1;
    if (idx >= mrs_.size() || mrs_[idx] == nullptr || mrs_[idx]->key_ != key)
        return nullptr;
    return mrs_[idx];
}

MemoryRegion::~MemoryRegion()
{
    pd_.ctx_.unregister_mr(key_);
    pd_.ctx_.live_objects_--;
}

std::unique_ptr<QueuePair> Context::create_qp(ProtectionDomain &pd, const QpInitAttr &a, int *err)
{
    auto fail = [err](int e) { if (err) *err = e; return std::unique_ptr<QueuePair>(); };
    if (&pd.ctx_ != this || a.send_cq == nullptr || a.recv_cq == nullptr ||
        (a.qp_type != IBV_QPT_RC && a.qp_type != IBV_QPT_UC && a.qp_type != IBV_QPT_UD) ||
        a.cap.max_send_wr == 0 || a.cap.max_recv_wr == 0 || a.cap.max_send_wr > 65536 ||
        a.cap.max_recv_wr > 65536 || a.cap.max_send_sge > kMaxSge || a.cap.max_recv_sge > kMaxSge ||
        a.cap.max_inline_data > 4096)
        return fail(-EINVAL);
    for (uint32_t i = 0; i < qps_.size(); i++) {
        if (qps_[i] == nullptr) {
            std::unique_ptr<QueuePair> qp(new QueuePair(*this, pd, a, kQpnBase + i));
            qps_[i] = qp.get();
            live_objects_++;
            if (err)
                *err = 0;
            return qp;
        }
    }
    return fail(-ENOMEM);
}

void Context::unregister_qp(QueuePair *qp)
{
    uint32_t slot = qp->qpn_ - kQpnBase;
    if (slot < qps_.size() && qps_[slot] == qp)
        qps_[slot] = nullptr;
    // Held packets refer to the QP: drop them.
    uint32_t w = 0;
    for (uint32_t i = 0; i < held_count_; i++) {
        if (held_[i].qp == qp)
            rte_pktmbuf_free(held_[i].m);
        else
            held_[w++] = held_[i];
    }
    held_count_ = w;
    live_objects_--;
}

// --- TX ---------------------------------------------------------------------------------
void Context::tx_flush()
{
    if (tx_count_ == 0)
        return;
    uint16_t n = rte_eth_tx_burst(cfg_.port_id, cfg_.queue_id, tx_buf_.data(),
                                  static_cast<uint16_t>(std::min<uint32_t>(tx_count_, UINT16_MAX)));
    if (n < tx_count_)
        std::memmove(tx_buf_.data(), tx_buf_.data() + n, (tx_count_ - n) * sizeof(rte_mbuf *));
    tx_count_ -= n;
}

bool Context::tx_reserve()
{
    if (tx_count_ + 2 > tx_buf_.size()) // 2: room for a hook duplicate
        tx_flush();
    return tx_count_ + 2 <= tx_buf_.size();
}

rte_mbuf *Context::alloc_frame()
{
    rte_mbuf *m = rte_pktmbuf_alloc(cfg_.tx_pool);
    if (m == nullptr)
        counters_.tx_no_mbuf++;
    return m;
}

bool Context::emit(QueuePair *qp, Packet &pkt)
{
    if (!tx_reserve())
        return false;
    rte_mbuf *m = alloc_frame();
    if (m == nullptr)
        return false;
    BuildResult r = build(pkt, {rte_pktmbuf_mtod(m, uint8_t *), rte_pktmbuf_tailroom(m)});
    if (!r) {
        rte_pktmbuf_free(m);
        counters_.tx_no_mbuf++;
        return false;
    }
    m->data_len = static_cast<uint16_t>(r.len);
    m->pkt_len = static_cast<uint32_t>(r.len);
    queue_tx(qp, m, pkt);
    return true;
}

void Context::queue_tx(QueuePair *qp, rte_mbuf *m, const Packet &pkt)
{
    uint32_t lqpn = qp ? qp->qpn_ : 0;
    uint32_t flen = m->pkt_len;
    if (qp != nullptr && qp->faults_on_) {
        const FaultDir &f = qp->faults_.tx;
        // Always draw the same number of values per packet: reproducible sequences.
        double r_drop = qp->rnd(), r_cor = qp->rnd(), r_ce = qp->rnd(), r_dup = qp->rnd(),
               r_reo = qp->rnd(), r_del = qp->rnd();
        uint64_t now = rte_get_timer_cycles();
        if (r_drop < f.drop) {
            log(true, pkt, lqpn, flen, "drop");
            counters_.tx_hook_dropped++;
            rte_pktmbuf_free(m);
            return;
        }
        uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *);
        std::string_view fate;
        if (r_cor < f.corrupt) {
            d[m->data_len - 1] ^= 0x01; // last ICRC byte
            fate = "corrupt";
        }
        if (r_ce < f.ecn_ce) {
            Packet tmp = pkt;
            mark_ce(d, m->data_len, tmp);
            fate = "ce";
        }
        if (r_dup < f.dup) {
            rte_mbuf *c = rte_pktmbuf_copy(m, cfg_.tx_pool, 0, UINT32_MAX);
            if (c != nullptr) {
                tx_buf_[tx_count_++] = c;
                counters_.tx_frames++;
                counters_.tx_bytes += flen;
                fate = "dup";
            }
        }
        if (r_reo < f.reorder) {
            log(true, pkt, lqpn, flen, "reorder");
            hold(m, now + hz_ / 50000, qp, false); // 20 us: later packets overtake it
            return;
        }
        if (r_del < f.delay) {
            log(true, pkt, lqpn, flen, "delay");
            hold(m, now + static_cast<uint64_t>(f.delay_ms * 1e-3 * double(hz_)), qp, false);
            return;
        }
        log(true, pkt, lqpn, flen, fate);
    } else {
        log(true, pkt, lqpn, flen, {});
    }
    tx_buf_[tx_count_++] = m;
    counters_.tx_frames++;
    counters_.tx_bytes += flen;
}

void Context::hold(rte_mbuf *m, uint64_t release, QueuePair *qp, bool rx)
{
    if (held_count_ == held_.size()) { // no room: deliver now
        if (rx) {
            rx_frame(m, true, qp);
        } else if (tx_reserve()) {
            tx_buf_[tx_count_++] = m;
            counters_.tx_frames++;
        } else {
            rte_pktmbuf_free(m);
        }
        return;
    }
    held_[held_count_++] = {m, release, qp, rx};
}

void Context::release_held(uint64_t now)
{
    uint32_t i = 0;
    while (i < held_count_) {
        if (held_[i].release > now) {
            i++;
            continue;
        }
        Held h = held_[i];
        // Keep order among the rest; the list is short.
        std::memmove(&held_[i], &held_[i + 1], (held_count_ - i - 1) * sizeof(Held));
        held_count_--;
        if (h.rx) {
            rx_frame(h.m, true, h.qp);
        } else if (tx_reserve()) {
            tx_buf_[tx_count_++] = h.m;
            counters_.tx_frames++;
            counters_.tx_bytes += h.m->pkt_len;
        } else {
            rte_pktmbuf_free(h.m);
        }
    }
}

void Context::log(bool tx, const Packet &pkt, uint32_t local_qpn, uint32_t frame_len, std::string_view fate)
{
    if (log_file_ == nullptr && !log_fn_)
        return;
    PacketLogEntry e;
    e.tx = tx;
    e.opcode = pkt.bth.opcode;
    e.opcode_name = name(pkt.bth.opcode);
    e.psn = pkt.bth.psn;
    e.dest_qpn = pkt.bth.dest_qp;
    e.local_qpn = local_qpn;
    e.payload_len = static_cast<uint32_t>(pkt.payload.size());
    e.frame_len = frame_len;
    e.fate = fate;
    if (log_file_ != nullptr)
        fprintf(log_file_, "%s %.*s qpn=0x%06x psn=0x%06x len=%u frame=%u%s%.*s\n", tx ? "tx" : "rx",
                int(e.opcode_name.size()), e.opcode_name.data(), e.dest_qpn, e.psn, e.payload_len,
                e.frame_len, fate.empty() ? "" : " ", int(fate.size()), fate.data());
    if (log_fn_)
        log_fn_(e);
}

void Context::send_cnp(const Packet &rx, uint32_t dest_qpn, QueuePair *qp)
{
    Packet p = make_packet(Opcode::CNP);
    p.eth.dst = rx.eth.src;
    p.eth.src = mac_;
    p.ip_version = rx.ip_version;
    p.ip4.src = rx.ip4.dst;
    p.ip4.dst = rx.ip4.src;
    p.ip4.tos = 0xC0; // DSCP 48, not ECT: CNPs must not be marked themselves
    p.ip4.id = ip_id_++;
    p.ip6.src = rx.ip6.dst;
    p.ip6.dst = rx.ip6.src;
    p.ip6.traffic_class = 0xC0;
    uint32_t fl = calc_flow_label(qp->qpn_, dest_qpn);
    p.ip6.flow_label = fl;
    p.udp.src_port = flow_label_to_udp_sport(fl);
    p.bth.dest_qp = dest_qpn;
    p.bth.pkey = 0xFFFF;
    p.bth.psn = 0;
    if (emit(qp, p))
        counters_.cnps_sent++;
}

bool Context::send_raw(std::span<const uint8_t> frame)
{
    if (!tx_reserve())
        return false;
    rte_mbuf *m = alloc_frame();
    if (m == nullptr)
        return false;
    if (rte_pktmbuf_tailroom(m) < frame.size()) {
        rte_pktmbuf_free(m);
        return false;
    }
    std::memcpy(rte_pktmbuf_mtod(m, uint8_t *), frame.data(), frame.size());
    m->data_len = static_cast<uint16_t>(frame.size());
    m->pkt_len = static_cast<uint32_t>(frame.size());
    tx_buf_[tx_count_++] = m;
    counters_.tx_frames++;
    counters_.tx_bytes += frame.size();
    counters_.tx_neighbour++;
    return true;
}

int Context::resolve(const Gid &peer, MacAddr &mac)
{
    if (neigh_ == nullptr)
        return -ENOTSUP;
    if (peer.is_ipv4() != v4_)
        return -EINVAL;
    if (neigh_->lookup(peer, mac))
        return 0;
    uint64_t now = rte_get_timer_cycles();
    if (last_solicit_ == 0 || !(last_solicit_gid_ == peer) || now - last_solicit_ >= hz_ / 10) {
        std::array<uint8_t, Neighbour::kMaxFrameLen> req;
        size_t n = neigh_->build_request(peer, req);
        if (n != 0 && send_raw({req.data(), n})) {
            tx_flush();
            last_solicit_ = now;
            last_solicit_gid_ = peer;
        }
    }
    return -EAGAIN;
}

// --- RX ---------------------------------------------------------------------------------
void Context::rx_frame(rte_mbuf *m, bool from_hold, QueuePair *hold_qp)
{
    (void)hold_qp;
    counters_.rx_frames += from_hold ? 0 : 1;
    uint8_t *data;
    uint32_t len = m->pkt_len;
    if (m->nb_segs == 1) {
        data = rte_pktmbuf_mtod(m, uint8_t *);
    } else {
        if (len > rx_linear_.size()) {
            counters_.rx_malformed++;
            rte_pktmbuf_free(m);
            return;
        }
        data = const_cast<uint8_t *>(static_cast<const uint8_t *>(
            rte_pktmbuf_read(m, 0, len, rx_linear_.data())));
    }
    Packet pkt;
    ParseError e = parse({data, len}, pkt, parse_stats_);
    if (e != ParseError::ok) {
        if (is_not_roce(e) && neigh_ != nullptr) {
            std::array<uint8_t, Neighbour::kMaxFrameLen> reply;
            size_t rlen = 0;
            Neighbour::Result r = neigh_->input({data, len}, reply, rlen);
            if (r != Neighbour::Result::not_neighbour) {
                counters_.rx_neighbour++;
                if (r == Neighbour::Result::reply)
                    send_raw({reply.data(), rlen});
                rte_pktmbuf_free(m);
                return;
            }
        }
        if (is_not_roce(e))
            counters_.rx_not_roce++;
        else if (e == ParseError::icrc_mismatch)
            counters_.rx_icrc_errors++;
        else
            counters_.rx_malformed++;
        rte_pktmbuf_free(m);
        return;
    }
    bool mine = pkt.ip_version == (v4_ ? IpVersion::v4 : IpVersion::v6) &&
                (v4_ ? pkt.ip4.dst == gid_.ipv4() : pkt.ip6.dst == gid_.raw);
    if (!mine) {
        counters_.rx_not_for_us++;
        rte_pktmbuf_free(m);
        return;
    }
    uint32_t slot = pkt.bth.dest_qp - kQpnBase;
    QueuePair *qp = slot < qps_.size() ? qps_[slot] : nullptr;
    if (qp == nullptr) {
        log(false, pkt, 0, len, "no-qp");
        counters_.rx_unknown_qp++;
        rte_pktmbuf_free(m);
        return;
    }
    unsigned copies = 1;
    if (!from_hold && qp->faults_on_) {
        const FaultDir &f = qp->faults_.rx;
        double r_drop = qp->rnd(), r_cor = qp->rnd(), r_ce = qp->rnd(), r_dup = qp->rnd(),
               r_reo = qp->rnd(), r_del = qp->rnd();
        uint64_t now = rte_get_timer_cycles();
        if (r_drop < f.drop) {
            log(false, pkt, qp->qpn_, len, "drop");
            counters_.rx_hook_dropped++;
            rte_pktmbuf_free(m);
            return;
        }
        if (r_cor < f.corrupt) {
            log(false, pkt, qp->qpn_, len, "corrupt");
            counters_.rx_hook_corrupted++;
            counters_.rx_icrc_errors++;
            rte_pktmbuf_free(m);
            return;
        }
        if (r_ce < f.ecn_ce && m->nb_segs == 1)
            mark_ce(data, len, pkt);
        if (r_reo < f.reorder || r_del < f.delay) {
            bool reo = r_reo < f.reorder;
            log(false, pkt, qp->qpn_, len, reo ? "reorder" : "delay");
            if (m->nb_segs == 1) {
                uint64_t d = reo ? hz_ / 50000 : static_cast<uint64_t>(f.delay_ms * 1e-3 * double(hz_));
                hold(m, now + d, qp, true);
                return;
            }
        }
        if (r_dup < f.dup)
            copies = 2;
    }
    log(false, pkt, qp->qpn_, len, copies == 2 ? "dup" : "");
    uint8_t ecn = pkt.ip_version == IpVersion::v4 ? (pkt.ip4.tos & kEcnMask) : (pkt.ip6.traffic_class & kEcnMask);
    uint64_t now = rte_get_timer_cycles();
    uint8_t op = pkt.bth.opcode;
    for (unsigned c = 0; c < copies; c++) {
        if (op == u8(Opcode::CNP)) {
            counters_.cnps_rcvd++;
            qp->rate_on_cnp(now);
            continue;
        }
        if (ecn == kEcnCe && c == 0) {
            // Notification point (A17.9): answer congestion with a CNP to the flow's sender.
            counters_.rx_ecn_ce++;
            uint32_t src = qp->type_ == IBV_QPT_UD ? pkt.deth.src_qp : qp->attr_.dest_qp_num;
            uint64_t gap = uint64_t(cfg_.cnp_interval_us) * hz_ / 1000000;
            if (qp->last_cnp_ == 0 || now - qp->last_cnp_ >= gap) {
                qp->last_cnp_ = now;
                send_cnp(pkt, src, qp);
            }
        }
        if (is_response(op))
            qp->rx_response(pkt, now);
        else
            qp->rx_request(pkt, now, ecn == kEcnCe);
    }
    rte_pktmbuf_free(m);
}

unsigned Context::poll()
{
    uint64_t now = rte_get_timer_cycles();
    uint16_t n = rte_eth_rx_burst(cfg_.port_id, cfg_.queue_id, rx_buf_.data(), cfg_.rx_burst);
    for (uint16_t i = 0; i < n; i++)
        rx_frame(rx_buf_[i], false, nullptr);
    if (held_count_)
        release_held(now);
    now = rte_get_timer_cycles();
    uint64_t before = counters_.tx_frames;
    for (QueuePair *qp : qps_) {
        if (qp == nullptr || qp->state_ == IBV_QPS_RESET)
            continue;
        qp->timers(now);
        qp->tx_responses(now, 64);
        qp->tx_requests(now, 32);
    }
    tx_flush();
    return n + static_cast<unsigned>(counters_.tx_frames - before);
}

// ---------------------------------------------------------------------------------------
// QueuePair: setup and state machine
// ---------------------------------------------------------------------------------------
QueuePair::QueuePair(Context &c, ProtectionDomain &pd, const QpInitAttr &a, uint32_t qpn)
    : ctx_(c), pd_(pd), type_(a.qp_type), scq_(a.send_cq), rcq_(a.recv_cq), cap_(a.cap),
      sq_sig_all_(a.sq_sig_all), qpn_(qpn), hz_(c.hz_)
{
    uint32_t sqn = pow2_at_least(a.cap.max_send_wr), rqn = pow2_at_least(a.cap.max_recv_wr);
    cap_.max_send_wr = sqn;
    cap_.max_recv_wr = rqn;
    sq_.assign(sqn, SendWqe{});
    sq_mask_ = sqn - 1;
    inline_.assign(size_t(sqn) * std::max<uint32_t>(cap_.max_inline_data, 1), 0);
    rq_.assign(rqn, RecvWqe{});
    rq_mask_ = rqn - 1;
    resp_.assign(kRespQueueLen, RespItem{});
    rd_res_.assign(kMaxRdAtomic, RdResource{});
    tuning_.dcqcn = c.cfg_.dcqcn;
    rate_.rc = rate_.rt = c.cfg_.dcqcn_params.line_rate_gbps * 1e9;
}

QueuePair::~QueuePair() { ctx_.unregister_qp(this); }

void QueuePair::set_faults(const FaultConfig &f)
{
    faults_ = f;
    faults_on_ = f.enabled();
    rng_ = f.seed ? f.seed : 0x9E3779B97F4A7C15ull;
}

double QueuePair::rnd()
{
    // xorshift64*: fast, seeded, reproducible.
    rng_ ^= rng_ >> 12;
    rng_ ^= rng_ << 25;
    rng_ ^= rng_ >> 27;
    return double((rng_ * 0x2545F4914F6CDD1Dull) >> 11) * (1.0 / 9007199254740992.0);
}

int QueuePair::modify(const QpAttr &a, int mask)
{
    ibv_qp_state cur = state_;
    ibv_qp_state next = (mask & IBV_QP_STATE) ? a.qp_state : cur;
    auto need = [mask](int bits) { return (mask & bits) == bits; };
    if (next == IBV_QPS_RESET) {
        flush();
        state_ = IBV_QPS_RESET;
        sq_head_ = sq_tail_ = cur_ = cur_pkt_ = 0;
        rq_head_ = rq_tail_ = 0;
        resp_head_ = resp_tail_ = 0;
        in_msg_ = InMsg::none;
        error_after_resp_ = false;
        return 0;
    }
    if (next == IBV_QPS_ERR) {
        to_error();
        return 0;
    }
    // Required attributes per transition: ibv_modify_qp(3) table (PORT not needed here).
    bool ok = false;
    if (cur == IBV_QPS_RESET && next == IBV_QPS_INIT)
        ok = type_ == IBV_QPT_UD ? need(IBV_QP_PKEY_INDEX | IBV_QP_QKEY) : need(IBV_QP_PKEY_INDEX | IBV_QP_ACCESS_FLAGS);
    else if (cur == IBV_QPS_INIT && next == IBV_QPS_INIT)
        ok = true;
    else if (cur == IBV_QPS_INIT && next == IBV_QPS_RTR)
        ok = type_ == IBV_QPT_RC ? need(IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                                        IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER)
             : type_ == IBV_QPT_UC ? need(IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN)
                                   : true;
    else if (cur == IBV_QPS_RTR && next == IBV_QPS_RTS)
        ok = type_ == IBV_QPT_RC ? need(IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                                        IBV_QP_MAX_QP_RD_ATOMIC)
                                 : need(IBV_QP_SQ_PSN);
    else if (cur == IBV_QPS_RTS && next == IBV_QPS_RTS)
        ok = !(mask & (IBV_QP_SQ_PSN | IBV_QP_RQ_PSN | IBV_QP_DEST_QPN | IBV_QP_AV));
    if (!ok)
        return -EINVAL;
    // Validate before changing anything.
    if ((mask & IBV_QP_PATH_MTU) && mtu_bytes(a.path_mtu) == 0)
        return -EINVAL;
    if ((mask & IBV_QP_PKEY_INDEX) && a.pkey_index >= ctx_.cfg_.pkey_table.size())
        return -EINVAL;
    if ((mask & IBV_QP_AV) && a.ah_attr.gid.is_ipv4() != ctx_.v4_)
        return -EINVAL;
    if (((mask & IBV_QP_RQ_PSN) && a.rq_psn > kPsnMask) || ((mask & IBV_QP_SQ_PSN) && a.sq_psn > kPsnMask) ||
        ((mask & IBV_QP_DEST_QPN) && a.dest_qp_num > kPsnMask))
        return -EINVAL;
    if (((mask & IBV_QP_RETRY_CNT) && a.retry_cnt > 7) || ((mask & IBV_QP_RNR_RETRY) && a.rnr_retry > 7) ||
        ((mask & IBV_QP_TIMEOUT) && a.timeout > 31) || ((mask & IBV_QP_MIN_RNR_TIMER) && a.min_rnr_timer > 31))
        return -EINVAL;
    if (((mask & IBV_QP_MAX_DEST_RD_ATOMIC) && a.max_dest_rd_atomic > kMaxRdAtomic) ||
        ((mask & IBV_QP_MAX_QP_RD_ATOMIC) && a.max_rd_atomic > kMaxRdAtomic))
        return -EINVAL; // rxe_qp_chk_attr: above the device's max_qp_rd_atom
    ibv_mtu mtu = (mask & IBV_QP_PATH_MTU) ? a.path_mtu : attr_.path_mtu;
    if (next == IBV_QPS_RTR) {
        // The path MTU is min(local, peer): the application passes the peer's (or its own
        // choice) and the port bounds it. UD messages are limited by the port MTU alone
        // (IBA 9.8.2 / ibv_ud_pingpong).
        ibv_mtu port = ctx_.active_mtu();
        if (type_ == IBV_QPT_UD && !(mask & IBV_QP_PATH_MTU))
            mtu = port;
        else
            mtu = std::min(mtu, port);
    }
    uint32_t room = rte_pktmbuf_data_room_size(ctx_.cfg_.tx_pool) - RTE_PKTMBUF_HEADROOM;
    if (next == IBV_QPS_RTR && mtu_bytes(mtu) + kMaxHdr > room)
        return -EINVAL; // a full-PMTU frame must fit one TX mbuf
    if (mask & IBV_QP_PKEY_INDEX) attr_.pkey_index = a.pkey_index;
    if (mask & IBV_QP_QKEY) attr_.qkey = a.qkey;
    if (mask & IBV_QP_ACCESS_FLAGS) attr_.qp_access_flags = a.qp_access_flags;
    if (mask & IBV_QP_AV) attr_.ah_attr = a.ah_attr;
    attr_.path_mtu = mtu;
    if (mask & IBV_QP_DEST_QPN) attr_.dest_qp_num = a.dest_qp_num;
    if (mask & IBV_QP_RQ_PSN) attr_.rq_psn = a.rq_psn;
    if (mask & IBV_QP_SQ_PSN) attr_.sq_psn = a.sq_psn;
    if (mask & IBV_QP_MAX_DEST_RD_ATOMIC) attr_.max_dest_rd_atomic = a.max_dest_rd_atomic;
    if (mask & IBV_QP_MAX_QP_RD_ATOMIC) attr_.max_rd_atomic = std::max<uint8_t>(a.max_rd_atomic, 1);
    if (mask & IBV_QP_MIN_RNR_TIMER) attr_.min_rnr_timer = a.min_rnr_timer;
    if (mask & IBV_QP_TIMEOUT) attr_.timeout = a.timeout;
    if (mask & IBV_QP_RETRY_CNT) attr_.retry_cnt = a.retry_cnt;
    if (mask & IBV_QP_RNR_RETRY) attr_.rnr_retry = a.rnr_retry;
    if (next == IBV_QPS_RTR && cur == IBV_QPS_INIT) {
        epsn_ = attr_.rq_psn;
        msn_ = 0;
        in_msg_ = InMsg::none;
        nak_sent_ = false;
        std::fill(rd_res_.begin(), rd_res_.end(), RdResource{});
        rd_res_next_ = 0;
    }
    if (next == IBV_QPS_RTS && cur == IBV_QPS_RTR) {
        next_psn_ = una_ = sent_end_ = attr_.sq_psn;
        noack_pkts_ = 0;
        retry_left_ = attr_.retry_cnt;
        rnr_left_ = attr_.rnr_retry;
        rate_ = Rate{};
        rate_.rc = rate_.rt = ctx_.cfg_.dcqcn_params.line_rate_gbps * 1e9;
    }
    retry_left_ = std::min(retry_left_, attr_.retry_cnt);
    attr_.qp_state = next;
    state_ = next;
    return 0;
}

void QueuePair::flush()
{
    // IBA 10.3.1 / 11.4: in the Error state all outstanding WRs complete with flush errors,
    // signaled or not.
    while (sq_tail_ != sq_head_) {
        SendWqe &w = sq_[sq_tail_ & sq_mask_];
        WorkCompletion wc;
        wc.wr_id = w.wr_id;
        wc.status = IBV_WC_WR_FLUSH_ERR;
        wc.opcode = wc_opcode(w.opcode);
        wc.qp_num = qpn_;
        if (!scq_->push(wc))
            ctx_.counters_.cq_overflows++;
        sq_tail_++;
    }
    cur_ = sq_head_;
    cur_pkt_ = 0;
    while (rq_tail_ != rq_head_) {
        RecvWqe &r = rq_[rq_tail_ & rq_mask_];
        complete_recv(r, IBV_WC_WR_FLUSH_ERR, IBV_WC_RECV, 0, 0, 0, 0, 0);
        rq_tail_++;
    }
}

void QueuePair::to_error()
{
    state_ = IBV_QPS_ERR;
    attr_.qp_state = IBV_QPS_ERR;
    flush();
}

// ---------------------------------------------------------------------------------------
// Posting
// ---------------------------------------------------------------------------------------
bool QueuePair::resolve(std::span<const Sge> sges, bool need_write, std::array<Seg, kMaxSge> &out,
                        uint32_t &n, uint32_t &total) const
{
    n = 0;
    uint64_t t = 0;
    for (const Sge &s : sges) {
        MemoryRegion *mr = ctx_.lookup_mr(s.lkey);
        if (mr == nullptr || !mr->valid_ || &mr->pd_ != &pd_ || !mr->contains(s.addr, s.length) ||
            (need_write && !(mr->access_ & IBV_ACCESS_LOCAL_WRITE)))
            return false;
        if (s.length == 0)
            continue;
        out[n++] = {reinterpret_cast<uint8_t *>(static_cast<uintptr_t>(s.addr)), s.length};
        t += s.length;
    }
    if (t > 0x80000000ull) // IBA: messages up to 2^31 bytes
        return false;
    total = static_cast<uint32_t>(t);
    return true;
}

void QueuePair::gather(const std::array<Seg, kMaxSge> &seg, uint32_t nseg, uint32_t off, uint32_t n, uint8_t *dst)
{
    for (uint32_t i = 0; i < nseg && n > 0; i++) {
        if (off >= seg[i].len) {
            off -= seg[i].len;
            continue;
        }
        uint32_t c = std::min(n, seg[i].len - off);
        std::memcpy(dst, seg[i].addr + off, c);
        dst += c;
        n -= c;
        off = 0;
    }
}

bool QueuePair::scatter(const std::array<Seg, kMaxSge> &seg, uint32_t nseg, uint32_t off,
                        std::span<const uint8_t> src)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < nseg; i++)
        total += seg[i].len;
    if (uint64_t(off) + src.size() > total)
        return false;
    const uint8_t *s = src.data();
    size_t n = src.size();
    for (uint32_t i = 0; i < nseg && n > 0; i++) {
        if (off >= seg[i].len) {
            off -= seg[i].len;
            continue;
        }
        size_t c = std::min<size_t>(n, seg[i].len - off);
        std::memcpy(seg[i].addr + off, s, c);
        s += c;
        n -= c;
        off = 0;
    }
    return true;
}

int QueuePair::post_send(const SendWr &wr)
{
    if (state_ != IBV_QPS_RTS)
        return -EINVAL;
    if (sq_head_ - sq_tail_ >= sq_.size())
        return -ENOMEM;
    ibv_wr_opcode op = wr.opcode;
    bool ok_op;
    switch (type_) {
    case IBV_QPT_RC:
        ok_op = op == IBV_WR_SEND || op == IBV_WR_SEND_WITH_IMM || op == IBV_WR_SEND_WITH_INV ||
                op == IBV_WR_RDMA_WRITE || op == IBV_WR_RDMA_WRITE_WITH_IMM || op == IBV_WR_RDMA_READ ||
                op == IBV_WR_ATOMIC_CMP_AND_SWP || op == IBV_WR_ATOMIC_FETCH_AND_ADD;
        break;
    case IBV_QPT_UC: // IBA 9.8.1 Table 40: UC has SEND and RDMA WRITE only
        ok_op = op == IBV_WR_SEND || op == IBV_WR_SEND_WITH_IMM || op == IBV_WR_RDMA_WRITE ||
                op == IBV_WR_RDMA_WRITE_WITH_IMM;
        break;
    default:
        ok_op = op == IBV_WR_SEND || op == IBV_WR_SEND_WITH_IMM;
    }
    if (!ok_op)
        return -EINVAL;
    uint32_t slot = sq_head_ & sq_mask_;
    SendWqe &w = sq_[slot];
    w = SendWqe{};
    w.wr_id = wr.wr_id;
    w.opcode = op;
    w.signaled = sq_sig_all_ || (wr.send_flags & IBV_SEND_SIGNALED);
    w.solicited = wr.send_flags & IBV_SEND_SOLICITED;
    w.imm = wr.imm_data;
    w.inv_rkey = wr.invalidate_rkey;
    bool inl = (wr.send_flags & IBV_SEND_INLINE) && !is_read_or_atomic(op);
    if (inl) {
        uint64_t total = 0;
        for (const Sge &s : wr.sg_list)
            total += s.length;
        if (total > cap_.max_inline_data || wr.sg_list.size() > kMaxSge)
            return -EINVAL;
        uint8_t *buf = inline_.data() + size_t(slot) * std::max<uint32_t>(cap_.max_inline_data, 1);
        uint32_t off = 0;
        for (const Sge &s : wr.sg_list) {
            std::memcpy(buf + off, reinterpret_cast<const void *>(static_cast<uintptr_t>(s.addr)), s.length);
            off += s.length;
        }
        w.seg[0] = {buf, off};
        w.nseg = off ? 1 : 0;
        w.len = off;
    } else {
        if (wr.sg_list.size() > cap_.max_send_sge)
            return -EINVAL;
        if (!resolve(wr.sg_list, is_read_or_atomic(op), w.seg, w.nseg, w.len))
            return -EINVAL;
    }
    uint32_t mtu = pmtu();
    switch (op) {
    case IBV_WR_RDMA_WRITE:
    case IBV_WR_RDMA_WRITE_WITH_IMM:
    case IBV_WR_RDMA_READ:
        w.raddr = wr.rdma.remote_addr;
        w.rkey = wr.rdma.rkey;
        break;
    case IBV_WR_ATOMIC_CMP_AND_SWP:
    case IBV_WR_ATOMIC_FETCH_AND_ADD:
        if (w.len != 8 || (wr.atomic.remote_addr & 7) != 0) // IBA 9.4.5: 8-byte aligned
            return -EINVAL;
        w.raddr = wr.atomic.remote_addr;
        w.rkey = wr.atomic.rkey;
        w.cmp = wr.atomic.compare_add;
        w.swap = wr.atomic.swap;
        break;
    default:
        break;
    }
    if (type_ == IBV_QPT_UD) {
        if (wr.ud.ah == nullptr || &wr.ud.ah->pd_ != &pd_ || wr.ud.remote_qpn > kPsnMask)
            return -EINVAL;
        // IBA C10-93.1.1: a UD message above the port MTU emits nothing and is not an error
        // (rxe_req.c fake_udp_send() completes it successfully).
        w.oversize = w.len > mtu;
        w.ah = wr.ud.ah;
        w.remote_qpn = wr.ud.remote_qpn;
        w.remote_qkey = (wr.ud.remote_qkey & 0x80000000u) ? attr_.qkey : wr.ud.remote_qkey;
    }
    w.npkts = (is_read_or_atomic(op) && op != IBV_WR_RDMA_READ) || type_ == IBV_QPT_UD
                  ? 1 : std::max<uint32_t>(1, (w.len + mtu - 1) / mtu);
    w.first_psn = next_psn_;
    next_psn_ = psn_add(next_psn_, w.npkts);
    sq_head_++;
    return 0;
}

int QueuePair::post_recv(const RecvWr &wr)
{
    if (state_ == IBV_QPS_RESET)
        return -EINVAL;
    if (rq_head_ - rq_tail_ >= rq_.size())
        return -ENOMEM;
    if (wr.sg_list.size() > cap_.max_recv_sge)
        return -EINVAL;
    RecvWqe &r = rq_[rq_head_ & rq_mask_];
    r.wr_id = wr.wr_id;
    if (!resolve(wr.sg_list, true, r.seg, r.nseg, r.len))
        return -EINVAL;
    rq_head_++;
    if (state_ == IBV_QPS_ERR)
        flush();
    return 0;
}

void QueuePair::complete_send(SendWqe &w, ibv_wc_status st)
{
    if (st == IBV_WC_SUCCESS && !w.signaled)
        return;
    WorkCompletion wc;
    wc.wr_id = w.wr_id;
    wc.status = st;
    wc.opcode = wc_opcode(w.opcode);
    wc.byte_len = w.len;
    wc.qp_num = qpn_;
    if (!scq_->push(wc))
        ctx_.counters_.cq_overflows++;
}

void QueuePair::complete_recv(RecvWqe &r, ibv_wc_status st, ibv_wc_opcode op, uint32_t len, unsigned flags,
                              uint32_t imm, uint32_t inv, uint32_t src_qp)
{
    WorkCompletion wc;
    wc.wr_id = r.wr_id;
    wc.status = st;
    wc.opcode = op;
    wc.byte_len = len;
    wc.wc_flags = flags;
    wc.imm_data = imm;
    wc.invalidated_rkey = inv;
    wc.qp_num = qpn_;
    wc.src_qp = src_qp;
    if (!rcq_->push(wc))
        ctx_.counters_.cq_overflows++;
}

// ---------------------------------------------------------------------------------------
// Requester
// ---------------------------------------------------------------------------------------
void QueuePair::fill_headers(Packet &pkt, const AddressVector &av, uint32_t dest_qpn, uint32_t psn)
{
    pkt.eth.dst = av.mac;
    pkt.eth.src = ctx_.mac_;
    uint8_t ecn = tuning_.ecn ? kEcnEct0 : 0; // A17.9: senders mark ECT
    uint32_t fl = av.flow_label ? (av.flow_label & 0xFFFFF) : calc_flow_label(qpn_, dest_qpn);
    uint8_t hop = av.hop_limit > 1 ? av.hop_limit : ctx_.cfg_.hop_limit;
    if (ctx_.v4_) {
        pkt.ip_version = IpVersion::v4;
        pkt.ip4.tos = static_cast<uint8_t>((av.traffic_class & 0xFC) | ecn);
        pkt.ip4.ttl = hop;
        pkt.ip4.id = ctx_.ip_id_++;
        pkt.ip4.src = ctx_.gid_.ipv4();
        pkt.ip4.dst = av.gid.ipv4();
    } else {
        pkt.ip_version = IpVersion::v6;
        pkt.ip6.traffic_class = static_cast<uint8_t>((av.traffic_class & 0xFC) | ecn);
        pkt.ip6.flow_label = fl;
        pkt.ip6.hop_limit = hop;
        pkt.ip6.src = ctx_.gid_.raw;
        pkt.ip6.dst = av.gid.raw;
    }
    // Annex A17.5.1 / rdma_flow_label_to_udp_sport: per-flow entropy keeps a QP on one path.
    pkt.udp.src_port = flow_label_to_udp_sport(fl);
    pkt.bth.pkey = ctx_.cfg_.pkey_table[attr_.pkey_index];
    pkt.bth.dest_qp = dest_qpn;
    pkt.bth.psn = psn & kPsnMask;
}

bool QueuePair::tx_one_request(SendWqe &w, uint32_t k, uint64_t now)
{
    uint32_t mtu = pmtu();
    bool uc = type_ == IBV_QPT_UC;
    bool first = k == 0, last = k + 1 == w.npkts;
    uint32_t off = 0, n = 0;
    Opcode op;
    bool data = false;
    switch (w.opcode) {
    case IBV_WR_SEND:
    case IBV_WR_SEND_WITH_IMM:
    case IBV_WR_SEND_WITH_INV: {
        data = true;
        bool imm = w.opcode == IBV_WR_SEND_WITH_IMM, inv = w.opcode == IBV_WR_SEND_WITH_INV;
        if (type_ == IBV_QPT_UD)
            op = imm ? Opcode::UD_SEND_ONLY_WITH_IMMEDIATE : Opcode::UD_SEND_ONLY;
        else if (first && last)
            op = imm ? Opcode::RC_SEND_ONLY_WITH_IMMEDIATE
                 : inv ? Opcode::RC_SEND_ONLY_WITH_INVALIDATE : Opcode::RC_SEND_ONLY;
        else if (first)
            op = Opcode::RC_SEND_FIRST;
        else if (!last)
            op = Opcode::RC_SEND_MIDDLE;
        else
            op = imm ? Opcode::RC_SEND_LAST_WITH_IMMEDIATE
                 : inv ? Opcode::RC_SEND_LAST_WITH_INVALIDATE : Opcode::RC_SEND_LAST;
        break;
    }
    case IBV_WR_RDMA_WRITE:
    case IBV_WR_RDMA_WRITE_WITH_IMM: {
        data = true;
        bool imm = w.opcode == IBV_WR_RDMA_WRITE_WITH_IMM;
        if (first && last)
            op = imm ? Opcode::RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE : Opcode::RC_RDMA_WRITE_ONLY;
        else if (first)
            op = Opcode::RC_RDMA_WRITE_FIRST;
        else if (!last)
            op = Opcode::RC_RDMA_WRITE_MIDDLE;
        else
            op = imm ? Opcode::RC_RDMA_WRITE_LAST_WITH_IMMEDIATE : Opcode::RC_RDMA_WRITE_LAST;
        break;
    }
    case IBV_WR_RDMA_READ:
        op = Opcode::RC_RDMA_READ_REQUEST;
        break;
    case IBV_WR_ATOMIC_CMP_AND_SWP:
        op = Opcode::RC_COMPARE_SWAP;
        break;
    case IBV_WR_ATOMIC_FETCH_AND_ADD:
        op = Opcode::RC_FETCH_ADD;
        break;
    default:
        return false;
    }
    if (uc)
        op = uc_opcode(op);
    if (data) {
        off = k * mtu;
        n = std::min(mtu, w.len - off);
    }
    if (!rate_allows(n + kMaxHdr, now))
        return false;
    Packet pkt = make_packet(op);
    if (type_ == IBV_QPT_UD) {
        fill_headers(pkt, w.ah->attr(), w.remote_qpn, w.first_psn);
        pkt.deth.qkey = w.remote_qkey;
        pkt.deth.src_qp = qpn_;
    } else {
        fill_headers(pkt, attr_.ah_attr, attr_.dest_qp_num, psn_add(w.first_psn, k));
    }
    // IBA 9.7.2: an ACK per message, and one at least every ack_req_every packets so that a
    // long message never fills the PSN window without one asked for (an rxe responder ACKs
    // only packets with AckReq).
    uint32_t every = std::max<uint32_t>(1, std::min(tuning_.ack_req_every, tuning_.max_inflight_pkts / 2));
    bool ack_req = type_ == IBV_QPT_RC && (last || !data || noack_pkts_ + 1 >= every);
    pkt.bth.ack_req = ack_req;
    pkt.bth.se = last && w.solicited;
    pkt.imm = w.imm;
    pkt.ieth_rkey = w.inv_rkey;
    if (has_ext(pkt.ext_mask, Ext::RETH)) {
        if (w.opcode == IBV_WR_RDMA_READ) {
            // A re-request after lost responses asks only for the residual (rxe 030e46e495af).
            uint64_t done = uint64_t(w.resp_pkts) * mtu;
            pkt.reth = {w.raddr + done, w.rkey, static_cast<uint32_t>(w.len - std::min<uint64_t>(done, w.len))};
            pkt.bth.psn = psn_add(w.first_psn, w.resp_pkts);
            w.rereq_from = w.resp_pkts;
        } else {
            pkt.reth = {w.raddr, w.rkey, w.len};
        }
    }
    if (has_ext(pkt.ext_mask, Ext::AtomicETH)) {
        if (w.opcode == IBV_WR_ATOMIC_CMP_AND_SWP)
            pkt.atomic_eth = {w.raddr, w.rkey, w.swap, w.cmp};
        else
            pkt.atomic_eth = {w.raddr, w.rkey, w.cmp, 0};
    }
    if (n > 0) {
        const uint8_t *p;
        if (w.nseg == 1) {
            p = w.seg[0].addr + off;
        } else {
            gather(w.seg, w.nseg, off, n, ctx_.scratch_.data());
            p = ctx_.scratch_.data();
        }
        pkt.payload = {p, n};
    }
    if (!ctx_.emit(this, pkt))
        return false;
    noack_pkts_ = ack_req ? 0 : noack_pkts_ + 1;
    return true;
}

unsigned QueuePair::tx_requests(uint64_t now, unsigned budget)
{
    if (state_ != IBV_QPS_RTS || rnr_wait_)
        return 0;
    unsigned sent = 0;
    while (sent < budget && cur_ != sq_head_) {
        SendWqe &w = sq_[cur_ & sq_mask_];
        if (w.oversize) {
            ctx_.counters_.ud_oversize++;
            complete_send(w, IBV_WC_SUCCESS);
            cur_++;
            sq_tail_++;
            continue;
        }
        bool ra = is_read_or_atomic(w.opcode);
        if (is_rc() && ra && w.done) { // already answered: never ask twice
            cur_++;
            cur_pkt_ = 0;
            continue;
        }
        uint32_t k = ra ? (w.opcode == IBV_WR_RDMA_READ ? w.resp_pkts : 0) : cur_pkt_;
        uint32_t psn = psn_add(w.first_psn, k);
        if (is_rc()) {
            if (psn_diff(psn, una_) >= int32_t(tuning_.max_inflight_pkts))
                break;
            if (ra) { // IBA 9.7.7.2.1 (max_rd_atomic): outstanding READ/atomic limit
                uint32_t outstanding = 0;
                for (uint32_t i = sq_tail_; i != cur_; i++) {
                    const SendWqe &o = sq_[i & sq_mask_];
                    outstanding += is_read_or_atomic(o.opcode) && !o.done;
                }
                if (outstanding >= attr_.max_rd_atomic)
                    break;
            }
        }
        if (!tx_one_request(w, k, now))
            break;
        sent++;
        if (is_rc()) {
            if (psn_diff(sent_end_, una_) == 0)
                last_progress_ = now; // timer starts with the first outstanding packet
            uint32_t end = ra ? psn_add(w.first_psn, w.npkts) : psn_add(psn, 1);
            if (psn_diff(end, sent_end_) > 0)
                sent_end_ = end;
        }
        if (ra || ++cur_pkt_ == w.npkts) {
            cur_++;
            cur_pkt_ = 0;
            if (!is_rc()) { // UC/UD complete once sent (IBA 10.8.3.1: unreliable)
                complete_send(w, IBV_WC_SUCCESS);
                sq_tail_++;
            }
        }
    }
    return sent;
}

QueuePair::SendWqe *QueuePair::find_wqe(uint32_t psn, uint32_t *idx)
{
    for (uint32_t i = sq_tail_; i != sq_head_; i++) {
        SendWqe &w = sq_[i & sq_mask_];
        if (psn_diff(psn, w.first_psn) >= 0 && psn_diff(psn, psn_add(w.first_psn, w.npkts)) < 0) {
            *idx = i;
            return &w;
        }
        if (psn_diff(psn, w.first_psn) < 0)
            break;
    }
    return nullptr;
}

void QueuePair::go_back(uint32_t psn, uint64_t now)
{
    uint32_t idx;
    SendWqe *w = find_wqe(psn, &idx);
    if (w == nullptr)
        return;
    cur_ = idx;
    cur_pkt_ = w->opcode == IBV_WR_RDMA_READ ? w->resp_pkts : static_cast<uint32_t>(psn_diff(psn, w->first_psn));
    if (is_read_or_atomic(w->opcode) && w->opcode != IBV_WR_RDMA_READ)
        cur_pkt_ = 0;
    last_progress_ = now;
    ctx_.counters_.retransmits++;
}

bool QueuePair::nak_target(uint32_t psn, uint64_t now, uint32_t *idx)
{
    // IBA 9.7.5.1: a NAK implicitly ACKs every PSN before it.
    if (psn_diff(psn, una_) < 0)
        return false;
    if (!process_ack(psn_add(psn, -1), now))
        return false;
    return find_wqe(psn, idx) != nullptr;
}

bool QueuePair::process_ack(uint32_t psn, uint64_t now)
{
    // Idempotent: an old PSN completes nothing (the loop stops at the first later WQE).
    bool progress = false;
    while (sq_tail_ != sq_head_) {
        SendWqe &w = sq_[sq_tail_ & sq_mask_];
        uint32_t last = psn_add(w.first_psn, w.npkts - 1);
        if (psn_diff(last, psn) > 0) {
            // Partially acknowledged multi-packet message: skip what arrived.
            if (sq_tail_ == cur_ && !is_read_or_atomic(w.opcode)) {
                uint32_t acked = static_cast<uint32_t>(psn_diff(psn, w.first_psn) + 1);
                cur_pkt_ = std::max(cur_pkt_, std::min(acked, w.npkts));
            }
            break;
        }
        if (is_read_or_atomic(w.opcode) && !w.done) {
            // A later PSN is acknowledged but this READ/atomic response never arrived
            // (IBA 9.7.5.1.2: responses are in order, so it was lost): ask again.
            una_ = psn_add(w.first_psn, w.opcode == IBV_WR_RDMA_READ ? w.resp_pkts : 0);
            go_back(una_, now);
            return false;
        }
        complete_send(w, IBV_WC_SUCCESS);
        sq_tail_++;
        progress = true;
        if (psn_diff(cur_, sq_tail_) < 0 || cur_ == sq_tail_ - 1) {
            cur_ = sq_tail_;
            cur_pkt_ = 0;
        }
    }
    if (psn_diff(psn_add(psn, 1), una_) > 0) {
        una_ = psn_add(psn, 1);
        progress = true;
    }
    if (progress) {
        retry_left_ = attr_.retry_cnt;
        rnr_left_ = attr_.rnr_retry;
        last_progress_ = now;
    }
    return true;
}

void QueuePair::fail_send(uint32_t idx, ibv_wc_status st)
{
    // Complete everything before idx (already acknowledged by the caller) then idx in error,
    // then flush the rest (IBA 10.8.3: the QP enters the Error state).
    if (idx == sq_tail_ && sq_tail_ != sq_head_) {
        complete_send(sq_[sq_tail_ & sq_mask_], st);
        sq_tail_++;
    }
    to_error();
}

void QueuePair::rx_response(const Packet &pkt, uint64_t now)
{
    if (!is_rc() || (state_ != IBV_QPS_RTS)) {
        ctx_.counters_.rx_bad_state++;
        return;
    }
    uint32_t psn = pkt.bth.psn;
    uint8_t op = pkt.bth.opcode;
    // Responses must be for PSNs we sent and have not fully acknowledged.
    if (psn_diff(psn, sent_end_) >= 0) {
        ctx_.counters_.rx_out_of_window++;
        return;
    }
    if (op == static_cast<uint8_t>(Opcode::RC_ACKNOWLEDGE)) {
        switch (pkt.aeth.kind()) {
        case Aeth::Kind::ack:
            ctx_.counters_.acks_rcvd++;
            process_ack(psn, now);
            return;
        case Aeth::Kind::rnr_nak: {
            ctx_.counters_.rnr_naks_rcvd++;
            uint32_t idx;
            if (!nak_target(psn, now, &idx))
                return;
            // IBA 9.7.5.2.8: wait the responder's RNR timer, then retry; 7 = forever.
            if (rnr_left_ == 0) {
                fail_send(idx, IBV_WC_RNR_RETRY_EXC_ERR);
                return;
            }
            if (attr_.rnr_retry != 7)
                rnr_left_--;
            go_back(psn, now);
            rnr_wait_ = true;
            rnr_psn_ = psn;
            rnr_until_ = now + uint64_t(rnr_timer_us(pkt.aeth.value())) * hz_ / 1000000;
            return;
        }
        case Aeth::Kind::nak: {
            ctx_.counters_.naks_rcvd++;
            uint32_t idx;
            if (!nak_target(psn, now, &idx))
                return;
            switch (pkt.aeth.syndrome) {
            case kNakSeq:
                // IBA 9.7.5.2.1: retransmit; each NAK that made no progress spends one retry
                // (nak_target reset the counter if it did), as rxe_comp.c COMPST_ERROR_RETRY.
                if (retry_left_ == 0) {
                    fail_send(idx, IBV_WC_RETRY_EXC_ERR);
                    return;
                }
                retry_left_--;
                go_back(psn, now);
                return;
            case kNakInvReq: fail_send(idx, IBV_WC_REM_INV_REQ_ERR); return;
            case kNakRemAccess: fail_send(idx, IBV_WC_REM_ACCESS_ERR); return;
            case kNakRemOp: fail_send(idx, IBV_WC_REM_OP_ERR); return;
            default: fail_send(idx, IBV_WC_BAD_RESP_ERR); return;
            }
        }
        default:
            ctx_.counters_.rx_malformed++;
            return;
        }
    }
    uint32_t idx;
    SendWqe *w = find_wqe(psn, &idx);
    if (w == nullptr) {
        ctx_.counters_.rx_duplicates++; // already completed
        return;
    }
    if (op == static_cast<uint8_t>(Opcode::RC_ATOMIC_ACKNOWLEDGE)) {
        if (!is_read_or_atomic(w->opcode) || w->opcode == IBV_WR_RDMA_READ) {
            ctx_.counters_.rx_bad_opcode++;
            return;
        }
        if (w->done) {
            ctx_.counters_.rx_duplicates++;
            return;
        }
        if (psn_diff(psn, una_) > 0 && !process_ack(psn_add(psn, -1), now))
            return;
        // Host order into the local 8 bytes, which may span SGEs (post_send checked len 8).
        uint64_t orig = pkt.atomic_ack_eth.orig;
        uint8_t bytes[8];
        std::memcpy(bytes, &orig, 8);
        scatter(w->seg, w->nseg, 0, bytes);
        w->done = true;
        process_ack(psn, now);
        return;
    }
    // READ response (IBA 9.7.5.1.4).
    if (w->opcode != IBV_WR_RDMA_READ) {
        ctx_.counters_.rx_bad_opcode++;
        return;
    }
    uint32_t k = static_cast<uint32_t>(psn_diff(psn, w->first_psn));
    if (w->done || k < w->resp_pkts) {
        ctx_.counters_.rx_duplicates++;
        return;
    }
    if (k > w->resp_pkts) {
        // A response got lost: re-request the residual once per progress point.
        ctx_.counters_.rx_out_of_sequence++;
        if (w->rereq_from != w->resp_pkts) {
            uint32_t miss = psn_add(w->first_psn, w->resp_pkts);
            if (psn_diff(miss, una_) <= 0 || process_ack(psn_add(miss, -1), now))
                go_back(miss, now);
        }
        return;
    }
    uint32_t mtu = pmtu();
    bool lastp = k + 1 == w->npkts;
    uint32_t expect = lastp ? w->len - k * mtu : mtu;
    bool op_ok = lastp ? (op == u8(Opcode::RC_RDMA_READ_RESPONSE_LAST) || op == u8(Opcode::RC_RDMA_READ_RESPONSE_ONLY))
                       : (op == u8(Opcode::RC_RDMA_READ_RESPONSE_FIRST) ||
                          op == u8(Opcode::RC_RDMA_READ_RESPONSE_MIDDLE));
    if (!op_ok || pkt.payload.size() != expect) {
        ctx_.counters_.rx_malformed++;
        return;
    }
    if (psn_diff(psn, una_) > 0 && !process_ack(psn_add(psn, -1), now))
        return;
    scatter(w->seg, w->nseg, k * mtu, pkt.payload);
    w->resp_pkts++;
    retry_left_ = attr_.retry_cnt;
    last_progress_ = now;
    if (lastp) {
        w->done = true;
        process_ack(psn, now);
    }
    if (psn_diff(psn_add(psn, 1), una_) > 0)
        una_ = psn_add(psn, 1);
}

void QueuePair::requester_timers(uint64_t now)
{
    if (state_ != IBV_QPS_RTS || !is_rc())
        return;
    if (rnr_wait_) {
        if (now >= rnr_until_) {
            rnr_wait_ = false;
            go_back(rnr_psn_, now);
        }
        return;
    }
    if (psn_diff(sent_end_, una_) <= 0)
        return;
    uint64_t ns = ack_timeout_ns(attr_.timeout);
    if (ns == 0)
        return;
    uint64_t to = ns * hz_ / 1000000000ull;
    if (now - last_progress_ <= to)
        return;
    // IBA 9.7.6.1.3: local ACK timeout; retry_cnt retries, then IBV_WC_RETRY_EXC_ERR.
    ctx_.counters_.timeouts++;
    if (retry_left_ == 0) {
        uint32_t idx;
        if (find_wqe(una_, &idx) != nullptr)
            fail_send(idx, IBV_WC_RETRY_EXC_ERR);
        else
            to_error();
        return;
    }
    retry_left_--;
    go_back(una_, now);
}

// DCQCN reaction point (Zhu et al. 2015, Algorithm 1).
void QueuePair::rate_on_cnp(uint64_t now)
{
    rate_.cnps++;
    if (!ctx_.cfg_.dcqcn || !tuning_.dcqcn)
        return;
    const DcqcnParams &p = ctx_.cfg_.dcqcn_params;
    rate_.rt = rate_.rc;
    rate_.rc = std::max(p.min_rate_gbps * 1e9, rate_.rc * (1 - rate_.alpha / 2));
    rate_.alpha = (1 - p.g) * rate_.alpha + p.g;
    rate_.stage = 0;
    rate_.last_alpha = rate_.last_inc = rate_.last_cnp = now;
    if (!rate_.limited) {
        rate_.limited = true;
        rate_.tokens = 0;
        rate_.last_token = now;
    }
}

void QueuePair::rate_timers(uint64_t now)
{
    if (!rate_.limited)
        return;
    const DcqcnParams &p = ctx_.cfg_.dcqcn_params;
    uint64_t us = hz_ / 1000000 ? hz_ / 1000000 : 1;
    if (now - rate_.last_alpha >= p.alpha_timer_us * us) {
        rate_.alpha *= (1 - p.g);
        rate_.last_alpha = now;
    }
    if (now - rate_.last_inc >= p.rate_inc_timer_us * us) {
        rate_.last_inc = now;
        if (++rate_.stage > p.fast_recovery_stages) // additive increase after fast recovery
            rate_.rt = std::min(p.line_rate_gbps * 1e9, rate_.rt + p.rai_gbps * 1e9);
        rate_.rc = (rate_.rt + rate_.rc) / 2;
        if (rate_.rc >= p.line_rate_gbps * 1e9 * 0.999) {
            rate_.rc = p.line_rate_gbps * 1e9;
            rate_.limited = false;
        }
    }
}

bool QueuePair::rate_allows(uint32_t bytes, uint64_t now)
{
    if (!rate_.limited)
        return true;
    double dt = double(now - rate_.last_token) / double(hz_);
    rate_.last_token = now;
    rate_.tokens = std::min<double>(ctx_.cfg_.dcqcn_params.burst_bytes, rate_.tokens + rate_.rc / 8 * dt);
    if (rate_.tokens < 0)
        return false;
    rate_.tokens -= bytes;
    return true;
}

void QueuePair::timers(uint64_t now)
{
    requester_timers(now);
    rate_timers(now);
}

// ---------------------------------------------------------------------------------------
// Responder
// ---------------------------------------------------------------------------------------
MemoryRegion *QueuePair::check_remote(uint32_t rkey, uint64_t va, uint64_t len, unsigned need) const
{
    // IBA 10.6.3 / 9.7.5.2.4: R_Key names a valid MR of this QP's PD, the QP and the MR
    // grant the access, and [va, va+len) lies inside the MR. Otherwise: remote access error.
    MemoryRegion *mr = ctx_.lookup_mr(rkey);
    if (mr == nullptr || !mr->valid_ || &mr->pd_ != &pd_ || !(mr->access_ & need) ||
        !(attr_.qp_access_flags & need) || !mr->contains(va, len)) {
        ctx_.counters_.remote_access_errors++;
        return nullptr;
    }
    return mr;
}

QueuePair::RespItem *QueuePair::push_resp(RespKind k)
{
    if (resp_tail_ - resp_head_ >= resp_.size())
        return nullptr;
    if (resp_tail_ != resp_head_ && k != RespKind::ack) {
        RespItem &prev = resp_[(resp_tail_ - 1) % resp_.size()];
        if (prev.kind == RespKind::ack)
            prev.ready = true; // keep PSN order: a held ACK cannot wait behind a response
    }
    RespItem &it = resp_[resp_tail_++ % resp_.size()];
    it = RespItem{};
    it.kind = k;
    it.msn = msn_;
    return &it;
}

void QueuePair::queue_ack(uint32_t psn, bool ready, uint64_t now)
{
    if (resp_tail_ != resp_head_) {
        RespItem &last = resp_[(resp_tail_ - 1) % resp_.size()];
        if (last.kind == RespKind::ack) { // coalesce: one cumulative ACK, for the newest PSN
            if (psn_diff(psn, last.psn) > 0)
                last.psn = psn;
            last.msn = msn_;
            last.ready |= ready;
            return;
        }
    }
    RespItem *it = push_resp(RespKind::ack);
    if (it == nullptr)
        return; // the requester retries; the duplicate gets a new ACK
    it->psn = psn;
    it->syndrome = kSynAck;
    it->ready = ready;
    it->deadline = now + uint64_t(tuning_.ack_delay_us) * hz_ / 1000000;
}

void QueuePair::queue_nak(uint32_t psn, uint8_t syndrome)
{
    RespItem *it = push_resp(RespKind::nak);
    if (it == nullptr)
        return;
    it->psn = psn;
    it->syndrome = syndrome;
}

void QueuePair::rx_request(const Packet &pkt, uint64_t now, bool ce)
{
    (void)ce;
    if ((state_ != IBV_QPS_RTR && state_ != IBV_QPS_RTS) || error_after_resp_) {
        ctx_.counters_.rx_bad_state++;
        return;
    }
    // P_Key (IBA 9.2.1.1 / 10.9): same partition, low 15 bits.
    uint16_t mine = ctx_.cfg_.pkey_table[attr_.pkey_index];
    if ((pkt.bth.pkey & 0x7FFF) != (mine & 0x7FFF) || ((pkt.bth.pkey & 0x8000) == 0 && (mine & 0x8000) == 0)) {
        ctx_.counters_.rx_bad_pkey++;
        return;
    }
    Transport t = opcode_info(pkt.bth.opcode).transport;
    if ((type_ == IBV_QPT_RC && t != Transport::RC) || (type_ == IBV_QPT_UC && t != Transport::UC) ||
        (type_ == IBV_QPT_UD && t != Transport::UD)) {
        ctx_.counters_.rx_bad_opcode++;
        return;
    }
    if (type_ == IBV_QPT_RC)
        rx_rc_request(pkt, now);
    else if (type_ == IBV_QPT_UC)
        rx_uc_request(pkt);
    else
        rx_ud_request(pkt);
}

// Result of executing one in-sequence request packet.
enum : uint8_t { kExecOk = 0, kExecRnr = 1, kExecNak = 2 };

bool QueuePair::execute(const Packet &pkt, const OpcodeInfo &oi, uint64_t now, bool uc, uint8_t &nak)
{
    (void)oi;
    (void)now;
    // RC or UC: compare operations (bits 4:0), named after the RC opcodes.
    const uint8_t op = pkt.bth.opcode & kOpOperationMask;
    auto is = [op](std::initializer_list<Opcode> l) {
        return std::any_of(l.begin(), l.end(), [op](Opcode o) { return operation(o) == op; });
    };
    uint32_t mtu = pmtu();
    auto payload = pkt.payload;
    uint32_t n = static_cast<uint32_t>(payload.size());
    bool send = is({Opcode::RC_SEND_FIRST, Opcode::RC_SEND_MIDDLE, Opcode::RC_SEND_LAST,
                    Opcode::RC_SEND_LAST_WITH_IMMEDIATE, Opcode::RC_SEND_ONLY, Opcode::RC_SEND_ONLY_WITH_IMMEDIATE,
                    Opcode::RC_SEND_LAST_WITH_INVALIDATE, Opcode::RC_SEND_ONLY_WITH_INVALIDATE});
    bool write = is({Opcode::RC_RDMA_WRITE_FIRST, Opcode::RC_RDMA_WRITE_MIDDLE, Opcode::RC_RDMA_WRITE_LAST,
                     Opcode::RC_RDMA_WRITE_LAST_WITH_IMMEDIATE, Opcode::RC_RDMA_WRITE_ONLY,
                     Opcode::RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE});
    bool first = is({Opcode::RC_SEND_FIRST, Opcode::RC_RDMA_WRITE_FIRST});
    bool middle = is({Opcode::RC_SEND_MIDDLE, Opcode::RC_RDMA_WRITE_MIDDLE});
    bool last = is({Opcode::RC_SEND_LAST, Opcode::RC_SEND_LAST_WITH_IMMEDIATE, Opcode::RC_SEND_LAST_WITH_INVALIDATE,
                    Opcode::RC_RDMA_WRITE_LAST, Opcode::RC_RDMA_WRITE_LAST_WITH_IMMEDIATE});
    bool only = is({Opcode::RC_SEND_ONLY, Opcode::RC_SEND_ONLY_WITH_IMMEDIATE, Opcode::RC_SEND_ONLY_WITH_INVALIDATE,
                    Opcode::RC_RDMA_WRITE_ONLY, Opcode::RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE});
    bool imm = is({Opcode::RC_SEND_LAST_WITH_IMMEDIATE, Opcode::RC_SEND_ONLY_WITH_IMMEDIATE,
                   Opcode::RC_RDMA_WRITE_LAST_WITH_IMMEDIATE, Opcode::RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE});
    bool inv = is({Opcode::RC_SEND_LAST_WITH_INVALIDATE, Opcode::RC_SEND_ONLY_WITH_INVALIDATE});
    bool read = op == operation(Opcode::RC_RDMA_READ_REQUEST);
    bool cas = op == operation(Opcode::RC_COMPARE_SWAP), faa = op == operation(Opcode::RC_FETCH_ADD);
    nak = kNakInvReq;
    // Opcode sequence (IBA 9.7.5.2.2 / 9.8.3.2.2): MIDDLE/LAST continue a FIRST of the same kind.
    if (middle || last) {
        if ((send && in_msg_ != InMsg::send) || (write && in_msg_ != InMsg::write))
            return false;
    } else if (in_msg_ != InMsg::none) {
        return false;
    }
    // Lengths (IBA 9.7.5.2.3?): FIRST/MIDDLE exactly PMTU, LAST 1..PMTU, ONLY 0..PMTU.
    if (((first || middle) && n != mtu) || (last && (n == 0 || n > mtu)) || (only && n > mtu))
        return false;
    if (send) {
        if ((first || only) && rq_tail_ == rq_head_) {
            nak = kSynRnrNak | (attr_.min_rnr_timer & 0x1F);
            return false;
        }
        RecvWqe &r = rq_[rq_tail_ & rq_mask_];
        if (first || only)
            msg_off_ = 0;
        if (!scatter(r.seg, r.nseg, msg_off_, payload)) {
            // Local length error at the responder: IBA 9.7.5.2.3? -> Invalid Request NAK.
            complete_recv(r, IBV_WC_LOC_LEN_ERR, IBV_WC_RECV, msg_off_ + n, 0, 0, 0, 0);
            rq_tail_++;
            in_msg_ = InMsg::none;
            return false;
        }
        msg_off_ += n;
        if (first || middle) {
            in_msg_ = InMsg::send;
            return true;
        }
        unsigned flags = imm ? IBV_WC_WITH_IMM : 0;
        uint32_t inv_rkey = 0;
        if (inv) {
            // IBA 10.6.5: Send with Invalidate invalidates the named R_Key of this PD.
            MemoryRegion *mr = ctx_.lookup_mr(pkt.ieth_rkey);
            if (mr == nullptr || &mr->pd_ != &pd_)
                return false;
            mr->valid_ = false;
            flags |= IBV_WC_WITH_INV;
            inv_rkey = pkt.ieth_rkey;
        }
        complete_recv(r, IBV_WC_SUCCESS, IBV_WC_RECV, msg_off_, flags, pkt.imm, inv_rkey, 0);
        rq_tail_++;
        in_msg_ = InMsg::none;
        msn_ = psn_add(msn_, 1);
        return true;
    }
    if (write) {
        if (first || only) {
            if (check_remote(pkt.reth.rkey, pkt.reth.va, pkt.reth.dma_len, IBV_ACCESS_REMOTE_WRITE) == nullptr &&
                pkt.reth.dma_len != 0) {
                nak = kNakRemAccess;
                return false;
            }
            wr_va_ = pkt.reth.va;
            wr_len_ = pkt.reth.dma_len;
            msg_off_ = 0;
        }
        if (uint64_t(msg_off_) + n > wr_len_ || ((last || only) && msg_off_ + n != wr_len_))
            return false; // length disagrees with the RETH
        if (imm && rq_tail_ == rq_head_) {
            nak = kSynRnrNak | (attr_.min_rnr_timer & 0x1F);
            return false;
        }
        if (n)
            std::memcpy(reinterpret_cast<void *>(static_cast<uintptr_t>(wr_va_ + msg_off_)), payload.data(), n);
        msg_off_ += n;
        in_msg_ = (first || middle) ? InMsg::write : InMsg::none;
        if (imm) {
            RecvWqe &r = rq_[rq_tail_ & rq_mask_];
            complete_recv(r, IBV_WC_SUCCESS, IBV_WC_RECV_RDMA_WITH_IMM, wr_len_, IBV_WC_WITH_IMM, pkt.imm, 0, 0);
            rq_tail_++;
        }
        if (last || only)
            msn_ = psn_add(msn_, 1);
        return true;
    }
    if (uc)
        return false;
    if ((read || cas || faa) &&
        (attr_.max_dest_rd_atomic == 0 || rd_atomic_in_flight() >= attr_.max_dest_rd_atomic)) {
        // rxe RESPST_ERR_TOO_MANY_RDMA_ATM_REQ (IBA class C): more READ/atomic requests
        // outstanding than the responder resources -> Invalid Request NAK (class C).
        ctx_.counters_.rd_atomic_overflow++;
        return false;
    }
    if (read) { // RDMA READ request
        if (pkt.reth.dma_len != 0 &&
            check_remote(pkt.reth.rkey, pkt.reth.va, pkt.reth.dma_len, IBV_ACCESS_REMOTE_READ) == nullptr) {
            nak = kNakRemAccess;
            return false;
        }
        RespItem *it = push_resp(RespKind::read);
        if (it == nullptr) {
            nak = kNakDrop; // no room: drop silently, the requester retries
            return false;
        }
        msn_ = psn_add(msn_, 1);
        it->msn = msn_;
        it->psn = pkt.bth.psn;
        it->va = pkt.reth.va;
        it->len = pkt.reth.dma_len;
        it->total_pkts = std::max<uint32_t>(1, (pkt.reth.dma_len + mtu - 1) / mtu);
        save_resource({true, true, pkt.bth.psn, psn_add(pkt.bth.psn, it->total_pkts - 1), pkt.reth.va,
                       pkt.reth.dma_len, pkt.reth.rkey, 0});
        return true;
    }
    if (cas || faa) { // atomics, IBA 9.4.5
        if (pkt.atomic_eth.va & 7)
            return false; // misaligned: invalid request
        if (check_remote(pkt.atomic_eth.rkey, pkt.atomic_eth.va, 8, IBV_ACCESS_REMOTE_ATOMIC) == nullptr) {
            nak = kNakRemAccess;
            return false;
        }
        RespItem *it = push_resp(RespKind::atomic_ack);
        if (it == nullptr) {
            nak = kNakDrop;
            return false;
        }
        auto *p = reinterpret_cast<uint64_t *>(static_cast<uintptr_t>(pkt.atomic_eth.va));
        uint64_t orig = *p;
        if (cas) {
            if (orig == pkt.atomic_eth.compare)
                *p = pkt.atomic_eth.swap_add;
        } else {
            *p = orig + pkt.atomic_eth.swap_add;
        }
        // Saved for duplicates: a retried atomic must not execute twice (IBA 9.7.5.3).
        save_resource({true, false, pkt.bth.psn, pkt.bth.psn, 0, 0, 0, orig});
        msn_ = psn_add(msn_, 1);
        it->msn = msn_;
        it->psn = pkt.bth.psn;
        it->orig = orig;
        return true;
    }
    return false; // FLUSH, ATOMIC_WRITE, ...: not supported -> invalid request
}

QueuePair::RdResource *QueuePair::find_resource(uint32_t psn)
{
    for (uint32_t i = 0; i < attr_.max_dest_rd_atomic; i++) {
        RdResource &r = rd_res_[i];
        if (r.valid && psn_diff(psn, r.first_psn) >= 0 && psn_diff(psn, r.last_psn) <= 0)
            return &r;
    }
    return nullptr;
}

void QueuePair::save_resource(const RdResource &r)
{
    // Ring of max_dest_rd_atomic entries, oldest overwritten (rxe_prepare_res).
    if (attr_.max_dest_rd_atomic == 0)
        return;
    rd_res_[rd_res_next_ % attr_.max_dest_rd_atomic] = r;
    rd_res_next_ = (rd_res_next_ + 1) % attr_.max_dest_rd_atomic;
}

uint32_t QueuePair::rd_atomic_in_flight() const
{
    // READ responses not fully sent and atomic ACKs not sent: the resources still busy. A
    // requester within its max_rd_atomic (<= our max_dest_rd_atomic) never exceeds them, as
    // it sends a new one only after a response completed.
    uint32_t n = 0;
    for (uint32_t i = resp_head_; i != resp_tail_; i++) {
        const RespItem &o = resp_[i % resp_.size()];
        n += (o.kind == RespKind::read && o.sent_pkts < o.total_pkts) || o.kind == RespKind::atomic_ack;
    }
    return n;
}

void QueuePair::rx_rc_duplicate(const Packet &pkt, uint64_t now)
{
    // IBA 9.7.5.2.2 duplicates: SEND/WRITE re-acknowledged; READ replayed and atomic answered
    // from the saved result, both only from the responder resources (else dropped: class D).
    ctx_.counters_.rx_duplicates++;
    uint32_t psn = pkt.bth.psn;
    uint8_t op = pkt.bth.opcode;
    if (op == u8(Opcode::RC_RDMA_READ_REQUEST)) {
        RdResource *res = find_resource(psn);
        // The re-request asks for a residual of the original READ (rxe duplicate_request()).
        if (res == nullptr || !res->read || pkt.reth.rkey != res->rkey || pkt.reth.va < res->va ||
            pkt.reth.dma_len > res->len || pkt.reth.va - res->va > res->len - pkt.reth.dma_len) {
            ctx_.counters_.dup_no_resource++;
            return;
        }
        if (pkt.reth.dma_len != 0 &&
            check_remote(pkt.reth.rkey, pkt.reth.va, pkt.reth.dma_len, IBV_ACCESS_REMOTE_READ) == nullptr)
            return;
        // Stop an older generation of the same READ still being sent.
        for (uint32_t i = resp_head_; i != resp_tail_; i++) {
            RespItem &o = resp_[i % resp_.size()];
            if (o.kind == RespKind::read && psn_diff(psn, o.psn) >= 0 &&
                psn_diff(psn, psn_add(o.psn, o.total_pkts)) < 0)
                o.total_pkts = o.sent_pkts;
        }
        RespItem *it = push_resp(RespKind::read);
        if (it == nullptr)
            return;
        uint32_t mtu = pmtu();
        it->psn = psn;
        it->va = pkt.reth.va;
        it->len = pkt.reth.dma_len;
        it->total_pkts = std::max<uint32_t>(1, (pkt.reth.dma_len + mtu - 1) / mtu);
        ctx_.counters_.read_replays++;
        return;
    }
    if (op == u8(Opcode::RC_COMPARE_SWAP) || op == u8(Opcode::RC_FETCH_ADD)) {
        RdResource *res = find_resource(psn);
        if (res == nullptr || res->read || res->first_psn != psn) {
            ctx_.counters_.dup_no_resource++;
            return;
        }
        RespItem *it = push_resp(RespKind::atomic_ack);
        if (it != nullptr) {
            it->psn = psn;
            it->orig = res->orig;
            ctx_.counters_.atomic_replays++;
        }
        return;
    }
    // SEND/WRITE: ACK the duplicate's own PSN. epsn - 1 may be a READ's or an atomic's PSN,
    // and an ACK carrying that PSN completes the READ/atomic at an rxe requester with no data
    // (rxe_comp.c: an ACK for a pending WQE's last PSN -> COMPST_COMP_ACK).
    queue_ack(psn, true, now);
}

void QueuePair::rx_rc_request(const Packet &pkt, uint64_t now)
{
    uint32_t psn = pkt.bth.psn;
    int32_t d = psn_diff(psn, epsn_);
    uint8_t op = pkt.bth.opcode;
    if (d > 0) {
        // IBA 9.7.5.2.1: PSN sequence error, NAK once until the expected PSN arrives.
        ctx_.counters_.rx_out_of_sequence++;
        if (!nak_sent_) {
            queue_nak(epsn_, kNakSeq);
            nak_sent_ = true;
        }
        return;
    }
    if (d < 0) {
        rx_rc_duplicate(pkt, now);
        return;
    }
    uint8_t nak = 0;
    if (!execute(pkt, opcode_info(op), now, false, nak)) {
        if (nak == kNakDrop)
            return;
        if (is_rnr(nak)) {
            // RNR NAK: nothing consumed; later packets of this message are dropped silently.
            ctx_.counters_.rnr_naks_sent++;
            queue_nak(psn, nak);
            nak_sent_ = true;
            return;
        }
        // Invalid request / remote access error: NAK, then the QP goes to Error (IBA 9.9.3.1.2
        // responder class C/D errors).
        queue_nak(psn, nak);
        nak_sent_ = true;
        error_after_resp_ = true;
        return;
    }
    nak_sent_ = false;
    if (op == u8(Opcode::RC_RDMA_READ_REQUEST)) {
        RespItem &it = resp_[(resp_tail_ - 1) % resp_.size()];
        epsn_ = psn_add(epsn_, it.total_pkts);
        return;
    }
    epsn_ = psn_add(epsn_, 1);
    if (op == u8(Opcode::RC_COMPARE_SWAP) || op == u8(Opcode::RC_FETCH_ADD))
        return;
    pkts_since_ack_++;
    queue_ack(psn, pkt.bth.ack_req || pkts_since_ack_ >= tuning_.ack_every, now);
}

void QueuePair::rx_uc_request(const Packet &pkt)
{
    uint32_t psn = pkt.bth.psn;
    const uint8_t op = pkt.bth.opcode & kOpOperationMask;
    if (psn != epsn_) {
        // IBA 9.8.3.2.1: lost packets abort the current message; resynchronise on the PSN.
        ctx_.counters_.rx_out_of_sequence++;
        in_msg_ = InMsg::none;
        epsn_ = psn;
        bool continues = false; // MIDDLE or LAST of a message whose start was lost
        for (Opcode o : {Opcode::RC_SEND_MIDDLE, Opcode::RC_SEND_LAST, Opcode::RC_SEND_LAST_WITH_IMMEDIATE,
                         Opcode::RC_RDMA_WRITE_MIDDLE, Opcode::RC_RDMA_WRITE_LAST,
                         Opcode::RC_RDMA_WRITE_LAST_WITH_IMMEDIATE})
            continues |= op == operation(o);
        if (continues) {
            epsn_ = psn_add(psn, 1);
            return;
        }
    }
    epsn_ = psn_add(psn, 1);
    uint8_t nak = 0;
    if (!execute(pkt, opcode_info(pkt.bth.opcode), 0, true, nak)) {
        if (is_rnr(nak))
            ctx_.counters_.rx_no_recv_wqe++;
        else
            ctx_.counters_.rx_bad_opcode++;
        in_msg_ = InMsg::none; // drop the rest of this message
    }
}

void QueuePair::rx_ud_request(const Packet &pkt)
{
    // IBA 10.2.5 / 9.6.1: Q_Key must match, else silently dropped.
    if (pkt.deth.qkey != attr_.qkey) {
        ctx_.counters_.rx_bad_qkey++;
        return;
    }
    if (pkt.payload.size() > pmtu()) {
        ctx_.counters_.rx_malformed++;
        return;
    }
    if (rq_tail_ == rq_head_) {
        ctx_.counters_.rx_no_recv_wqe++;
        return;
    }
    RecvWqe &r = rq_[rq_tail_ & rq_mask_];
    // The first 40 bytes of a UD receive hold the GRH; for RoCE v2 over IPv4 the IPv4 header
    // is in its last 20 bytes (rdma-core ibv_post_recv(3)).
    std::array<uint8_t, kGrhLen> grh{};
    if (pkt.ip_version == IpVersion::v4) {
        uint8_t *h = grh.data() + 20;
        h[0] = 0x45;
        h[1] = pkt.ip4.tos;
        h[2] = uint8_t(pkt.ip4.total_len >> 8);
        h[3] = uint8_t(pkt.ip4.total_len);
        h[8] = pkt.ip4.ttl;
        h[9] = kIpProtoUdp;
        std::copy(pkt.ip4.src.begin(), pkt.ip4.src.end(), h + 12);
        std::copy(pkt.ip4.dst.begin(), pkt.ip4.dst.end(), h + 16);
    } else {
        uint32_t w0 = 6u << 28 | uint32_t(pkt.ip6.traffic_class) << 20 | pkt.ip6.flow_label;
        grh[0] = uint8_t(w0 >> 24);
        grh[1] = uint8_t(w0 >> 16);
        grh[2] = uint8_t(w0 >> 8);
        grh[3] = uint8_t(w0);
        grh[4] = uint8_t(pkt.ip6.payload_len >> 8);
        grh[5] = uint8_t(pkt.ip6.payload_len);
        grh[6] = kIpProtoUdp;
        grh[7] = pkt.ip6.hop_limit;
        std::copy(pkt.ip6.src.begin(), pkt.ip6.src.end(), grh.begin() + 8);
        std::copy(pkt.ip6.dst.begin(), pkt.ip6.dst.end(), grh.begin() + 24);
    }
    uint32_t n = static_cast<uint32_t>(kGrhLen + pkt.payload.size());
    bool imm = pkt.bth.opcode == static_cast<uint8_t>(Opcode::UD_SEND_ONLY_WITH_IMMEDIATE);
    if (!scatter(r.seg, r.nseg, 0, grh) || !scatter(r.seg, r.nseg, kGrhLen, pkt.payload))
        complete_recv(r, IBV_WC_LOC_LEN_ERR, IBV_WC_RECV, n, 0, 0, 0, pkt.deth.src_qp);
    else
        complete_recv(r, IBV_WC_SUCCESS, IBV_WC_RECV, n, IBV_WC_GRH | (imm ? IBV_WC_WITH_IMM : 0), pkt.imm, 0,
                      pkt.deth.src_qp);
    rq_tail_++;
}

unsigned QueuePair::tx_responses(uint64_t now, unsigned budget)
{
    unsigned sent = 0;
    if (!is_rc())
        return 0;
    while (sent < budget && resp_head_ != resp_tail_) {
        RespItem &it = resp_[resp_head_ % resp_.size()];
        Packet pkt;
        switch (it.kind) {
        case RespKind::ack:
        case RespKind::nak:
            if (it.kind == RespKind::ack && !it.ready && now < it.deadline && pkts_since_ack_ < tuning_.ack_every)
                return sent; // coalescing: wait for more packets or the ACK timer
            pkt = make_packet(Opcode::RC_ACKNOWLEDGE);
            fill_headers(pkt, attr_.ah_attr, attr_.dest_qp_num, it.psn);
            pkt.aeth = {it.syndrome, it.msn};
            if (!ctx_.emit(this, pkt))
                return sent;
            if (it.kind == RespKind::ack) {
                ctx_.counters_.acks_sent++;
                pkts_since_ack_ = 0;
            } else if (is_rnr(it.syndrome)) {
                // counted when queued
            } else {
                ctx_.counters_.naks_sent++;
            }
            resp_head_++;
            break;
        case RespKind::atomic_ack:
            pkt = make_packet(Opcode::RC_ATOMIC_ACKNOWLEDGE);
            fill_headers(pkt, attr_.ah_attr, attr_.dest_qp_num, it.psn);
            pkt.aeth = {0, it.msn};
            pkt.atomic_ack_eth.orig = it.orig;
            if (!ctx_.emit(this, pkt))
                return sent;
            resp_head_++;
            break;
        case RespKind::read: {
            if (it.sent_pkts >= it.total_pkts) {
                resp_head_++;
                continue;
            }
            uint32_t mtu = pmtu();
            uint32_t k = it.sent_pkts;
            uint32_t n = std::min(mtu, it.len);
            if (!rate_allows(n + kMaxHdr, now))
                return sent;
            Opcode op = it.total_pkts == 1 ? Opcode::RC_RDMA_READ_RESPONSE_ONLY
                        : k == 0           ? Opcode::RC_RDMA_READ_RESPONSE_FIRST
                        : k + 1 == it.total_pkts ? Opcode::RC_RDMA_READ_RESPONSE_LAST
                                                 : Opcode::RC_RDMA_READ_RESPONSE_MIDDLE;
            pkt = make_packet(op);
            fill_headers(pkt, attr_.ah_attr, attr_.dest_qp_num, psn_add(it.psn, k));
            pkt.aeth = {0, it.msn};
            // Data straight from the registered memory (validated when the request came in).
            pkt.payload = {reinterpret_cast<const uint8_t *>(static_cast<uintptr_t>(it.va)), n};
            if (!ctx_.emit(this, pkt))
                return sent;
            it.sent_pkts++;
            it.va += n;
            it.len -= n;
            if (it.sent_pkts == it.total_pkts)
                resp_head_++;
            break;
        }
        }
        sent++;
    }
    if (resp_head_ == resp_tail_ && error_after_resp_) {
        error_after_resp_ = false;
        to_error();
    }
    return sent;
}

} // namespace gaudi::roce
