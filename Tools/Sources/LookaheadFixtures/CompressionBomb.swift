// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead fixtures — CompressionBomb: a small gzip body that inflates to a huge run of zeros.

import CZlib
import Synchronization

/// Gzip streams of zeros, made with zlib once per size and kept: 1 GiB of zeros compresses to about 1 MB.
/// The fixture server's `/hostile/gzip-bomb` route serves them; call ``gzip(mebibytes:)`` ahead to make one
/// before a measurement.
public enum CompressionBomb {
    private static let made = Mutex<[Int: [UInt8]]>([:])

    /// A gzip member that inflates to `mebibytes` MiB of zero bytes.
    public static func gzip(mebibytes: Int) -> [UInt8] {
        if let body = made.withLock({ $0[mebibytes] }) { return body }
        let body = compress(zeroMebibytes: mebibytes)
        made.withLock { $0[mebibytes] = body }
        return body
    }

    private static func compress(zeroMebibytes: Int) -> [UInt8] {
        var stream = z_stream()
        guard lookahead_deflate_init_gzip(&stream, 9) == Z_OK else { return [] }
        defer { deflateEnd(&stream) }
        var input = [UInt8](repeating: 0, count: 1 << 20)
        var output = [UInt8](repeating: 0, count: 1 << 16)
        var result: [UInt8] = []
        for block in 0..<zeroMebibytes {
            let flush = block == zeroMebibytes - 1 ? Z_FINISH : Z_NO_FLUSH
            input.withUnsafeMutableBufferPointer { source in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                repeat {
                    output.withUnsafeMutableBufferPointer { target in
                        stream.next_out = target.baseAddress
                        stream.avail_out = UInt32(target.count)
                        _ = deflate(&stream, flush)
                        result.append(contentsOf: target[0..<(target.count - Int(stream.avail_out))])
                    }
                } while stream.avail_out == 0 || (flush == Z_FINISH && stream.avail_in > 0)
            }
        }
        return result
    }
}
