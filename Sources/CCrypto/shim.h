// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — OpenSSL's libcrypto (the SHA-256 of disk-cache keys on Linux), as one module for Swift.
#ifndef LOOKAHEAD_CCRYPTO_SHIM_H
#define LOOKAHEAD_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#endif
