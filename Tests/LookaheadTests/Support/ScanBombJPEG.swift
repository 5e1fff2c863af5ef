// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — a progressive-JPEG "scan bomb": a valid progressive JPEG followed by thousands of extra scans,
// each a pass over every block that costs the file only a dozen bytes. Built here; the fixture server builds the
// same kind of file (Tools/Sources/LookaheadFixtures/FixtureImages+Hostile.swift).

import Foundation

enum ScanBombJPEG {
    /// A `width`×`height` progressive JPEG (libjpeg-turbo's own progression) followed by `extraScans` copies of one
    /// more scan: the first component's AC coefficients 1…63 at full precision (Ah 0, Al 0), every block an
    /// end-of-band run. libjpeg accepts the repetition without a warning, because coefficients already at full
    /// precision may be sent again; each copy makes the decoder walk every block once more.
    static func make(width: Int, height: Int, extraScans: Int) -> Data {
        let base = TestImages.encode(
            pixels: TestImages.gradient(width: width, height: height),
            width: width,
            height: height,
            quality: 80,
            progressive: true
        )
        return Data(bomb(fromProgressive: base, width: width, height: height, extraScans: extraScans))
    }

    /// The bomb made from a progressive JPEG of the given size.
    static func bomb(fromProgressive jpeg: [UInt8], width: Int, height: Int, extraScans: Int) -> [UInt8] {
        precondition(jpeg.suffix(2) == [0xFF, 0xD9], "not a complete JPEG")
        guard let sof = jpeg.indices.dropLast().first(where: { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC2 }) else {
            preconditionFailure("not a progressive JPEG")
        }
        let componentID = jpeg[sof + 10]
        // AC table 3: symbols EOB0…EOB14 (0x00, 0x10, …, 0xE0), each coded on 4 bits: symbol k is code k.
        let symbols = (0..<15).map { UInt8($0 << 4) }
        var counts = [UInt8](repeating: 0, count: 16)
        counts[3] = UInt8(symbols.count)
        let tableBody: [UInt8] = [0x13] + counts + symbols
        let table: [UInt8] = [0xFF, 0xC4] + bigEndian16(2 + tableBody.count) + tableBody
        // One component, DC table 0 (unused), AC table 3, Ss 1, Se 63, Ah 0, Al 0.
        let header: [UInt8] = [0xFF, 0xDA, 0, 8, 1, componentID, 0x03, 1, 63, 0x00]
        let blocks = ((width + 7) / 8) * ((height + 7) / 8)
        let scan = header + endOfBandRuns(covering: blocks)
        var bytes = Array(jpeg.dropLast(2)) + table
        bytes.reserveCapacity(bytes.count + scan.count * extraScans + 2)
        for _ in 0..<extraScans { bytes += scan }
        return bytes + [0xFF, 0xD9]
    }

    /// Entropy-coded data that skips `blocks` blocks with end-of-band runs of at most 32,767 blocks each.
    private static func endOfBandRuns(covering blocks: Int) -> [UInt8] {
        var writer = BitWriter()
        var remaining = blocks
        while remaining > 0 {
            let run = min(remaining, 32767)
            let magnitude = Int.bitWidth - 1 - run.leadingZeroBitCount  // floor(log2(run))
            writer.write(magnitude, bits: 4)
            writer.write(run - (1 << magnitude), bits: magnitude)
            remaining -= run
        }
        return writer.finish()
    }

    private static func bigEndian16(_ value: Int) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    /// Writes bits most significant first, stuffing a zero after every FF byte, padding the end with ones.
    private struct BitWriter {
        private var bytes: [UInt8] = []
        private var accumulator = 0
        private var count = 0

        mutating func write(_ value: Int, bits: Int) {
            for shift in stride(from: bits - 1, through: 0, by: -1) {
                accumulator = accumulator << 1 | (value >> shift & 1)
                count += 1
                if count == 8 { flushByte() }
            }
        }

        mutating func finish() -> [UInt8] {
            while count != 0 { write(1, bits: 1) }
            return bytes
        }

        private mutating func flushByte() {
            bytes.append(UInt8(accumulator))
            if accumulator == 0xFF { bytes.append(0) }
            accumulator = 0
            count = 0
        }
    }
}
