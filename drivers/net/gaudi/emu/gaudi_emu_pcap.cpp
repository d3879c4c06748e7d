/* SPDX-License-Identifier: BSD-3-Clause */
#include "gaudi_emu_pcap.h"
#include "gaudi_emu_frame.h"
#include "gaudi_emu_log.h"

#include <cinttypes>
#include <cstring>

#include <rte_log.h>

#include <sys/time.h>

namespace gaudi::emu {

namespace {

constexpr int kSnapLen = 262144;

pcap_t *open_offline(const std::string &path, std::string *err)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	pcap_t *h = pcap_open_offline(path.c_str(), ebuf);
	if (h == nullptr) {
		*err = path + ": " + ebuf;
		return nullptr;
	}
	if (pcap_datalink(h) != DLT_EN10MB) {
		const char *lt = pcap_datalink_val_to_name(pcap_datalink(h));
		*err = path + ": link type " + (lt ? lt : std::to_string(pcap_datalink(h))) +
		       " is not Ethernet (EN10MB)";
		pcap_close(h);
		return nullptr;
	}
	return h;
}

} /* namespace */

std::unique_ptr<PcapSource> PcapSource::open(const std::string &path, std::string *err)
{
	/* Count the records first so the model can report how many are still to come. */
	pcap_t *h = open_offline(path, err);
	if (h == nullptr)
		return nullptr;
	uint64_t n = 0;
	struct pcap_pkthdr *hdr;
	const u_char *data;
	int rc;
	while ((rc = pcap_next_ex(h, &hdr, &data)) == 1)
		n++;
	if (rc == PCAP_ERROR) /* a damaged file: deliver what is readable, and say so once */
		rte_log(RTE_LOG_WARNING, gaudi_emu_logtype,
			"gaudi_emu: rx pcap %s: %s after %" PRIu64
			" frames; only those are delivered\n",
			path.c_str(), pcap_geterr(h), n);
	pcap_close(h);

	h = open_offline(path, err);
	if (h == nullptr)
		return nullptr;
	std::unique_ptr<PcapSource> s(new PcapSource());
	s->h_ = h;
	s->remaining_ = n;
	return s;
}

PcapSource::~PcapSource()
{
	if (h_ != nullptr)
		pcap_close(h_);
}

bool PcapSource::peek(const uint8_t **data, uint32_t *len)
{
	if (!have_) {
		if (remaining_ == 0)
			return false;
		struct pcap_pkthdr *hdr;
		const u_char *d;
		if (pcap_next_ex(h_, &hdr, &d) != 1) {
			remaining_ = 0; /* read error or early end: nothing more to deliver */
			return false;
		}
		data_ = d;
		len_ = hdr->caplen; /* truncated records are delivered as captured */
		if (len_ < hw::kMinFrameNoFcs) { /* see pad_like_sender_mac */
			len_ = pad_like_sender_mac(pad_, d, len_);
			data_ = len_ == hw::kMinFrameNoFcs ? pad_ : d;
		}
		have_ = true;
	}
	*data = data_;
	*len = len_;
	return true;
}

void PcapSource::pop()
{
	if (have_) {
		have_ = false;
		remaining_--;
	}
}

std::unique_ptr<PcapSink> PcapSink::open(const std::string &path, std::string *err)
{
	pcap_t *dead = pcap_open_dead(DLT_EN10MB, kSnapLen);
	if (dead == nullptr) {
		*err = path + ": pcap_open_dead failed";
		return nullptr;
	}
	pcap_dumper_t *d = pcap_dump_open(dead, path.c_str());
	if (d == nullptr) {
		*err = path + ": " + pcap_geterr(dead);
		pcap_close(dead);
		return nullptr;
	}
	std::unique_ptr<PcapSink> s(new PcapSink());
	s->dead_ = dead;
	s->dumper_ = d;
	return s;
}

PcapSink::~PcapSink()
{
	if (dumper_ != nullptr)
		pcap_dump_close(dumper_); /* flushes */
	if (dead_ != nullptr)
		pcap_close(dead_);
}

void PcapSink::write(const uint8_t *data, uint32_t len)
{
	struct pcap_pkthdr hdr {};
	gettimeofday(&hdr.ts, nullptr);
	hdr.caplen = len;
	hdr.len = len;
	pcap_dump(reinterpret_cast<u_char *>(dumper_), &hdr, data);
}

void PcapSink::flush() { pcap_dump_flush(dumper_); }

} /* namespace gaudi::emu */
