/* SPDX-License-Identifier: BSD-3-Clause
 * Gaudi2 PMD: what the backends share. See gaudi_backend.h.
 */
#include "gaudi_backend.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/gaudi_hw_defs.h"

namespace gaudi {

int read_fw_file(const std::string &fw_dir, const std::string &name, std::vector<uint8_t> *image,
		 std::string *out_path, std::string *err)
{
	std::string path = fw_dir.empty() ? std::string(hw::kFwSearchDir) + "/" + name
					  : fw_dir + "/" + name.substr(name.rfind('/') + 1);
	*out_path = path;
	/* O_NONBLOCK: a FIFO or device node in the firmware directory must not block the probe;
	 * only a regular file is read. */
	int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	std::string why;
	int e = 0;
	if (fd < 0 || fstat(fd, &st) != 0) {
		e = errno;
		why = strerror(e);
	} else if (!S_ISREG(st.st_mode)) {
		e = EINVAL;
		why = "not a regular file";
	} else if (st.st_size == 0) {
		e = EINVAL;
		why = "empty file";
	}
	if (e != 0) {
		if (fd >= 0)
			close(fd);
		*err = "cannot read firmware file " + path + ": " + why;
		return -e;
	}
	image->resize(static_cast<size_t>(st.st_size));
	size_t got = 0;
	while (got < image->size()) {
		ssize_t r = read(fd, image->data() + got, image->size() - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			e = r < 0 ? errno : EIO;
			close(fd);
			image->clear();
			*err = "cannot read firmware file " + path + ": " + strerror(e);
			return -e;
		}
		got += static_cast<size_t>(r);
	}
	close(fd);
	return 0;
}

} /* namespace gaudi */
