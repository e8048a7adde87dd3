#ifndef C_ALLOCATION_COUNTER_H
#define C_ALLOCATION_COUNTER_H
#include <stdint.h>

/// Number of heap allocations (malloc, calloc, realloc, aligned allocations) since the process started.
/// Only counts on Linux/glibc, where this target wraps the allocator; elsewhere it returns 0.
uint64_t ck_allocation_count(void);

/// Whether allocations are being counted on this platform.
int ck_allocation_counting_available(void);

#endif
