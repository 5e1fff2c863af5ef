// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — timing helpers: warm-up, repeated runs, median and p95.

import Foundation
import LookaheadGallery  // Duration.seconds

/// Keeps the optimiser from removing work whose result is otherwise unused.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Timing of one scenario: seconds per operation over several runs.
struct Measurement {
    let name: String
    let secondsPerOperation: [Double]

    var median: Double { percentile(0.5) }
    var p95: Double { percentile(0.95) }

    func percentile(_ p: Double) -> Double {
        let sorted = secondsPerOperation.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }
}

/// Runs `body` (which performs `operations` operations) a few times to warm up, then `runs` times measured.
func measure(
    _ name: String,
    operations: Int,
    runs: Int = 15,
    warmUp: Int = 3,
    _ body: () -> Void
) -> Measurement {
    let clock = ContinuousClock()
    for _ in 0..<warmUp { body() }
    var samples: [Double] = []
    for _ in 0..<runs {
        let elapsed = clock.measure { body() }
        samples.append(elapsed.seconds / Double(operations))
    }
    return Measurement(name: name, secondsPerOperation: samples)
}

/// The async variant of ``measure(_:operations:runs:warmUp:_:)``.
func measureAsync(
    _ name: String,
    operations: Int,
    runs: Int = 15,
    warmUp: Int = 3,
    _ body: () async -> Void
) async -> Measurement {
    let clock = ContinuousClock()
    for _ in 0..<warmUp { await body() }
    var samples: [Double] = []
    for _ in 0..<runs {
        let start = clock.now
        await body()
        samples.append((clock.now - start).seconds / Double(operations))
    }
    return Measurement(name: name, secondsPerOperation: samples)
}

/// Formats a table row: name, median and p95 in a unit.
func row(_ measurement: Measurement, unit: String, scale: Double) -> String {
    let name = measurement.name.padding(toLength: 44, withPad: " ", startingAt: 0)
    return
        "\(name) \(String(format: "%10.2f", measurement.median * scale)) \(unit)   p95 \(String(format: "%10.2f", measurement.p95 * scale)) \(unit)"
}
