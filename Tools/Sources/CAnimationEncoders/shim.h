// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead fixtures — giflib's and libwebp's encoders (and libwebpmux's animation encoder), as one module for Swift.
#ifndef LOOKAHEAD_CANIMATIONENCODERS_SHIM_H
#define LOOKAHEAD_CANIMATIONENCODERS_SHIM_H
#include <gif_lib.h>
#include <webp/encode.h>
#include <webp/mux.h>
#endif
