// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(CXXHash)
import CXXHash
#endif

/// The checksum of an entry's data, verified on every hit. It detects corruption (a flipped bit, a torn write), not
/// tampering: the folder is private to its user, and the key is matched by a SHA-256.
///
/// XXH3-64 where libxxhash is linked (Linux), else the first 8 bytes of a SHA-256. An entry records its ``Kind``; one
/// of another kind is a miss.
enum DiskCacheChecksum {
    /// Which function computed an entry's checksum; stored in the entry header.
    enum Kind: UInt8 {
        /// XXH3, 64 bits, seed 0.
        case xxh3 = 1
        /// The first 8 bytes of a SHA-256, read as a little-endian integer.
        case truncatedSHA256 = 2
    }

    /// The kind this build computes.
    #if canImport(CXXHash)
    static let kind = Kind.xxh3
    #else
    static let kind = Kind.truncatedSHA256
    #endif

    /// The checksum of some bytes, of ``kind``.
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
