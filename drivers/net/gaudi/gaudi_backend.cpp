/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: what the backends share. See gaudi_backend.h.
 */
#include "gaudi_backend.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <sys/stat.h>

#include "base/gaudi_hw_defs.h"

namespace gaudi {

int read_fw_file(const std::string &fw_dir, const std::string &name, std::vector<uint8_t> *image,
		 std::string *err)
{
	std::string path = fw_dir.empty() ? std::string(hw::kFwSearchDir) + "/" + name
					  : fw_dir + "/" + name.substr(name.rfind('/') + 1);
	FILE *f = fopen(path.c_str(), "rbe");
	struct stat st;
	int e = 0;
	if (f == nullptr || fstat(fileno(f), &st) != 0)
		e = errno;
	else if (!S_ISREG(st.st_mode))
		e = EISDIR;
	if (e != 0) {
		if (f != nullptr)
			fclose(f);
		*err = "cannot read firmware file " + path + ": " + strerror(e);
		return -e;
	}
	image->resize(static_cast<size_t>(st.st_size));
	size_t got = image->empty() ? 0 : fread(image->data(), 1, image->size(), f);
	e = ferror(f) ? EIO : 0;
	fclose(f);
	if (e != 0 || got != image->size() || image->empty()) {
		*err = "cannot read firmware file " + path + ": " +
		       (image->empty() ? "empty file" : strerror(e != 0 ? e : EIO));
		image->clear();
		return e != 0 ? -e : -EIO;
	}
	return 0;
}

} // namespace gaudi
