/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 NIC PHY (SerDes) bring-up, host side: the MCU mailbox, the PHY firmware load, the
 * port power-up in the F/W-driven mode (no auto-negotiation / link training), the TX driver
 * and the F/W tuning state. The same code runs on silicon and on the model, through the NIC
 * register window (base/gaudi_serdes.h for the registers).
 *
 * Source: hbl_cn/gaudi2/gaudi2_cn_phy.c (HabanaAI/drivers.gpu.linux-nic.kernel); each method
 * names the function it follows. Control path only: bring-up and dev_start may sleep in the
 * polls (PhyTimings), the datapath never calls here.
 */
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "gaudi_bar.h"
#include "gaudi_hw_defs.h"

namespace gaudi::hw {

/* Data rate of a lane [hbl_cn NIC_DR_*]: a 100G port runs 2 lanes of NIC_DR_50 (PAM4), as
 * hbl_cn.c get_data_rate chooses for SPEED_100000; NIC_DR_25 is NRZ. */
enum class PhyRate { dr10, dr25, dr50 };

/* Waits of the bring-up. Silicon: gaudi2_cn_phy.c's (usleep_range lower bounds, msleep) and
 * its poll bound of NIC_PHY_READ_COUNTS_PER_MS polls; the model answers within the register
 * access, so short ones there. */
struct PhyTimings {
	uint32_t cmd_poll_us = 1000;	     /* fw_cmd: usleep_range(1000, 2000) */
	uint32_t load_poll_us = 10000;	     /* FW2 poll: usleep_range(10000, 20000) */
	uint32_t section_poll_us = 1000;     /* FW0 poll per section */
	uint32_t max_polls = 100000;	     /* NIC_PHY_READ_COUNTS_PER_MS */
	uint32_t settle_us = 500;	     /* usleep_range(500, 1000) */
	uint32_t unload_us = 100000;	     /* fw_unload_all msleep(100) */
	uint32_t exec_us = 500000;	     /* msleep(500) after the entry point */
	uint32_t pll_wait_us = 100000;	     /* fw_config msleep(100) before the MAC TX reset */
	uint32_t mac_tx_reset_us = 100000;   /* reset_mac_tx msleep(100) */
	uint32_t toggle_us = 1000;	     /* fw_unload_all usleep_range(1000, 2000) */
	/* The link-state machine [gaudi2_cn_phy_link_status_work]. */
	uint32_t tuning_interval_us = 100000;	 /* NIC_PHY_FW_TUNING_INTERVAL_MS */
	uint32_t tuning_timeout_us = 30000000;	 /* NIC_PHY_FW_TUNING_TIMEOUT_MS */
	uint32_t steady_interval_us = 1000000;	 /* NIC_PHY_PCS_STEADY_STATE_INT_MS */
	uint32_t pcs_down_limit = 5;		 /* NIC_PHY_PCS_LINK_DOWN_TH_S samples */
};

enum class PhyErr {
	ok = 0,
	image,	      /* the file is not a PHY image (too short, length past the end) */
	load_timeout, /* FW2 or FW0 never acknowledged during the load */
	cmd_timeout,  /* the MCU did not answer a mailbox command */
	cmd_error,    /* the MCU answered with another response code */
	old_fw,	      /* CRC 0x1723: the init refuses it (gaudi2_cn_phy_init) */
	rate,	      /* a data rate the power-up does not support */
};

/* The parsed header of a PHY image [gaudi2_cn_phy_fw_load_all]: 4 KB in, big-endian entry
 * point (+8), length in bytes (+12) and RAM address (+16); data from +20 as BE16 words. */
struct PhyImage {
	uint32_t entry = 0;
	uint32_t length = 0;
	uint32_t ram_addr = 0;
	std::span<const uint8_t> data; /* from +20 to the end of the file */
};

class Phy {
public:
	using SleepFn = void (*)(uint32_t us);
	/* ports_mask: the ports whose SerDes the load writes (hbl_cn's ports_mask). */
	Phy(Bar &nic, uint64_t ports_mask, const PhyTimings &t, SleepFn sleep = nullptr);

