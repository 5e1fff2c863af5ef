// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

extension HEIFCodedSizes {
    /// The largest picture of the SPS NAL units in an `hvcC` (ISO/IEC 14496-15 8.3.3.1), or `nil` when it has none.
    static func hevcSize(_ hvcC: [UInt8]) -> Size? {
        var reader = Reader(hvcC)
        guard reader.skip(22), let arrays = reader.read(1) else { return nil }
        var largest: Size?
        for _ in 0..<arrays {
            guard let type = reader.read(1), let count = reader.read(2) else { return largest }
            for _ in 0..<count {
                guard let length = reader.read(2), let nal = reader.take(length) else { return largest }
                if type & 0x3F == 33, let size = spsSize(nal) {
                    largest = largest.map { $0.width * $0.height >= size.width * size.height ? $0 : size } ?? size
                }
            }
        }
        return largest
    }

    /// `pic_width_in_luma_samples` and `pic_height_in_luma_samples` of an SPS NAL unit (H.265 7.3.2.2).
    static func spsSize(_ nal: [UInt8]) -> Size? {
        guard nal.count > 2 else { return nil }
        // Emulation prevention: 00 00 03 stands for 00 00.
        var payload: [UInt8] = []
        payload.reserveCapacity(nal.count)
        var zeros = 0
        for byte in nal.dropFirst(2) {
            if zeros >= 2, byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            payload.append(byte)
        }
        var reader = Reader(payload)
        // The VPS id, the sub-layer count, a flag, then profile_tier_level: its general part (96 bits), which
        // sub-layers have a profile and a level, and those.
        guard reader.skip(bits: 4), let maxSubLayersMinus1 = reader.bits(3), reader.skip(bits: 1 + 96) else {
            return nil
        }
        var present: [(profile: Int, level: Int)] = []
        for _ in 0..<maxSubLayersMinus1 {
            guard let profile = reader.bits(1), let level = reader.bits(1) else { return nil }
            present.append((profile, level))
        }
        if maxSubLayersMinus1 > 0, !reader.skip(bits: 2 * (8 - maxSubLayersMinus1)) { return nil }
        for (profile, level) in present where !reader.skip(bits: 88 * profile + 8 * level) { return nil }
        guard reader.exponentialGolomb() != nil, let chroma = reader.exponentialGolomb() else { return nil }
        if chroma == 3, !reader.skip(bits: 1) { return nil }
        guard let width = reader.exponentialGolomb(), let height = reader.exponentialGolomb() else { return nil }
        return (width, height)
    }

    /// The largest frame of the sequence header OBU in an `av1C`'s `configOBUs` (AV1-ISOBMFF 2.3), or `nil`.
    static func av1Size(_ av1C: [UInt8]) -> Size? {
        var offset = 4
        while offset < av1C.count {
            let header = av1C[offset]
            let type = (header >> 3) & 0x0F
            let hasExtension = header & 0x04 != 0
            let hasSize = header & 0x02 != 0
            offset += hasExtension ? 2 : 1
            var size = av1C.count - offset
            if hasSize {
                var value = 0
                var shift = 0
                repeat {
                    guard offset < av1C.count, shift < 56 else { return nil }
                    value |= Int(av1C[offset] & 0x7F) << shift
                    shift += 7
                    offset += 1
                } while av1C[offset - 1] & 0x80 != 0
                size = value
            }
            guard size >= 0, offset + size <= av1C.count else { return nil }
            if type == 1 { return sequenceHeaderSize(Array(av1C[offset..<(offset + size)])) }
            offset += size
        }
        return nil
    }

