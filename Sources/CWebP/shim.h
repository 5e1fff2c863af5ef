// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — libwebp (decoding, demuxing; encoding and muxing for tests and tools), as one module for Swift.
#ifndef LOOKAHEAD_CWEBP_SHIM_H
#define LOOKAHEAD_CWEBP_SHIM_H
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>
#include <webp/mux.h>
#endif
