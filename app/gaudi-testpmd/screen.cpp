/* SPDX-License-Identifier: BSD-3-Clause
 * gaudi-testpmd: the live view (screen.h).
 */
#include <cinttypes>
#include <cstdio>
#include <string>

#include <unistd.h>

#include "app.h"
#include "rfc2544.h"
#include "screen.h"

namespace gtp {

bool screen_wanted(const Run &r)
{
	const Config &c = r.cfg;
	if (c.quiet || c.interactive || c.stats_period <= 0)
		return false;
	return c.screen >= 0 ? c.screen == 1 : isatty(STDOUT_FILENO) == 1;
}

/* Share of the line rate: frames with their preamble, inter-frame gap and FCS
 * (wire_len), at the port's link speed. Negative when the speed is unknown. */
static double pct_line(const Run &r, size_t k, double pps, double bps)
{
	uint64_t mbps = line_mbps(r, k);
	if (!mbps)
		return -1;
	double len = pps > 0 ? bps / 8 / pps : 0;
	return pps * wire_len(len, r.ports[k].min_frame) * 8 / (double(mbps) * 1e6) * 100;
}

static void pct_cell(char *b, size_t n, double pct)
{
	if (pct < 0)
		snprintf(b, n, "%7s", "?");
	else
		snprintf(b, n, "%6.2f%%", pct);
}

void live_show(const Run &r, const Sampler &sampler, const Sample &smp, bool screen, bool last)
{
	if (!screen) {
		double pps = target_pps(r);
		for (size_t k = 0; k < r.ports.size(); k++) {
			const PortSample &ps = smp.ports[k];
			printf("[%7.1fs] port %u  rx %s %8.3f Gbit/s  tx %s %8.3f "
			       "Gbit/s  drops %" PRIu64 "  errors %" PRIu64 "\n",
			       smp.t, r.ports[k].id, pps_text(ps.rx_pps).c_str(), ps.rx_bps / 1e9,
			       pps_text(ps.tx_pps).c_str(), ps.tx_bps / 1e9, ps.drops, ps.errors);
			/* Short of the target in a whole period: whose limit it was. */
			std::string why = is_generator(r.cfg.mode) && !last
						  ? port_shortfall(r, r.ports[k], pps, ps.tx_pps)
						  : "";
			/* A frame more or less in a period is where its edge fell, not a
			 * shortfall (10 frames/s: 11, 9, 11 frames in successive seconds). */
			if ((pps - ps.tx_pps) * r.cfg.stats_period < 1.5)
				why.clear();
			if (!why.empty())
				printf("          port %u: target %s, achieved %s: %s\n",
				       r.ports[k].id, fps_text(pps).c_str(),
				       fps_text(ps.tx_pps).c_str(), why.c_str());
		}
		fflush(stdout);
		return;
	}
	/* ANSI: cursor home, clear the screen (ECMA-48 CUP, ED). */
	printf("\033[H\033[2J");
	printf("%s  %s  %.1f s%s   (Ctrl-C stops)\n\n", kProg, mode_name(r.cfg.mode), smp.t,
	       last ? ", stopped" : "");
	printf("%-5s %14s %9s %8s %14s %9s %8s %10s %10s %14s %14s\n", "port", "rx pps", "rx Gb/s",
	       "rx line", "tx pps", "tx Gb/s", "tx line", "drops", "errors", "rx total",
	       "tx total");
	for (size_t k = 0; k < r.ports.size(); k++) {
		const PortSample &ps = smp.ports[k];
		char rxl[16], txl[16];
		pct_cell(rxl, sizeof(rxl), pct_line(r, k, ps.rx_pps, ps.rx_bps));
		pct_cell(txl, sizeof(txl), pct_line(r, k, ps.tx_pps, ps.tx_bps));
		const rte_eth_stats &tot = sampler.last[k];
		printf("%-5u %14.0f %9.3f %8s %14.0f %9.3f %8s %10" PRIu64 " %10" PRIu64
		       " %14" PRIu64 " %14" PRIu64 "\n",
		       r.ports[k].id, ps.rx_pps, ps.rx_bps / 1e9, rxl, ps.tx_pps, ps.tx_bps / 1e9,
		       txl, ps.drops, ps.errors, tot.ipackets, tot.opackets);
	}
	printf("\nrates over the last%s period; line: %% of the link speed, with preamble, "
	       "inter-frame gap and FCS\n",
	       last ? " (partial)" : "");
	fflush(stdout);
}

} /* namespace gtp */
