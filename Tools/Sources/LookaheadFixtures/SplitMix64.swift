// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — SplitMix64: a small, seedable pseudo-random generator and a stable string hash.

/// SplitMix64: a tiny, fast generator whose whole output is a pure function of its seed.
///
/// The fixtures use it wherever randomness must be reproducible across runs and machines:
/// image layout, corrupt bytes and latency jitter. `Hasher` is not used for that, because
/// Swift seeds it differently in every process.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        self.state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// A uniformly distributed value in `0..<1`, built from the top 53 bits of the next output.
    mutating func nextUnitInterval() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// The SplitMix64 finaliser: a bijective scramble of 64 bits.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// FNV-1a over the UTF-8 bytes of `string`: stable across processes, unlike `Hasher`.
    static func stableHash(_ string: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in string.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}
