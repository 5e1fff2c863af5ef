// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

extension HEIFCodedSizes {
    /// Reads big-endian integers from bytes.
    struct ByteReader {
        private let bytes: [UInt8]
        private var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }
        init(_ buffer: UnsafeRawBufferPointer, _ range: Range<Int>) { self.bytes = Array(buffer[range]) }

        /// The next `size` (0 to 7) bytes as an unsigned integer (0 for a size of 0), or `nil` past the end.
        mutating func read(_ size: Int) -> Int? {
            guard size >= 0, size <= 7, position + size <= bytes.count else { return nil }
            var value = 0
            for _ in 0..<size {
                value = value << 8 | Int(bytes[position])
                position += 1
            }
            return value
        }

        /// Skips `count` bytes; `false` past the end.
        mutating func skip(_ count: Int) -> Bool {
            guard count >= 0, position + count <= bytes.count else { return false }
            position += count
            return true
        }

        /// The next four bytes as text (a box or item type).
        mutating func fourCC() -> String? {
            guard position + 4 <= bytes.count else { return nil }
            defer { position += 4 }
            return String(decoding: bytes[position..<(position + 4)], as: UTF8.self)
        }
    }

    /// Reads bits most significant first, with the two variable-length codes of HEVC and AV1.
    struct BitReader {
        private let bytes: [UInt8]
        private var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        /// The next `count` (at most 32) bits, or `nil` past the end.
        mutating func bits(_ count: Int) -> Int? {
            guard count >= 0, count <= 32, position + count <= bytes.count * 8 else { return nil }
            var value = 0
            for _ in 0..<count {
                value = value << 1 | Int(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
                position += 1
            }
            return value
        }

        /// Skips `count` bits; `false` past the end.
        mutating func skip(_ count: Int) -> Bool {
            guard count >= 0, position + count <= bytes.count * 8 else { return false }
            position += count
            return true
        }

        /// H.265's ue(v).
        mutating func exponentialGolomb() -> Int? {
            var zeros = 0
            while let bit = bits(1), bit == 0 {
                zeros += 1
                guard zeros <= 31 else { return nil }
            }
            guard let rest = bits(zeros) else { return nil }
            return (1 << zeros) - 1 + rest
        }

        /// AV1's uvlc().
        mutating func uvlc() -> Int? {
            var zeros = 0
            while let bit = bits(1), bit == 0 {
                zeros += 1
                guard zeros < 32 else { return Int(UInt32.max) }
            }
            guard let rest = bits(zeros) else { return nil }
            return rest + (1 << zeros) - 1
        }
    }
}
