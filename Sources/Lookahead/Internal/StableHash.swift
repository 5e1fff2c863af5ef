// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// FNV-1a of a string's UTF-8: the same in every process and run, where Swift's `Hasher` is seeded per process.
func stableHash(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    return hash
}
