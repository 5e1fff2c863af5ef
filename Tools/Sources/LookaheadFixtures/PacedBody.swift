// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — PacedBody: response bodies written in chunks, with bandwidth limits or pauses.

import Hummingbird

/// A response body written chunk by chunk, optionally paced.
///
/// Writing in several chunks is what makes a departed client observable: once the peer has
/// closed the connection, the next chunk's write throws.
struct PacedBody: Sendable {
    /// How the chunks are spaced in time.
    enum Pacing: Sendable {
        /// Write chunks back to back.
        case unlimited
        /// Deliver at most this many bytes per second: a chunk is written once the budget for
        /// all bytes up to its end has accrued since the body started.
        case bytesPerSecond(Int)
        /// Write the first chunk at once, then pause this long before each following chunk.
        case pauseBetweenChunks(Duration)
    }

    /// Where the bytes come from.
    enum Source: Sendable {
        /// A buffer held in memory.
        case buffer(ByteBuffer)
        /// `length` bytes of the repeating pattern 00 01 02 … FF, generated on the fly.
        case pattern(length: Int)
    }

    let source: Source
    let chunkSize: Int
    let pacing: Pacing

    /// The chunk size used for a bandwidth limit: 4 KiB, or less for slow links so that a
    /// chunk never takes much more than 100 ms.
    static func chunkSize(forBytesPerSecond rate: Int) -> Int {
        min(4096, max(1, rate / 10))
    }

    /// The body's total length in bytes.
    var length: Int {
        switch source {
        case .buffer(let buffer): buffer.readableBytes
        case .pattern(let length): length
        }
    }

    /// A Hummingbird body that writes these bytes; with `sendsLength == false` the response
    /// carries no `Content-Length` and goes out with chunked transfer encoding.
    func responseBody(sendsLength: Bool = true) -> ResponseBody {
        ResponseBody(contentLength: sendsLength ? length : nil) { writer in
            try await write(to: &writer)
        }
    }

    private func write(to writer: inout any ResponseBodyWriter) async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let total = length
        let chunkSize: Int
        switch source {
        case .buffer: chunkSize = max(self.chunkSize, 1)
        case .pattern: chunkSize = min(max(self.chunkSize, 1), Self.patternBlockLength)
        }
        var offset = 0
        while offset < total {
            let count = min(chunkSize, total - offset)
            switch pacing {
            case .unlimited:
                break
            case .bytesPerSecond(let rate):
                try await clock.sleep(until: start + .seconds(Double(offset + count) / Double(max(rate, 1))))
            case .pauseBetweenChunks(let pause):
                if offset > 0 { try await clock.sleep(for: pause) }
            }
            try await writer.write(slice(offset: offset, count: count))
            offset += count
        }
        try await writer.finish(nil)
    }

    private func slice(offset: Int, count: Int) -> ByteBuffer {
        switch source {
        case .buffer(let buffer):
            return buffer.getSlice(at: buffer.readerIndex + offset, length: count) ?? ByteBuffer()
        case .pattern:
            let phase = offset & 0xFF
            return Self.patternBlock.getSlice(at: phase, length: count) ?? ByteBuffer()
        }
    }

    /// Pattern chunks are at most this long; a larger `chunkSize` is reduced to it.
    private static let patternBlockLength = 64 * 1024

    /// 00 01 … FF repeated, 256 bytes longer than a block so any phase can be sliced from it.
    private static let patternBlock = ByteBuffer(
        bytes: (0..<(patternBlockLength + 256)).map { UInt8(truncatingIfNeeded: $0) }
    )
}
