// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — LatencySchedule: simulated network latency, a fixed delay plus reproducible jitter.

/// Decides how long the server waits before sending the headers of a response.
///
/// The jitter of a request is a pure function of the seed, the request path and the index of
/// the request among the requests for that path, so two runs with the same seed and the same
/// request order see the same delays.
struct LatencySchedule: Sendable {
    let latency: Duration
    let jitter: Duration
    let seed: UInt64

    /// Whether any request is delayed at all.
    var isZero: Bool {
        latency <= .zero && jitter <= .zero
    }

    /// The delay for the `index`th request (counting from zero) to `path`.
    func delay(path: String, index: Int) -> Duration {
        let fixed = max(latency, .zero)
        guard jitter > .zero else { return fixed }
        let pathKey = SplitMix64.stableHash(path)
        let indexKey = SplitMix64.mix(UInt64(truncatingIfNeeded: index) &+ 0x632B_E59B_D9B4_E019)
        var generator = SplitMix64(seed: seed ^ pathKey ^ indexKey)
        return fixed + jitter * generator.nextUnitInterval()
    }
}