    /// `max_frame_width_minus_1 + 1` and `max_frame_height_minus_1 + 1` of a sequence header OBU (AV1 5.5.1).
    static func sequenceHeaderSize(_ obu: [UInt8]) -> Size? {
        var reader = Reader(obu)
        guard reader.skip(bits: 4), let reduced = reader.bits(1) else { return nil }
        if reduced == 1 {
            guard reader.skip(bits: 5) else { return nil }
        } else {
            guard let timing = reader.bits(1) else { return nil }
            var decoderModel = 0
            var bufferDelayLength = 0
            if timing == 1 {
                guard reader.skip(bits: 64), let equalInterval = reader.bits(1) else { return nil }
                if equalInterval == 1, reader.exponentialGolomb(saturating: true) == nil { return nil }
                guard let model = reader.bits(1) else { return nil }
                decoderModel = model
                if decoderModel == 1 {
                    guard let length = reader.bits(5), reader.skip(bits: 32 + 5 + 5) else { return nil }
                    bufferDelayLength = length + 1
                }
            }
            guard let displayDelay = reader.bits(1), let operatingPoints = reader.bits(5) else { return nil }
            for _ in 0...operatingPoints {
                guard reader.skip(bits: 12), let level = reader.bits(5) else { return nil }
                if level > 7, !reader.skip(bits: 1) { return nil }
                if decoderModel == 1 {
                    guard let present = reader.bits(1) else { return nil }
                    if present == 1, !reader.skip(bits: 2 * bufferDelayLength + 1) { return nil }
                }
                if displayDelay == 1 {
                    guard let present = reader.bits(1) else { return nil }
                    if present == 1, !reader.skip(bits: 4) { return nil }
                }
            }
        }
        guard let widthBits = reader.bits(4), let heightBits = reader.bits(4),
            let width = reader.bits(widthBits + 1), let height = reader.bits(heightBits + 1)
        else { return nil }
        return (width + 1, height + 1)
    }

    /// Reads big-endian fields of bits or whole bytes, and the two variable-length codes of HEVC and AV1.
    struct Reader {
        private let bytes: [UInt8]
        /// In bits.
        private var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }
        init(_ buffer: UnsafeRawBufferPointer, _ range: Range<Int>) { self.bytes = Array(buffer[range]) }

        /// The next `count` (at most 56) bits as an unsigned integer, or `nil` past the end.
        mutating func bits(_ count: Int) -> Int? {
            guard count >= 0, count <= 56, position + count <= bytes.count * 8 else { return nil }
            var value = 0
            var remaining = count
            while remaining > 0 {
                let available = 8 - position & 7
                let taken = min(available, remaining)
                value = value << taken | Int(bytes[position >> 3]) >> (available - taken) & (1 << taken - 1)
                position += taken
                remaining -= taken
            }
            return value
        }

        /// The next `size` (0 to 7) bytes as an unsigned integer (0 for a size of 0), or `nil` past the end.
        mutating func read(_ size: Int) -> Int? { bits(8 * size) }

        /// The next `count` bytes, at a byte boundary, or `nil` past the end.
        mutating func take(_ count: Int) -> [UInt8]? {
            guard count >= 0, position + 8 * count <= bytes.count * 8 else { return nil }
            defer { position += 8 * count }
            return Array(bytes[(position >> 3)..<((position >> 3) + count)])
        }

        /// The next four bytes as text (a box or item type).
        mutating func fourCC() -> String? {
            take(4).map { String(decoding: $0, as: UTF8.self) }
        }

        /// Skips `count` bits; `false` past the end.
        mutating func skip(bits count: Int) -> Bool {
            guard count >= 0, position + count <= bytes.count * 8 else { return false }
            position += count
            return true
        }

        /// Skips `count` bytes; `false` past the end.
        mutating func skip(_ count: Int) -> Bool { skip(bits: 8 * count) }

        /// H.265's ue(v); with `saturating`, AV1's uvlc(), which reads 32 leading zeros or more as 2³² − 1.
        mutating func exponentialGolomb(saturating: Bool = false) -> Int? {
            var zeros = 0
            while let bit = bits(1), bit == 0 {
                zeros += 1
                guard zeros < 32 else { return saturating ? Int(UInt32.max) : nil }
            }
            guard let rest = bits(zeros) else { return nil }
            return (1 << zeros) - 1 + rest
        }
    }
}
