// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — giflib, as one module for Swift.
#ifndef LOOKAHEAD_CGIF_SHIM_H
#define LOOKAHEAD_CGIF_SHIM_H
#include <gif_lib.h>
#endif
