// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — libspng, as one module for Swift.
#ifndef LOOKAHEAD_CSPNG_SHIM_H
#define LOOKAHEAD_CSPNG_SHIM_H
#include <spng.h>
#endif
