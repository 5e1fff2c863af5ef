// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — Debian's libxxhash (xxhash.h), as one module for Swift: XXH3-64 checksums the disk cache's data.
#ifndef LOOKAHEAD_CXXHASH_SHIM_H
#define LOOKAHEAD_CXXHASH_SHIM_H
#include <xxhash.h>
#endif
