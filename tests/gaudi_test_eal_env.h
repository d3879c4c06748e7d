/* SPDX-License-Identifier: BSD-3-Clause
 * The EAL environment of a GoogleTest binary (one per binary), for the binaries that drive the
 * model directly as well as those that link the PMD (gaudi_test_eal.h builds on this one).
 */
#ifndef GAUDI_TEST_EAL_ENV_H
#define GAUDI_TEST_EAL_ENV_H

#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <vector>

#include <gtest/gtest.h>

#include <rte_eal.h>
#include <rte_errno.h>

namespace gaudi_test {

/* EAL for one test binary:
 *   <prog> --no-huge -m <mem_mb> --no-shconf --no-pci --iova-mode=va
 *          --log-level=lib.eal:error <log_levels...>
 * Hooks: preflight() (checks before anything starts), before_init()
 * (e.g. unshare before EAL starts threads), after_init() (e.g. dlsym, shared ports) and
 * before_cleanup(). Without EAL nothing can be tested: fail loudly, never skip. */
class EalEnvBase : public ::testing::Environment {
public:
	EalEnvBase(const char *prog, const char *mem_mb,
		   std::initializer_list<const char *> log_levels)
	    : argv_{prog,
		    "--no-huge",
		    "-m",
		    mem_mb,
		    "--no-shconf",
		    "--no-pci",
		    "--iova-mode=va",
		    "--log-level=lib.eal:error"}
	{
		argv_.insert(argv_.end(), log_levels.begin(), log_levels.end());
	}
	void SetUp() override
	{
		preflight();
		before_init();
		if (rte_eal_init(int(argv_.size()), const_cast<char **>(argv_.data())) < 0) {
			fprintf(stderr, "rte_eal_init failed: %s\n", rte_strerror(rte_errno));
			std::exit(1);
		}
		after_init();
	}
	void TearDown() override
	{
		before_cleanup();
		rte_eal_cleanup();
	}

protected:
	virtual void preflight() {}
	virtual void before_init() {}
	virtual void after_init() {}
	virtual void before_cleanup() {}

private:
	std::vector<const char *> argv_;
};

/* Registers env as the binary's only EAL environment (gtest owns it). */
inline const ::testing::Environment *register_eal_env(EalEnvBase *env)
{
	return ::testing::AddGlobalTestEnvironment(env);
}

} /* namespace gaudi_test */

#endif /* GAUDI_TEST_EAL_ENV_H */
