// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — Little CMS 2 (colour management), as one module for Swift. The pixel formats are function-like macros,
// which Swift cannot import: they are given here as constants.
#ifndef LOOKAHEAD_CLCMS_SHIM_H
#define LOOKAHEAD_CLCMS_SHIM_H
#include <lcms2.h>

/// 8-bit RGBA, straight alpha: the layout of a Lookahead bitmap.
static const cmsUInt32Number LOOKAHEAD_TYPE_RGBA_8 = TYPE_RGBA_8;
/// 8-bit CMYK stored inverted, as Adobe's JPEGs (and so nearly every CMYK JPEG) store it.
static const cmsUInt32Number LOOKAHEAD_TYPE_CMYK_8_REV = TYPE_CMYK_8_REV;
/// Doubles, for the tests' profiles built from colour formulas.
static const cmsUInt32Number LOOKAHEAD_TYPE_RGB_DBL = TYPE_RGB_DBL;
static const cmsUInt32Number LOOKAHEAD_TYPE_Lab_DBL = TYPE_Lab_DBL;
#endif
