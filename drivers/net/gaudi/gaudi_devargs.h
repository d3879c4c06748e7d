/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: devargs of net_gaudi_emu.
 */
#pragma once

#include <string>

#include "emu/gaudi_emu.h"

/* Parse devargs into a model configuration; on error returns false with a reason that names
 * the devarg. */
bool gaudi_parse_devargs(const char *args, gaudi::emu::Config *cfg, std::string *err);
