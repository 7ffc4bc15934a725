// Transparent huge pages for the simulator's heap (docs/performance.md "Huge pages").
#pragma once

namespace lossless {

// Re-executes this program with glibc's malloc asked to back its heap with transparent huge pages
// (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), unless that is already asked for, LOSSLESS_HUGE_PAGES=0 opts out
// (1: the default; any other value exits 2), the kernel has transparent huge pages off, or the program runs
// under valgrind (an exec would leave its instrumentation behind). Returns only when it does not re-execute.
// Call it first in main, before any allocation worth having on huge pages.
void reexec_with_huge_pages(char** argv);

}  // namespace lossless
