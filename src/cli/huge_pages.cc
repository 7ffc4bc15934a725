#include "cli/huge_pages.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace lossless {

// Why: the packets in flight, the ports' and buffers' state and the event lanes of a large fabric are spread
// over tens of megabytes that every packet-hop touches at random, so with 4 KiB pages nearly every touch also
// misses the TLB (a two-level page walk in a virtual machine). Huge pages cut that: fattree k = 24, 0.2 ms,
// one thread, -20 % wall; fat320 DCQCN -5..-8 %, HPCC -10 % (docs/performance.md). glibc reads its tunables
// once, when the process starts, hence the exec; nothing the simulation computes depends on where memory is.
void reexec_with_huge_pages(char** argv) {
  const char* opt = std::getenv("LOSSLESS_HUGE_PAGES");
  if (opt && std::strcmp(opt, "0") != 0 && std::strcmp(opt, "1") != 0) {
    std::fprintf(stderr,
                 "lossless: error: environment variable LOSSLESS_HUGE_PAGES: expected 0 (off) or 1 (on), got "
                 "'%s'\n",
                 opt);
    std::exit(2);
  }
  if (opt && std::strcmp(opt, "0") == 0) return;
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables && std::strstr(tunables, "glibc.malloc.hugetlb")) return;  // asked for already (or by us)
  const char* preload = std::getenv("LD_PRELOAD");
  if (preload && std::strstr(preload, "vgpreload")) return;  // valgrind
  std::ifstream thp("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode;
  if (!std::getline(thp, mode) || mode.find("[never]") != std::string::npos) return;
  const std::string value =
      tunables && *tunables ? std::string(tunables) + ":glibc.malloc.hugetlb=1" : "glibc.malloc.hugetlb=1";
  if (setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  // The exec failed: run as we are. The variable stays set, so that the programs this one starts (`lossless
  // reproduce`'s runs) do not try again.
}

}  // namespace lossless
