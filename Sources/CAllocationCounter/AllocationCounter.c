// Counts heap allocations for the benchmark executable only, by wrapping glibc's allocator entry points.
// Linked into `completionkit-bench` and nothing else, so the server and tests use the plain allocator.
#include "CAllocationCounter.h"

#if defined(__linux__) && defined(__GLIBC__)
#include <stddef.h>
#include <errno.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static uint64_t allocations = 0;

void *malloc(size_t size) {
  __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED);
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED);
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED);
  return __libc_realloc(pointer, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
  __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED);
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL) return ENOMEM;
  *out = pointer;
  return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
  __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED);
  return __libc_memalign(alignment, size);
}

uint64_t ck_allocation_count(void) { return __atomic_load_n(&allocations, __ATOMIC_RELAXED); }
int ck_allocation_counting_available(void) { return 1; }
#else
uint64_t ck_allocation_count(void) { return 0; }
int ck_allocation_counting_available(void) { return 0; }
#endif
