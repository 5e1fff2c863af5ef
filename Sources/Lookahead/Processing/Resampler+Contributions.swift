// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

extension Resampler {
    /// For each target pixel: the first source pixel and the normalised weights of the source pixels it reads, `taps`
    /// to a pixel (the most any pixel reads; zero past a pixel's own count).
    struct Contributions {
        var first: [Int]
        var count: [Int]
        var weights: [Float]
        var taps: Int

        init(source: Int, target: Int, filter: Filter) {
            let scale = Double(target) / Double(source)
            let stretch = max(1, 1 / scale)  // widen the filter when shrinking
            let radius = filter.support * stretch
            taps = Int((radius * 2).rounded(.up)) + 1
            first = [Int](repeating: 0, count: target)
            count = [Int](repeating: 0, count: target)
            weights = [Float](repeating: 0, count: target * taps)
            // One scratch row of weights for every target pixel: no allocation per pixel.
            var values = [Double](repeating: 0, count: Int((radius * 2).rounded(.up)) + 3)
            for index in 0..<target {
                let center = (Double(index) + 0.5) / scale
                let start = max(0, Int((center - radius).rounded(.down)))
                let end = min(source - 1, Int((center + radius).rounded(.up)))
                var total = 0.0
                for position in start...end {
                    let weight = filter.weight((Double(position) + 0.5 - center) / stretch)
                    values[position - start] = weight
                    total += weight
                }
                // Trim zero weights at both ends so the inner loops stay short.
                var lower = 0
                var upper = end - start
                while lower < upper, values[lower] == 0 { lower += 1 }
                while upper > lower, values[upper] == 0 { upper -= 1 }
                let used = min(taps, upper - lower + 1)
                first[index] = start + lower
                count[index] = used
                for tap in 0..<used {
                    weights[index * taps + tap] = Float(total == 0 ? 1 / Double(used) : values[lower + tap] / total)
                }
            }
            let longest = count.max() ?? 1
            weights = (0..<target).flatMap { weights[($0 * taps)..<($0 * taps + longest)] }
            taps = longest
        }

        /// The three tables as pointers, for inner loops without bounds checks.
        func withPointers<Result>(
            _ body: (UnsafePointer<Int>, UnsafePointer<Int>, UnsafePointer<Float>) -> Result
        ) -> Result {
            first.withUnsafeBufferPointer { first in
                count.withUnsafeBufferPointer { count in
                    weights.withUnsafeBufferPointer { weights in
                        body(first.baseAddress!, count.baseAddress!, weights.baseAddress!)
                    }
                }
            }
        }
    }
}
