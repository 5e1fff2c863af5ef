// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead fixtures — the libjpeg-turbo (TurboJPEG API) encoder, as one module for Swift.
#ifndef LOOKAHEAD_CJPEGENCODER_SHIM_H
#define LOOKAHEAD_CJPEGENCODER_SHIM_H
#include <turbojpeg.h>
#endif
