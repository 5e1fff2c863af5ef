// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(CXXHash)
import CXXHash
#endif

/// The checksum of an entry's data, verified on every hit: it detects corruption, not tampering (the folder is private
/// to its user). XXH3-64 where libxxhash is linked (Linux), else the first 8 bytes of a SHA-256 (``Kind``).
enum DiskCacheChecksum {
    /// XXH3-64 with seed 0, or the first 8 bytes of a SHA-256 read as a little-endian integer.
    enum Kind: UInt8 {
        case xxh3 = 1
        case truncatedSHA256 = 2
    }

    #if canImport(CXXHash)
    static let kind = Kind.xxh3
    #else
    static let kind = Kind.truncatedSHA256
    #endif

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        #if canImport(CXXHash)
        return lookahead_xxh3_64(bytes.baseAddress, bytes.count)
        #else
        var value: UInt64 = 0
        for (index, byte) in SHA256Digest.hash(bytes).prefix(8).enumerated() {
            value |= UInt64(byte) << (8 * UInt64(index))
        }
        return value
        #endif
    }
}