	/* ---- Board description from NIC_INFO_GET [gaudi2_cn_phy_init, use_fw_serdes_info] ---- */
	/* set_fw_lane_mapping: tx_swap_map of each macro -> PHY_ASYNC_LANE_SWAP value. */
	void set_lane_map(std::span<const uint16_t> tx_swap_map);
	/* hbl_cn_phy_set_fw_polarity: pol_tx_mask[0] / pol_rx_mask[0]. */
	void set_polarity(uint64_t tx, uint64_t rx)
	{
		pol_tx_ = tx;
		pol_rx_ = rx;
	}
	uint32_t lane_swap(unsigned macro) const { return macro < kMacros ? lane_map_[macro] : 0; }

	/* ---- Firmware [gaudi2_cn_phy_fw_load_all, gaudi2_cn_phy_init] ---- */
	static bool parse_image(std::span<const uint8_t> file, PhyImage *img, std::string *err);
	/* Unload, load the image into every SerDes of ports_mask, start it, read CRC and hash,
	 * enable the MCU calibration. source names the image in messages, after "PHY firmware"
	 * ("file /lib/firmware/...", "built-in image"). */
	PhyErr load_firmware(std::span<const uint8_t> file, const std::string &source);
	/* The init's check of the running F/W: refuses CRC 0x1723. */
	PhyErr check_firmware();
	uint32_t fw_crc() const { return crc_; }
	uint32_t fw_hash() const { return hash_; }

	/* ---- Ports ---- */
	/* gaudi2_cn_phy_reset_macro: reference clock on (PHY_IDDQ_0/1 = 0), both ports reset. */
	void reset_macro(unsigned macro);
	/* mac_lane_remap: the macro's PHY_ASYNC_LANE_SWAP, when the board remaps. */
	void lane_remap(unsigned port);
	/* gaudi2_cn_phy_port_power_up without auto-negotiation: reset, fw_config. */
	PhyErr power_up(unsigned port, PhyRate rate);
	/* gaudi2_cn_phy_port_start_stop: TX driver on; off and F/W RX tuning silenced. */
	void port_start_stop(unsigned port, bool start);
	/* fw_tuning on both lanes: true once the F/W reports the lanes tuned. */
	bool tuned(unsigned port, PhyRate rate);

	/* ---- Mailbox [fw_cmd, rv_debug, get_fw_reg, set_fw_reg] ---- */
	PhyErr fw_cmd(unsigned port, uint32_t cmd, const uint32_t *detail, uint32_t expected,
		      uint32_t *res);
	uint32_t rv_debug(unsigned port, unsigned lane, uint32_t mode, uint32_t index);
	uint32_t get_fw_reg(unsigned port, uint32_t addr);
	PhyErr set_fw_reg(unsigned port, uint32_t addr, uint32_t val);

	/* The last failure, one line. */
	const std::string &error() const { return err_; }

	/* Register access of a port's SerDes window (r: offset in the window). */
	uint32_t rd(unsigned port, uint32_t r) const;
	void wr(unsigned port, uint32_t r, uint32_t v);
	void rmw(unsigned port, uint32_t r, uint32_t val, uint32_t mask);
	uint32_t rd_lane(unsigned port, unsigned lane, uint32_t r) const;
	void wr_lane(unsigned port, unsigned lane, uint32_t r, uint32_t v);
	void rmw_lane(unsigned port, unsigned lane, uint32_t r, uint32_t val, uint32_t mask);

private:
	void sleep(uint32_t us) const;
	void write_all(uint32_t r, uint32_t v);
	void write_all_lanes(uint32_t r, uint32_t v);
	void domain_reset(unsigned port, uint32_t v);
	void port_reset(unsigned port);
	void fw_unload_all();
	PhyErr fw_config(unsigned port, PhyRate rate);
	PhyErr config_lane(unsigned port, unsigned lane, bool pam4);
	PhyErr set_pll(unsigned port, unsigned lane, PhyRate rate, bool rx);
	void set_tx_taps(unsigned port, unsigned lane, bool pam4);
	void reset_mac_tx(unsigned port);
	PhyErr fail(PhyErr e, std::string msg);

	Bar &nic_;
	uint64_t ports_mask_;
	PhyTimings t_;
	SleepFn sleep_;
	uint64_t pol_tx_ = 0, pol_rx_ = 0;
	uint32_t lane_map_[kMacros] = {};
	uint32_t crc_ = 0, hash_ = 0;
	std::string err_;
};

} /* namespace gaudi::hw */
