/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: telemetry of net_gaudi_emu's model (/gaudi_emu/profile, /gaudi_emu/seq).
 */
#include <array>
#include <cerrno>
#include <cstdlib>

#include <ethdev_driver.h>
#include <rte_cycles.h>
#include <rte_telemetry.h>

#include "gaudi_compat.h"
#include "gaudi_ethdev.h"
#include "gaudi_vdev.h"

using namespace gaudi;

namespace {

/* Telemetry of the model behind an open emulated port: params is the ethdev port id; read(m,
 * nic_port) runs on the model in the primary only, through gaudi_open_adapter under
 * gaudi_adapter_lock, so nothing of a port closed or released meanwhile is read. -EINVAL for
 * a bad id or no open port of this driver, -ENOTSUP in a secondary. */
template <typename Read>
int tel_model(const char *params, unsigned long *pid, Read read)
{
	char *end = nullptr;
	if (params == nullptr || *params < '0' || *params > '9')
		return -EINVAL;
	*pid = strtoul(params, &end, 10);
	if (*end != '\0' || *pid >= RTE_MAX_ETHPORTS)
		return -EINVAL;
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return -ENOTSUP;
	rte_spinlock_lock(&gaudi_adapter_lock);
	const gaudi_adapter *ad = gaudi_open_adapter(uint16_t(*pid));
	const emu::Device *model =
		ad != nullptr ? gaudi_vdev_model(ad, rte_eth_devices[*pid].device) : nullptr;
	const bool ours = model != nullptr;
	if (ours)
		read(*model, gaudi_hw(&rte_eth_devices[*pid]).id());
	rte_spinlock_unlock(&gaudi_adapter_lock);
	return ours ? 0 : -EINVAL;
}

/* [profile] telemetry /gaudi_emu/profile,<port id>: what Config::profile counted for the
 * model behind an open emulated port (one count per device, shared by its ports), with the
 * TSC rate. */
int tel_profile(const char *cmd, const char *params, rte_tel_data *d)
{
	(void)cmd;
	unsigned long pid = 0;
	emu::Device::Profile pr;
	int rc = tel_model(params, &pid, [&](const emu::Device &m, unsigned) { pr = m.profile(); });
	if (rc != 0)
		return rc;
	rte_tel_data_start_dict(d);
	gaudi_tel_dict_add_uint(d, "port_id", pid);
	gaudi_tel_dict_add_uint(d, "profile", pr.on ? 1 : 0);
	gaudi_tel_dict_add_uint(d, "tsc_cycles", pr.tsc_cycles);
	gaudi_tel_dict_add_uint(d, "accesses", pr.accesses);
	gaudi_tel_dict_add_uint(d, "tsc_hz", rte_get_tsc_hz());
	return 0;
}

/* [seq_check] telemetry /gaudi_emu/seq,<port id>: whether the model checks the bring-up
 * sequence, the steps the port misses now (bit per emu::SeqStep), per step the frames or
 * writes refused for it, and the device's register-map counts. */
int tel_seq(const char *cmd, const char *params, rte_tel_data *d)
{
	(void)cmd;
	unsigned long pid = 0;
	bool on = false;
	uint32_t missing = 0;
	std::array<uint64_t, emu::kSeqSteps> refused{};
	uint64_t violations = 0, unpublished = 0, unmodeled = 0;
	int rc = tel_model(params, &pid, [&](const emu::Device &m, unsigned nic_port) {
		on = m.seq_check();
		violations = m.map_violations();
		unpublished = m.unpublished_values();
		unmodeled = m.unmodeled_accesses();
		missing = m.seq_missing(nic_port);
		for (unsigned s = 0; s < emu::kSeqSteps; s++)
			refused[s] = m.seq_refused(nic_port, emu::SeqStep(s));
	});
	if (rc != 0)
		return rc;
	rte_tel_data_start_dict(d);
	gaudi_tel_dict_add_uint(d, "port_id", pid);
	gaudi_tel_dict_add_uint(d, "seq_check", on ? 1 : 0);
	gaudi_tel_dict_add_uint(d, "missing", missing);
	for (unsigned s = 0; s < emu::kSeqSteps; s++)
		gaudi_tel_dict_add_uint(d, emu::seq_step_name(emu::SeqStep(s)), refused[s]);
	/* The device's (all its ports'): accesses outside the published map (devarg strict),
	 * values the public driver never writes to a traffic register (each logged once), and
	 * accesses to published registers the model stores without modelling them. */
	gaudi_tel_dict_add_uint(d, "map_violations", violations);
	gaudi_tel_dict_add_uint(d, "unpublished_values", unpublished);
	gaudi_tel_dict_add_uint(d, "unmodeled_accesses", unmodeled);
	return 0;
}
} /* namespace */

/* Help texts stay under RTE_TEL_MAX_STRING_LEN (128): a longer one fails registration. */
RTE_INIT(gaudi_emu_telemetry)
{
	rte_telemetry_register_cmd("/gaudi_emu/profile", tel_profile,
				   "TSC cycles the driver spent in the emulated NIC's model "
				   "(devarg profile=1). Parameters: int port_id");
	rte_telemetry_register_cmd(
		"/gaudi_emu/seq", tel_seq,
		"Emulated NIC bring-up checks: steps missing, refusals per step, "
		"register-map counts. Parameters: int port_id");
}
