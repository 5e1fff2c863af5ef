// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

extension Resampler {
    /// One resize's scratch rows and tables. Each source row is converted to floats once (premultiplied unless
    /// opaque) into a ring of the rows an output row reads; those rows are summed, weighted, into one row of floats;
    /// then each output pixel sums its taps of that row as `SIMD4<Float>`, the four channels at once.
    struct RowPass {
        typealias Source = (pixels: UnsafePointer<UInt8>, width: Int, bytesPerRow: Int)
        typealias Vertical = (
            first: UnsafePointer<Int>, count: UnsafePointer<Int>, weights: UnsafePointer<Float>, taps: Int
        )
        typealias Horizontal = (first: UnsafePointer<Int>, weights: UnsafePointer<SIMD4<Float>>, taps: Int)

        let source: Source
        let vertical: Vertical
        let horizontal: Horizontal
        let width: Int
        let isOpaque: Bool
        let ring: RowRing
        /// The vertical sums of a source row, then `taps` pixels of zeros that the last pixels' padded taps read.
        let sums: UnsafeMutablePointer<Float>
        /// One output row's sums.
        let results: UnsafeMutablePointer<Float>

        init(source: Source, vertical: Vertical, horizontal: Horizontal, width: Int, ringRows: Int, isOpaque: Bool) {
            self.source = source
            self.vertical = vertical
            self.horizontal = horizontal
            self.width = width
            self.isOpaque = isOpaque
            ring = RowRing(rows: ringRows, width: source.width)
            let rowLength = (source.width + horizontal.taps) * 4
            sums = .allocate(capacity: rowLength + width * 4)
            sums.initialize(repeating: 0, count: rowLength + width * 4)
            results = sums + rowLength
        }

        func deallocate() {
            sums.deallocate()
            ring.deallocate()
        }

        /// Writes output row `y`.
        @inline(__always)
        func resample(row y: Int, into out: UnsafeMutablePointer<UInt8>) {
            sumSourceRows(for: y)
            // The common tap counts are constants, so that their loops unroll.
            switch horizontal.taps {
            case 1: sumTaps(count: 1)
            case 2: sumTaps(count: 2)
            case 3: sumTaps(count: 3)
            case 4: sumTaps(count: 4)
            case 5: sumTaps(count: 5)
            case 6: sumTaps(count: 6)
            case 7: sumTaps(count: 7)
            case 8: sumTaps(count: 8)
            case 9: sumTaps(count: 9)
            default: sumTaps(count: horizontal.taps)
            }
            if isOpaque {
                storeOpaque(results, to: out, width: width)
            } else {
                for x in 0..<width {
                    let pixel = UnsafeRawPointer(results).loadUnaligned(fromByteOffset: x &<< 4, as: SIMD4<Float>.self)
                    store(pixel, to: out + x &<< 2)
                }
            }
        }

        /// Each output pixel's `count` taps of the row of sums, weighted, four channels at once, into `results`.
        @inline(__always)
        private func sumTaps(count: Int) {
            let (row, first, output) = (UnsafeRawPointer(sums), horizontal.first, UnsafeMutableRawPointer(results))
            // Offsets wrap rather than trap: the tables keep them inside the row and its padding.
            var weight = horizontal.weights
            for x in 0..<width {
                let pixel = row + first[x] &<< 4
                var sum = pixel.loadUnaligned(as: SIMD4<Float>.self) * weight[0]
                for tap in 1..<max(1, count) {
                    sum += pixel.loadUnaligned(fromByteOffset: tap &<< 4, as: SIMD4<Float>.self) * weight[tap]
                }
                output.storeBytes(of: sum, toByteOffset: x &<< 4, as: SIMD4<Float>.self)
                weight += count
            }
        }

        /// The weighted sum of the source rows output row `y` reads, into `sums`, as many rows at a time as the
        /// ring holds: all of them unless the reduction is large.
        @inline(__always)
        private func sumSourceRows(for y: Int) {
            let count = max(1, vertical.count[y])
            for part in stride(from: 0, to: count, by: ring.capacity) {
                let first = vertical.first[y] + part
                let rows = min(ring.capacity, count - part)
                for row in first..<(first + rows) where ring.needs(row) {
                    let line = source.pixels + row * source.bytesPerRow
                    if isOpaque {
                        ring.convert(line, into: row)
                    } else {
                        ring.convertPremultiplied(line, into: row)
                    }
                }
                let weights = vertical.weights + y * vertical.taps + part
                ring.sum(from: first, count: rows, weights: weights, into: sums, adding: part > 0)
            }
        }
    }

