// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — a progressive JPEG made here, and where its scans start.

import Foundation

enum ProgressiveJPEGFixture {
    /// A `width`×`height` progressive JPEG of the test gradient (libjpeg-turbo's own progression of scans).
    static func make(width: Int = 256, height: Int = 192) -> Data {
        Data(
            TestImages.encode(
                pixels: TestImages.gradient(width: width, height: height),
                width: width,
                height: height,
                quality: 90,
                progressive: true
            )
        )
    }

    /// The offsets of the start-of-scan markers (`FF DA`). Entropy-coded data never holds `FF DA` (a data `FF` is
    /// followed by `00`), so a plain search finds exactly the markers.
    static func scanOffsets(_ data: Data) -> [Int] {
        let bytes = [UInt8](data)
        return bytes.indices.dropLast().filter { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }
    }

    /// Where scan k (k ≥ 1) is complete for a decoder: just past the header of scan k + 1 (`FF DA`, the length,
    /// then the header). Element 0 completes scan 1.
    static func scanBoundaries(_ data: Data) -> [Int] {
        let bytes = [UInt8](data)
        return scanOffsets(data).dropFirst().map { $0 + 2 + (Int(bytes[$0 + 2]) << 8 | Int(bytes[$0 + 3])) }
    }

    /// The first `count` bytes.
    static func prefix(_ data: Data, _ count: Int) -> Data { Data(data.prefix(count)) }
}
