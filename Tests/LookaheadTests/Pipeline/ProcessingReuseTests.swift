// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — work the pipeline reuses, as Nuke does: a processor shared by two chains runs once, an image in
// the memory cache for a prefix of the processors starts the chain there, and a reload joins a download in flight.

import Foundation
import Testing

@testable import Lookahead

// The source is a PNG written by libspng (TestEncoders), so these tests run where it is linked.
#if canImport(CWebP) && canImport(CGIF) && canImport(CSPNG)

/// Adds `step` to the red channel of every pixel and counts its runs, so a test sees both how often it ran and
/// what it was applied to.
private struct CountingProcessor: ImageProcessing {
    final class Runs: Sendable {
        let count = Locked(0)
        var value: Int { count.withLock { $0 } }
    }

    let step: UInt8
    let runs = Runs()

    var identifier: String { "add-red-\(step)" }

    func process(_ image: Bitmap) throws -> Bitmap {
        runs.count.withLock { $0 += 1 }
        var pixels = [UInt8](repeating: 0, count: image.width * image.height * 4)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let pixel = image[x, y]
                let offset = (y * image.width + x) * 4
                pixels[offset] = pixel.red &+ step
                pixels[offset + 1] = pixel.green
                pixels[offset + 2] = pixel.blue
                pixels[offset + 3] = pixel.alpha
            }
        }
        return Bitmap(width: image.width, height: image.height, pixels: pixels)
    }
}

