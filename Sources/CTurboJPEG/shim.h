// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — the libjpeg-turbo (TurboJPEG API) headers, as one module for Swift.
#ifndef LOOKAHEAD_CTURBOJPEG_SHIM_H
#define LOOKAHEAD_CTURBOJPEG_SHIM_H
#include <turbojpeg.h>

/// `TJSCALED` is a function-like macro, which Swift cannot see.
static inline int lookahead_tj_scaled(int dimension, tjscalingfactor factor) {
    return TJSCALED(dimension, factor);
}
#endif
