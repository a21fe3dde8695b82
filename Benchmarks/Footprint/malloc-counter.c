// Counts heap allocations for Benchmarks/Footprint (LD_PRELOAD, built by scripts/footprint): every malloc, calloc,
// realloc and posix_memalign / aligned_alloc call goes through here to glibc's own, and bumps one counter that the
// benchmark reads through reception_footprint_allocations().
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stddef.h>

static _Atomic unsigned long long allocations;

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

unsigned long long reception_footprint_allocations(void) { return atomic_load(&allocations); }

void *malloc(size_t size) { atomic_fetch_add(&allocations, 1); return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { atomic_fetch_add(&allocations, 1); return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { atomic_fetch_add(&allocations, 1); return __libc_realloc(pointer, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    atomic_fetch_add(&allocations, 1);
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return 12;  // ENOMEM
    *out = pointer;
    return 0;
}
void *aligned_alloc(size_t alignment, size_t size) { atomic_fetch_add(&allocations, 1); return __libc_memalign(alignment, size); }
