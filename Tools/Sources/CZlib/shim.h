// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead fixtures — zlib, for the compression-bomb route.
#ifndef LOOKAHEAD_CZLIB_SHIM_H
#define LOOKAHEAD_CZLIB_SHIM_H
#include <zlib.h>

/// `deflateInit2` is a macro, which Swift cannot see.
static inline int lookahead_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
}
#endif
