// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — libheif (HEIC through libde265, AVIF through dav1d or libaom), as one module for Swift.
#ifndef LOOKAHEAD_CHEIF_SHIM_H
#define LOOKAHEAD_CHEIF_SHIM_H
#include <libheif/heif.h>
#endif
