// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(CryptoKit)
import CryptoKit
#elseif canImport(CCrypto)
import CCrypto
#endif

/// SHA-256 from the platform's own library: CryptoKit, or libcrypto on Linux.
enum SHA256Digest {
    #if !canImport(CryptoKit)
    /// libcrypto's SHA-256, fetched once; `nil` falls back to `EVP_sha256()`.
    // SAFETY: a fetched EVP_MD is immutable and libcrypto documents it as shareable between threads; it is never
    // freed.
    private nonisolated(unsafe) static let fetched: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)
    #endif

    /// The 32-byte SHA-256 of some bytes.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { output, count in
            hash(bytes, into: UnsafeMutableRawBufferPointer(output))
            count = 32
        }
    }

    /// Writes the SHA-256 of some bytes into the first 32 bytes of `output`, allocating nothing.
    static func hash(_ bytes: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count >= 32, "a SHA-256 digest takes 32 bytes")
        #if canImport(CryptoKit)
        for (index, byte) in SHA256.hash(data: bytes).enumerated() { output[index] = byte }
        #else
        var length: UInt32 = 0
        // An empty buffer may have no base address; libcrypto wants a valid pointer even for zero bytes.
        let succeeded = withUnsafePointer(to: UInt8(0)) { empty in
            EVP_Digest(
                bytes.baseAddress ?? UnsafeRawPointer(empty),
                bytes.count,
                output.baseAddress?.assumingMemoryBound(to: UInt8.self),
                &length,
                fetched ?? EVP_sha256(),
                nil
            ) == 1
        }
        // EVP_Digest fails only when the algorithm is unavailable (a broken libcrypto), never for an input.
        precondition(succeeded && length == 32, "libcrypto's SHA-256 is unavailable")
        #endif
    }
}
