// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the pixel buffer pool: evicted pixels go to the next decode of their size, a buffer a view still
// shows is copied rather than changed, and the pool's limits hold.

import Foundation
import Testing

@testable import Lookahead

@Suite struct PixelBufferPoolTests {
    private func address(_ buffer: [UInt8]) -> UnsafeRawPointer? {
        buffer.withUnsafeBytes { $0.baseAddress }
    }

    @Test func aRecycledBufferGoesToATakeOfItsSizeOnly() throws {
        let pool = PixelBufferPool(byteLimit: 1 << 20, buffersPerSize: 2)
        let buffer = [UInt8](repeating: 7, count: 100_000)
        let original = address(buffer)
        pool.recycle(consume buffer)
        #expect(pool.byteCount == 100_000)
        #expect(pool.take(count: 100_004) == nil)
        let taken = try #require(pool.take(count: 100_000))
        #expect(address(taken) == original)
        #expect(pool.take(count: 100_000) == nil)
        #expect(pool.byteCount == 0)
    }

    @Test func theLimitsHold() {
        let pool = PixelBufferPool(byteLimit: 300_000, buffersPerSize: 2)
        pool.recycle([UInt8](repeating: 0, count: 1_000))  // too small to keep
        #expect(pool.byteCount == 0)
        for _ in 0..<3 { pool.recycle([UInt8](repeating: 0, count: 100_000)) }
        #expect(pool.byteCount == 200_000, "two of one size")
        pool.recycle([UInt8](repeating: 0, count: 90_000))
        #expect(pool.byteCount == 290_000)
        pool.recycle([UInt8](repeating: 0, count: 80_000))
        #expect(pool.byteCount == 290_000, "over the byte limit")
        pool.removeAll()
        #expect(pool.byteCount == 0)
        #expect(pool.take(count: 100_000) == nil)
    }

    @Test func aBufferSomethingStillHoldsIsCopiedNotChanged() {
        let pool = PixelBufferPool(byteLimit: 1 << 20, buffersPerSize: 2)
        let shown = [UInt8](repeating: 7, count: 100_000)
        pool.recycle(shown)
        let made = pool.makeBuffer(count: 100_000) { $0.update(repeating: 9) }
        #expect(shown.allSatisfy { $0 == 7 })
        #expect(made.allSatisfy { $0 == 9 })
        #expect(address(made) != address(shown))
    }

    #if !canImport(UIKit) && !canImport(AppKit) && !LOOKAHEAD_NONSENDABLE_IMAGE
    @Test func anImageTheMemoryCacheEvictsLendsItsPixelsToTheNextOfItsSize() throws {
        // A size no other test uses: the pool is the one the pipeline shares.
        let width = 173
        let height = 151
        let cost = width * height * 4
        let cache = MemoryCache(costLimit: cost * 2, countLimit: 10, entryCostLimit: cost)
        var first: Bitmap? = Bitmap(width: width, height: height, red: 1, green: 2, blue: 3)
        let original = address(first!.pixels)
        cache.store(first!, for: ImageCacheKey(imageID: "pool-1"))
        first = nil
        cache.store(
            Bitmap(width: width, height: height, red: 4, green: 5, blue: 6),
            for: ImageCacheKey(imageID: "pool-2")
        )
        cache.store(
            Bitmap(width: width, height: height, red: 7, green: 8, blue: 9),
            for: ImageCacheKey(imageID: "pool-3")
        )
        #expect(cache[ImageCacheKey(imageID: "pool-1")] == nil)
        #expect(cache[ImageCacheKey(imageID: "pool-3")] != nil)
        let reused = try #require(PixelBufferPool.shared.take(count: width * height * 4))
        #expect(address(reused) == original)
    }
    #endif

    #if canImport(CTurboJPEG)
    @Test func theJPEGDecoderWritesIntoAKeptBufferAndDecodesTheSame() throws {
        let (width, height) = (167, 149)
        let jpeg = Data(
            TestImages.encode(pixels: TestImages.gradient(width: width, height: height), width: width, height: height)
        )
        let decoder = ImageDecoders.JPEG()
        let plain = try ImageDecoders.decode(jpeg, context: ImageDecodingContext()).get().image
        let kept = [UInt8](repeating: 0xAB, count: width * height * 4)
        let keptAddress = address(kept)
        PixelBufferPool.shared.recycle(consume kept)
        let pooled = try decoder.decode(jpeg, context: ImageDecodingContext())
        #expect(address(pooled.pixels) == keptAddress)
        #expect(pooled == plain)
    }
    #endif
}