    /// Source rows as floats, the four channels of a pixel side by side: a ring holding each of the consecutive
    /// rows an output row reads, so a row is converted once however many output rows read it.
    struct RowRing {
        /// How many rows the ring holds: the most an output row reads, unless that is more than the byte bound.
        let capacity: Int
        /// Floats in a row.
        let length: Int
        /// The rows, `capacity` × `length` floats.
        let storage: UnsafeMutablePointer<Float>
        /// The source row in each slot, or -1.
        let held: UnsafeMutablePointer<Int>

        init(rows: Int, width: Int) {
            capacity = max(1, rows)
            length = width * 4
            storage = .allocate(capacity: capacity * length)
            held = .allocate(capacity: capacity)
            held.initialize(repeating: -1, count: capacity)
        }

        func deallocate() {
            storage.deallocate()
            held.deallocate()
        }

        /// Whether `row` is not in the ring yet.
        @inline(__always)
        func needs(_ row: Int) -> Bool { held[row % capacity] != row }

        @inline(__always)
        private func slot(_ row: Int) -> UnsafeMutablePointer<Float> { storage + (row % capacity) * length }

        /// Stores a row of opaque pixels.
        @inline(__always)
        func convert(_ line: UnsafePointer<UInt8>, into row: Int) {
            let target = slot(row)
            for index in 0..<length { target[index] = Float(line[index]) }
            held[row % capacity] = row
        }

        /// Stores a row of pixels premultiplied by their alpha.
        @inline(__always)
        func convertPremultiplied(_ line: UnsafePointer<UInt8>, into row: Int) {
            let target = UnsafeMutableRawPointer(slot(row))
            for x in 0..<(length / 4) {
                let bytes = line + 4 * x
                let pixel = SIMD4(Float(bytes[0]), Float(bytes[1]), Float(bytes[2]), Float(bytes[3]))
                let alpha = pixel[3]
                let value = pixel * SIMD4(alpha, alpha, alpha, 255) * (1 / 255)
                target.storeBytes(of: value, toByteOffset: 16 * x, as: SIMD4<Float>.self)
            }
            held[row % capacity] = row
        }

        /// The weighted sum of `count` rows from `first`, all in the ring, into `sums`, or added to it. Rows are
        /// added four at a time, so the sums make one trip to memory per four rows.
        @inline(__always)
        func sum(
            from first: Int,
            count: Int,
            weights: UnsafePointer<Float>,
            into sums: UnsafeMutablePointer<Float>,
            adding: Bool
        ) {
            let length = length
            if !adding { sums.update(repeating: 0, count: length) }
            var tap = 0
            while tap < count {
                let row = first + tap
                let weight = weights + tap
                let remaining = count &- tap
                if remaining >= 4 {
                    let (l0, l1, l2, l3) = (slot(row), slot(row + 1), slot(row + 2), slot(row + 3))
                    let (w0, w1, w2, w3) = (weight[0], weight[1], weight[2], weight[3])
                    for index in 0..<length {
                        sums[index] += (w0 * l0[index] + w1 * l1[index]) + (w2 * l2[index] + w3 * l3[index])
                    }
                    tap &+= 4
                } else if remaining >= 2 {
                    let (l0, l1, w0, w1) = (slot(row), slot(row + 1), weight[0], weight[1])
                    for index in 0..<length { sums[index] += w0 * l0[index] + w1 * l1[index] }
                    tap &+= 2
                } else {
                    let (l0, w0) = (slot(row), weight[0])
                    for index in 0..<length { sums[index] += w0 * l0[index] }
                    tap &+= 1
                }
            }
        }
    }

    /// A row of opaque pixels from their sums: every channel rounded and clamped, then alpha set.
    @inline(__always)
    private static func storeOpaque(_ sums: UnsafePointer<Float>, to out: UnsafeMutablePointer<UInt8>, width: Int) {
        for index in 0..<(width &* 4) {
            let value = sums[index]
            let clamped = value > 0 ? (value < 255 ? value : 255) : 0
            out[index] = UInt8(truncatingIfNeeded: (clamped + 12_582_912).bitPattern)
        }
        for x in 0..<width { out[x &* 4 &+ 3] = 255 }
    }

    /// Writes a premultiplied pixel, un-premultiplied, rounding and clamping.
    @inline(__always)
    private static func store(_ value: SIMD4<Float>, to pointer: UnsafeMutablePointer<UInt8>) {
        let alpha = min(255, max(0, value[3]))
        guard alpha > 0.5 else {
            pointer.update(repeating: 0, count: 4)
            return
        }
        var value = value * SIMD4(255 / alpha, 255 / alpha, 255 / alpha, 1)
        value[3] = alpha
        UnsafeMutableRawPointer(pointer).storeBytes(of: bytes(value), as: SIMD4<UInt8>.self)
    }
}
