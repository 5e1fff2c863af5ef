// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — Debian's libxxhash (xxhash.h), as one module for Swift: XXH3-64 checksums the disk cache's data.
#ifndef LOOKAHEAD_CXXHASH_SHIM_H
#define LOOKAHEAD_CXXHASH_SHIM_H
#include <stddef.h>
#include <xxhash.h>

#if defined(__x86_64__)
// libxxhash's runtime dispatch (xxh_x86dispatch.h): the same XXH3 value, computed with the widest vector unit the
// CPU has (AVX2, AVX-512) instead of the SSE2 the library is compiled for. Weak, so that a libxxhash built without
// it still links, and the baseline is used.
extern XXH64_hash_t XXH3_64bits_dispatch(const void *input, size_t length) __attribute__((weak));
#endif

/// XXH3-64 (seed 0) of `length` bytes, by the fastest code libxxhash has for this CPU.
static inline XXH64_hash_t lookahead_xxh3_64(const void *input, size_t length) {
#if defined(__x86_64__)
    if (XXH3_64bits_dispatch != NULL) return XXH3_64bits_dispatch(input, length);
#endif
    return XXH3_64bits(input, length);
}
#endif