@Suite(.timeLimit(.minutes(1))) struct ProcessingReuseTests {
    let source = TestEncoders.png(
        rgba: Bitmap(width: 8, height: 6, red: 10, green: 20, blue: 30).pixels,
        width: 8,
        height: 6
    )
    let url = URL(string: "https://example.com/photo.png")!
    fileprivate let one = CountingProcessor(step: 1)
    fileprivate let two = CountingProcessor(step: 2)
    fileprivate let three = CountingProcessor(step: 4)

    private func red(_ response: ImageResponse) -> UInt8? { response.image.makeBitmap()?[3, 2].red }

    @Test func aProcessorSharedByTwoChainsRunsOnce() async throws {
        let loader = GatedDataLoader(defaultResponse: { [source] _ in .success(DataLoadResponse(data: source)) })
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = nil
            $0.memoryCache = MemoryCache(costLimit: 1 << 24)
        }
        let short = pipeline.imageTask(with: ImageRequest(url: url, processors: [one]))
        let long = pipeline.imageTask(with: ImageRequest(url: url, processors: [one, two]))
        await loader.waitForPending(1)
        loader.release()
        #expect(red(try await short.response) == 11)
        #expect(red(try await long.response) == 13)
        #expect(one.runs.value == 1, "[1] and [1, 2] together run processor 1 once")
        #expect(two.runs.value == 1)
        #expect(loader.record.value.started.count == 1)
    }

    @Test func aCachedPrefixRunsOnlyTheRestWithNoDownload() async throws {
        let loader = GatedDataLoader(
            isGated: false,
            defaultResponse: { [source] _ in .success(DataLoadResponse(data: source)) }
        )
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = nil
            $0.memoryCache = MemoryCache(costLimit: 1 << 24)
        }
        let first = try await pipeline.image(for: ImageRequest(url: url, processors: [one, two]))
        #expect(red(first) == 13)
        #expect(loader.record.value.started.count == 1)
        #expect((one.runs.value, two.runs.value) == (1, 1))

        let longer = try await pipeline.image(for: ImageRequest(url: url, processors: [one, two, three]))
        #expect(red(longer) == 17, "processor 3 ran on the cached [1, 2] result")
        #expect(loader.record.value.started.count == 1, "no second download")
        #expect((one.runs.value, two.runs.value, three.runs.value) == (1, 1, 1))
        #expect(longer.cacheType == .memory, "it started from the memory cache")
        #expect(pipeline.cachedImage(for: ImageRequest(url: url, processors: [one, two, three])) != nil)
    }

    @Test func aCachedOriginalIsProcessedWithNoDownloadOrDecode() async throws {
        let loader = GatedDataLoader(
            isGated: false,
            defaultResponse: { [source] _ in .success(DataLoadResponse(data: source)) }
        )
        let decodes = Locked(0)
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = nil
            $0.memoryCache = MemoryCache(costLimit: 1 << 24)
            $0.eventHandler = { event in
                if case .imageDecoded = event { decodes.withLock { $0 += 1 } }
            }
        }
        _ = try await pipeline.image(for: ImageRequest(url: url))
        let processed = try await pipeline.image(for: ImageRequest(url: url, processors: [two]))
        #expect(red(processed) == 12)
        #expect(loader.record.value.started.count == 1)
        #expect(decodes.withLock { $0 } == 1)
    }

    @Test func withoutMemoryCacheReadsThePrefixIsNotUsed() async throws {
        let loader = GatedDataLoader(
            isGated: false,
            defaultResponse: { [source] _ in .success(DataLoadResponse(data: source)) }
        )
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = nil
            $0.memoryCache = MemoryCache(costLimit: 1 << 24)
        }
        _ = try await pipeline.image(for: ImageRequest(url: url, processors: [one]))
        let again = try await pipeline.image(
            for: ImageRequest(url: url, processors: [one, two], options: [.disableMemoryCacheReads])
        )
        #expect(red(again) == 13)
        #expect(loader.record.value.started.count == 2)
        #expect(one.runs.value == 2)
    }

    // MARK: - Reloads

    @Test func aReloadJoinsADownloadInFlight() async throws {
        let loader = GatedDataLoader(defaultResponse: { [source] _ in .success(DataLoadResponse(data: source)) })
        let folder = TemporaryDirectory()
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = DiskCache(directory: folder.url)
            $0.memoryCache = MemoryCache(costLimit: 1 << 24)
        }
        let normal = pipeline.imageTask(with: ImageRequest(url: url))
        await loader.waitForPending(1)  // past the (empty) disk cache: downloading
        let reload = pipeline.imageTask(with: ImageRequest(url: url, options: [.reloadIgnoringCachedData]))
        loader.release()
        _ = try await normal.response
        #expect(loader.record.value.started.count == 1, "one download for both")
        loader.release()  // were there a second download, it would not hang the test
        let reloaded = try await reload.response
        #expect(reloaded.cacheType == nil)
    }

    @Test func aReloadJoinsAQueuedLoadWhichThenSkipsTheDiskCache() async throws {
        let loader = GatedDataLoader(defaultResponse: { [source] _ in .success(DataLoadResponse(data: source)) })
        let folder = TemporaryDirectory()
        let cache = DiskCache(directory: folder.url)
        cache.storeData(source, for: url.absoluteString)
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = cache
            $0.memoryCache = MemoryCache(costLimit: 1 << 24)
            $0.dataLoadingConcurrency = 1
        }
        let blocker = pipeline.imageTask(with: ImageRequest(url: URL(string: "https://example.com/other.png")))
        await loader.waitForPending(1)
        let normal = pipeline.imageTask(with: ImageRequest(url: url))  // queued behind the blocker
        let reload = pipeline.imageTask(with: ImageRequest(url: url, options: [.reloadIgnoringCachedData]))
        #expect(pipeline.inspectGraph { $0.queuedDataURLs } == [url.absoluteString], "one queued load, not two")
        loader.release()
        _ = try await blocker.response
        await loader.waitForPending(1)
        loader.release()
        let fromNormal = try await normal.response
        let fromReload = try await reload.response
        #expect(fromReload.cacheType == nil)
        #expect(fromNormal.cacheType == nil, "the shared load skipped the disk cache, as the reload asked")
        #expect(loader.record.value.started == ["https://example.com/other.png", url.absoluteString])
    }

    @Test func aReloadJoinsALoadStillLookingUpTheDiskWhichThenDownloads() throws {
        // Nuke: dataOnlyLoadedOnceWithDifferentCachePolicy. The default request is still in its disk lookup when
        // the reload arrives: one stage serves both, and it downloads whatever the disk holds.
        var graph = LaunchingTaskGraph(dataLoadLimit: 4, decodeLimit: 2)
        let normal = graph.submit(task: 1, request: ImageRequest(url: url))
        let operation = try #require(normal.loads.first?.operation, "no load started")
        let reload = graph.submit(task: 2, request: ImageRequest(url: url, options: [.reloadIgnoringCachedData]))
        #expect(Self.loadCount(reload) == 0, "the reload joins the load in its disk lookup")
        let mayAnswer = graph.operationMayAnswerFromDisk(operation)
        #expect(!mayAnswer, "a disk hit is not an answer for the reload")
    }

    @Test func aReloadDoesNotJoinALoadAnsweringFromTheDisk() throws {
        var graph = LaunchingTaskGraph(dataLoadLimit: 4, decodeLimit: 2)
        let normal = graph.submit(task: 1, request: ImageRequest(url: url))
        let operation = try #require(normal.loads.first?.operation, "no load started")
        let mayAnswer = graph.operationMayAnswerFromDisk(operation)
        #expect(mayAnswer)
        let reload = graph.submit(task: 2, request: ImageRequest(url: url, options: [.reloadIgnoringCachedData]))
        #expect(Self.loadCount(reload) == 1, "the first answers from the disk: the reload downloads")
    }

    @Test func aReloadJoinsALoadPastTheDisk() throws {
        var downloading = LaunchingTaskGraph(dataLoadLimit: 4, decodeLimit: 2)
        let started = downloading.submit(task: 1, request: ImageRequest(url: url))
        let operation = try #require(started.loads.first?.operation, "no load started")
        _ = downloading.operationStartedDownload(operation)
        let joined = downloading.submit(
            task: 2,
            request: ImageRequest(url: url, options: [.reloadIgnoringCachedData])
        )
        #expect(Self.loadCount(joined) == 0, "past the disk cache, the download is shared")
    }

    private static func loadCount(_ actions: LaunchedActions) -> Int { actions.loads.count }
}
#endif
