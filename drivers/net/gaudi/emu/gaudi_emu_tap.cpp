/* SPDX-License-Identifier: BSD-3-Clause */
#include "gaudi_emu_tap.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <linux/if_tun.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace gaudi::emu {

namespace {

std::string why(const char *call) { return std::string(call) + ": " + strerror(errno); }

/* Brings the interface up through an AF_INET socket (the TAP fd has no flags ioctl). Leaves
 * an interface that is already up alone, so a TAP made by `ip tuntap add ... user U` and set
 * up beforehand works without CAP_NET_ADMIN. */
bool bring_up(const std::string &name, std::string *err)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0) {
		*err = why("socket(AF_INET)");
		return false;
	}
	ifreq ifr{};
	std::strncpy(ifr.ifr_name, name.c_str(), IFNAMSIZ - 1);
	bool ok = true;
	if (ioctl(s, SIOCGIFFLAGS, &ifr) < 0) {
		*err = why("SIOCGIFFLAGS");
		ok = false;
	} else if (!(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(s, SIOCSIFFLAGS, &ifr) < 0) {
			*err = why("SIOCSIFFLAGS IFF_UP");
			ok = false;
		}
	}
	::close(s);
	return ok;
}

} /* namespace */

bool tap_name_valid(const std::string &name)
{
	if (name.empty() || name.size() >= IFNAMSIZ || name == "." || name == "..")
		return false;
	for (char c : name)
		if (c == '/' || c == ':' || c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\0')
			return false;
	return true;
}

std::unique_ptr<TapWire> TapWire::open(const std::string &name, const uint8_t mac[6],
				       const uint8_t port_mac[6], std::string *err)
{
	if (!tap_name_valid(name)) {
		*err = "not a valid interface name (1..15 bytes, no '/', ':', ',' or space)";
		return nullptr;
	}
	std::unique_ptr<TapWire> w(new TapWire());
	w->fd_ = ::open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (w->fd_ < 0) {
		*err = why("open /dev/net/tun");
		return nullptr;
	}
	ifreq ifr{};
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	std::strncpy(ifr.ifr_name, name.c_str(), IFNAMSIZ - 1);
	if (ioctl(w->fd_, TUNSETIFF, &ifr) < 0) {
		*err = why("TUNSETIFF");
		return nullptr;
	}
	w->ifname_.assign(ifr.ifr_name, strnlen(ifr.ifr_name, IFNAMSIZ));

	/* A station address other than the port's: the kernel and the port are two stations on
	 * one cable. The TAP fd takes the ioctl without CAP_NET_ADMIN. */
	ifreq hw{};
	std::strncpy(hw.ifr_name, w->ifname_.c_str(), IFNAMSIZ - 1);
	hw.ifr_hwaddr.sa_family = ARPHRD_ETHER;
	std::memcpy(hw.ifr_hwaddr.sa_data, mac, 6);
	if (ioctl(w->fd_, SIOCSIFHWADDR, &hw) < 0) {
		int e = errno;
		ifreq cur{};
		std::strncpy(cur.ifr_name, w->ifname_.c_str(), IFNAMSIZ - 1);
		if (ioctl(w->fd_, SIOCGIFHWADDR, &cur) < 0 ||
		    std::memcmp(cur.ifr_hwaddr.sa_data, port_mac, 6) == 0) {
			errno = e;
			*err = why("SIOCSIFHWADDR");
			return nullptr;
		}
	}
	if (!bring_up(w->ifname_, err))
		return nullptr;
	return w;
}

void TapWire::send(const uint8_t *data, uint32_t len)
{
	for (;;) {
		ssize_t n = ::write(fd_, data, len);
		if (n == ssize_t(len))
			return;
		if (n < 0 && errno == EINTR)
			continue;
		lost(); /* EAGAIN, EIO (interface down), ...: the frame is gone, as on a cable */
		return;
	}
}

unsigned TapWire::recv(unsigned max)
{
	unsigned n = 0;
	if (max > kBatch)
		max = kBatch;
	while (n < max) {
		ssize_t r = ::read(fd_, rx_slot(n), kRxBufSize);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break; /* EAGAIN: nothing more queued */
		}
		if (r == 0)
			break;
		arrived(n++, uint32_t(r));
	}
	return n;
}

} /* namespace gaudi::emu */
