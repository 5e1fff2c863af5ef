// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureImages+Faults: broken and hostile JPEG files for testing decoders and clients.

extension FixtureImages {
    /// Bytes that begin like a JPEG (`FF D8 FF`) and continue as deterministic garbage.
    ///
    /// - Parameter length: Total size in bytes (at least 3).
    public static func corruptJPEG(length: Int = 2048) -> [UInt8] {
        var random = SplitMix64(seed: 0x0BAD_F00D_DEAD_BEEF)
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF]
        bytes.reserveCapacity(max(length, 3))
        while bytes.count < length {
            bytes.append(UInt8(truncatingIfNeeded: random.next()))
        }
        return bytes
    }

    /// The first half of a valid generated JPEG: the headers parse, the scan data stops early.
    public static func truncatedJPEG(number: Int = 1, width: Int = 200, height: Int = 200) throws(FixtureServer.Error)
        -> [UInt8]
    {
        let whole = try jpeg(number: number, width: width, height: height)
        return Array(whole.prefix(whole.count / 2))
    }

    /// A valid small JPEG whose frame header claims `claimedWidth` × `claimedHeight` pixels.
    ///
    /// JPEG stores dimensions as 16-bit values, so 65000 × 65000 (the default) is close to the
    /// largest possible claim. A decoder that trusts the header would try to allocate about
    /// 12.7 GB for the RGB output.
    public static func hugeDimensionsJPEG(
        number: Int = 2,
        claimedWidth: UInt16 = 65000,
        claimedHeight: UInt16 = 65000
    ) throws(FixtureServer.Error) -> [UInt8] {
        var bytes = try jpeg(number: number, width: 16, height: 16)
        guard let offset = frameHeaderOffset(in: bytes) else {
            throw .encodingFailed(reason: "no SOF0/SOF2 frame header in the encoded image")
        }
        // SOFn segment: FF Cn, length (2), precision (1), height (2), width (2), ...
        bytes[offset + 5] = UInt8(claimedHeight >> 8)
        bytes[offset + 6] = UInt8(claimedHeight & 0xFF)
        bytes[offset + 7] = UInt8(claimedWidth >> 8)
        bytes[offset + 8] = UInt8(claimedWidth & 0xFF)
        return bytes
    }

    /// The offset of the `FF C0` (baseline) or `FF C2` (progressive) marker, walking the
    /// marker segments from the start of the file up to the first scan.
    static func frameHeaderOffset(in bytes: [UInt8]) -> Int? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var offset = 2
        while offset + 9 < bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF {
                offset += 1  // fill byte
                continue
            }
            if marker == 0xC0 || marker == 0xC2 { return offset }
            if marker == 0xDA || marker == 0xD9 { return nil }  // start of scan / end of image
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            offset += 2 + length
        }
        return nil
    }
}
