// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead fixtures — the entries `lookahead disk-writer` stores, so a test can check what survived a kill.

import Foundation

/// Deterministic disk-cache entries: key and bytes are functions of a number.
public enum CrashTestEntries {
    /// The key of entry `number`.
    public static func key(_ number: Int) -> String { "https://example.com/entries/\(number).bin" }

    /// The bytes of entry `number`: 1–41 KB of xorshift output, different for every number.
    public static func payload(_ number: Int) -> Data {
        var state = UInt64(truncatingIfNeeded: number) &* 0x9E37_79B9_7F4A_7C15 | 1
        let count = 1000 + Int(state % 40_000)
        var bytes = [UInt8](repeating: 0, count: count)
        for index in bytes.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes[index] = UInt8(truncatingIfNeeded: state)
        }
        return Data(bytes)
    }
}
