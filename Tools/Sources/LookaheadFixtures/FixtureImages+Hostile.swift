// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureImages+Hostile: files that are valid enough to reach a decoder and built to make it work hard.

extension FixtureImages {
    /// A progressive-JPEG "scan bomb": picture `number` as a `width`×`height` progressive JPEG, followed by
    /// `extraScans` copies of one more scan that codes every block of the first component as an end-of-band run.
    ///
    /// Each copy costs the file about a dozen bytes and costs a decoder a pass over every block: with thousands
    /// of them, a file of tens of kilobytes holds a decoder for many seconds unless it limits the scans.
    /// libjpeg accepts the repetition without a warning (AC coefficients already at full precision, Ah 0 Al 0,
    /// may be sent again), so only a scan limit stops it. Deterministic: identical for identical arguments.
    public static func scanBombJPEG(
        number: Int = 3,
        width: Int = 1024,
        height: Int = 1024,
        extraScans: Int = 5000
    ) throws(FixtureServer.Error) -> [UInt8] {
        let base = try TurboJPEGEncoder.encode(
            rgb: rgb(number: number, width: width, height: height),
            width: clampedDimension(width),
            height: clampedDimension(height),
            quality: defaultQuality,
            progressive: true
        )
        guard let frame = frameHeaderOffset(in: base), base[frame + 1] == 0xC2, base.suffix(2) == [0xFF, 0xD9] else {
            throw .encodingFailed(reason: "the progressive encoding has no SOF2 frame header or no end marker")
        }
        // SOF2: FF C2, length (2), precision (1), height (2), width (2), components (1), then the first component's id.
        let componentID = base[frame + 10]
        // AC table 3: the end-of-band symbols EOB0…EOB14 (0x00, 0x10, …, 0xE0), each on 4 bits: symbol k is code k.
        let symbols = (0..<15).map { UInt8($0 << 4) }
        var counts = [UInt8](repeating: 0, count: 16)
        counts[3] = UInt8(symbols.count)
        let tableBody: [UInt8] = [0x13] + counts + symbols
        let table: [UInt8] = [0xFF, 0xC4, UInt8((2 + tableBody.count) >> 8), UInt8((2 + tableBody.count) & 0xFF)]
        // SOS: one component, DC table 0 (unused), AC table 3, Ss 1, Se 63, Ah 0, Al 0.
        let header: [UInt8] = [0xFF, 0xDA, 0, 8, 1, componentID, 0x03, 1, 63, 0x00]
        let blocks = ((clampedDimension(width) + 7) / 8) * ((clampedDimension(height) + 7) / 8)
        let scan = header + endOfBandRuns(covering: blocks)
        var bytes = Array(base.dropLast(2)) + table + tableBody
        bytes.reserveCapacity(bytes.count + scan.count * extraScans + 2)
        for _ in 0..<max(0, extraScans) { bytes += scan }
        return bytes + [0xFF, 0xD9]
    }

    /// Entropy-coded data skipping `blocks` blocks with end-of-band runs of at most 32,767 blocks: per run the
    /// 4-bit code of EOBr, then r bits of the run length beyond 2^r. Bits most significant first, a zero byte
    /// stuffed after each FF, the last byte padded with ones.
    private static func endOfBandRuns(covering blocks: Int) -> [UInt8] {
        var bits: [Bool] = []
        var remaining = blocks
        while remaining > 0 {
            let run = min(remaining, 32767)
            let magnitude = Int.bitWidth - 1 - run.leadingZeroBitCount
            for shift in stride(from: 3, through: 0, by: -1) { bits.append(magnitude >> shift & 1 == 1) }
            for shift in stride(from: magnitude - 1, through: 0, by: -1) {
                bits.append((run - (1 << magnitude)) >> shift & 1 == 1)
            }
            remaining -= run
        }
        while bits.count % 8 != 0 { bits.append(true) }
        var bytes: [UInt8] = []
        for start in stride(from: 0, to: bits.count, by: 8) {
            let byte = bits[start..<(start + 8)].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
            bytes.append(byte)
            if byte == 0xFF { bytes.append(0) }
        }
        return bytes
    }
}
