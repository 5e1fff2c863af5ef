// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// Pixel buffers the memory cache evicted, kept for the next decode of the same size (a list's thumbnails mostly
/// share one), so the same few blocks stay in use. A buffer still held elsewhere is copied on write.
package final class PixelBufferPool: Sendable {
    /// The pool the pipeline's decoders and memory caches share.
    package static let shared = PixelBufferPool(byteLimit: 8 << 20, buffersPerSize: 2)

    private struct State {
        var buffers: [Int: [[UInt8]]] = [:]
        var bytes = 0
    }

    private let state = Locked(State())
    private let byteLimit: Int
    private let buffersPerSize: Int

    /// A pool that keeps at most `byteLimit` bytes, and at most `buffersPerSize` buffers of any one size.
    package init(byteLimit: Int, buffersPerSize: Int) {
        self.byteLimit = byteLimit
        self.buffersPerSize = buffersPerSize
    }

    /// Keeps a buffer for a later ``take(count:)`` of its size, if there is room; otherwise lets it go.
    package func recycle(_ buffer: consuming [UInt8]) {
        let count = buffer.count
        guard count >= Self.minimumCount else { return }
        var buffer: [UInt8]? = buffer
        state.withLock { state in
            guard state.bytes + count <= byteLimit, state.buffers[count, default: []].count < buffersPerSize else {
                return
            }
            state.buffers[count, default: []].append(buffer.take()!)
            state.bytes += count
        }
    }

    /// Keeps the pixels of an image the memory cache let go; only a ``Bitmap`` has pixels to give.
    package func recycle(pixelsOf image: PlatformImage) {
        #if !canImport(UIKit) && !canImport(AppKit) && !LOOKAHEAD_NONSENDABLE_IMAGE
        recycle(image.pixels)
        #endif
    }

    /// A buffer of exactly `count` bytes with undefined contents, if one is kept.
    package func take(count: Int) -> [UInt8]? {
        guard count >= Self.minimumCount else { return nil }
        return state.withLock { state in
            guard let buffer = state.buffers[count]?.popLast() else { return nil }
            if state.buffers[count]!.isEmpty { state.buffers[count] = nil }
            state.bytes -= count
            return buffer
        }
    }

    /// Lets every kept buffer go.
    package func removeAll() {
        state.withLock { $0 = State() }
    }

    /// Bytes kept.
    package var byteCount: Int { state.withLock { $0.bytes } }

    /// Buffers below this size come and go through the allocator's own caches: not worth keeping.
    static let minimumCount = 64 << 10

    /// A buffer of `count` bytes: a kept one when there is one, else a new one; `initialize` writes every byte.
    package func makeBuffer(count: Int, _ initialize: (UnsafeMutableBufferPointer<UInt8>) -> Void) -> [UInt8] {
        if var buffer = take(count: count) {
            buffer.withUnsafeMutableBufferPointer { initialize($0) }
            return buffer
        }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialize(buffer)
            initialized = count
        }
    }
}
