// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the disk cache keeps only data that decodes: garbage from the network is never stored, and
// garbage read from the disk is removed, so the next load asks the network again.

import Foundation
import Testing

@testable import Lookahead

#if !LOOKAHEAD_PTHREAD_LOCKS
#endif

/// A real DiskCache that also counts the stores and removals the pipeline asks for.
final class CountingDiskCache: DataCaching {
    let disk: DiskCache
    private let counts = Locked<(stores: [String], removals: [String])>(([], []))

    init(_ disk: DiskCache) { self.disk = disk }

    var stores: [String] { counts.withLock { $0.stores } }
    var removals: [String] { counts.withLock { $0.removals } }

    func cachedData(for key: String) -> Data? { disk.cachedData(for: key) }
    func storeData(_ data: Data, for key: String) {
        counts.withLock { $0.stores.append(key) }
        disk.storeData(data, for: key)
    }
    func removeData(for key: String) {
        counts.withLock { $0.removals.append(key) }
        disk.removeData(for: key)
    }
    func removeAll() { disk.removeAll() }
    func flush() async { await disk.flush() }
}

/// The pipeline's events, kept in order.
final class EventLog: Sendable {
    private let events = Locked<[ImagePipeline.Event]>([])
    var all: [ImagePipeline.Event] { events.withLock { $0 } }
    func append(_ event: ImagePipeline.Event) { events.withLock { $0.append(event) } }
}

@Suite(.timeLimit(.minutes(1))) struct ImagePipelineDiskIntegrityTests {
    let folder = TemporaryDirectory("lookahead-pipeline-integrity")
    let url = URL(string: "https://example.com/photo.jpg")!
    let cache: CountingDiskCache
    let events = EventLog()

    static let html = Data("<!DOCTYPE html><html><body>Sign in to continue</body></html>".utf8)
    static let truncated = TestImages.jpeg.prefix(TestImages.jpeg.count * 2 / 3)

    init() {
        cache = CountingDiskCache(DiskCache(directory: folder.url))
    }

    private var key: String { url.absoluteString }

    private func makePipeline(_ loader: GatedDataLoader) -> ImagePipeline {
        let events = events
        return ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = cache
            $0.memoryCache = nil
            $0.eventHandler = { events.append($0) }
        }
    }

    private func loader(answering body: Data) -> GatedDataLoader {
        GatedDataLoader(isGated: false) { _ in .success(DataLoadResponse(data: body)) }
    }

    private func error(_ operation: () async throws -> Void) async -> ImagePipeline.Error? {
        do {
            try await operation()
            return nil
        } catch {
            return error as? ImagePipeline.Error
        }
    }

    @Test(arguments: [("html", html), ("truncated", truncated)])
    func garbageFromTheNetworkIsNeverStoredAndTheNextLoadAsksAgain(name: String, body: Data) async {
        let loader = loader(answering: body)
        let pipeline = makePipeline(loader)
        for attempt in 1...2 {
            // The second load is an explicit retry: the failure backoff would otherwise answer it without asking.
            var request = ImageRequest(url: url)
            if attempt > 1 { request.options.insert(.skipFailureBackoff) }
            let failure = await error { _ = try await pipeline.image(for: request) }
            switch (name, failure) {
            case ("html", .noDecoder?), ("truncated", .decodingFailed(codec: "JPEG", _)?): break
            default: Issue.record("\(name), attempt \(attempt): \(String(describing: failure))")
            }
            await cache.flush()
            #expect(cache.stores.isEmpty)
            #expect(!cache.disk.containsData(for: key))
            #expect(cache.disk.cachedData(for: key) == nil)
            #expect(loader.record.value.started.count == attempt, "every attempt asks the network")
        }
        let failures = events.all.filter { if case .decodingFailed = $0 { true } else { false } }
        #expect(failures.count == 2)
    }

    @Test func anImageThatDecodesIsStoredOnceForSeveralThumbnailSizes() async throws {
        let loader = GatedDataLoader(isGated: true)
        let pipeline = makePipeline(loader)
        let sizes = [16, 24, 32, 64]
        let tasks = sizes.map {
            pipeline.imageTask(with: ImageRequest(url: url, thumbnail: ThumbnailOptions(maximumPixelSize: $0)))
        }
        await loader.waitForPending(1)
        #expect(cache.stores.isEmpty, "nothing is stored before decoding")
        loader.release()
        for (task, size) in zip(tasks, sizes) {
            #expect(try await task.response.image.pixelWidth == size)
        }
        #expect(loader.record.value.started.count == 1)
        #expect(cache.stores == [key])
        await cache.flush()
        #expect(cache.disk.cachedData(for: key) == TestImages.jpeg)
    }

    @Test func garbageReadFromTheDiskIsRemovedReportedAndFetchedAgainOnce() async throws {
        cache.disk.storeData(Self.html, for: key)
        await cache.flush()
        let loader = loader(answering: TestImages.jpeg)
        let pipeline = makePipeline(loader)
        // The entry is not an image: it is removed, and the same load falls back to the network.
        let response = try await pipeline.image(for: url)
        #expect(response.cacheType == nil, "the image came from the network")
        #expect(loader.record.value.started.count == 1)
        let removals = events.all.compactMap { event -> URL? in
            if case .diskCacheEntryRemoved(let url, reason: .noDecoder) = event { url } else { nil }
        }
        #expect(removals == [url])
        await cache.flush()
        #expect(cache.removals == [key])
        #expect(cache.disk.cachedData(for: key) == TestImages.jpeg, "the good image replaced the garbage")
    }

    @Test func theNetworkFallbackHappensOnceAndNotWhenOnlyCachedDataIsAllowed() async throws {
        // The network answers garbage too: one download, then the failure (no loop).
        cache.disk.storeData(Self.html, for: key)
        await cache.flush()
        let loader = loader(answering: Self.html)
        let pipeline = makePipeline(loader)
        let failure = await error { _ = try await pipeline.image(for: url) }
        guard case .noDecoder? = failure else {
            Issue.record("got \(String(describing: failure))")
            return
        }
        #expect(loader.record.value.started.count == 1)
        // A request that may not load from the network fails without one.
        cache.disk.storeData(Self.html, for: key)
        await cache.flush()
        let cachedOnly = ImageRequest(url: url, options: [.returnCacheDataDontLoad])
        let offline = await error { _ = try await pipeline.image(for: cachedOnly) }
        guard case .noDecoder? = offline else {
            Issue.record("got \(String(describing: offline))")
            return
        }
        #expect(loader.record.value.started.count == 1)
    }

    @Test func aDiskEntryTooLargeForThisPipelineIsKept() async {
        // The data is fine: only this pipeline's pixel limit refuses it. Another pipeline may show it.
        cache.disk.storeData(TestImages.jpeg, for: key)
        let pipeline = ImagePipeline {
            $0.dataLoader = loader(answering: TestImages.jpeg)
            $0.diskCache = cache
            $0.memoryCache = nil
            $0.maximumPixelCount = 100
        }
        let failure = await error { _ = try await pipeline.image(for: url) }
        guard case .imageTooLarge? = failure else {
            Issue.record("got \(String(describing: failure))")
            return
        }
        #expect(cache.removals.isEmpty)
        #expect(cache.disk.containsData(for: key))
    }

    @Test func dataOnlyRequestsStoreOnlyCompleteImages() async throws {
        for (body, isImage) in [(Self.html, false), (Self.truncated, false), (TestImages.jpeg, true)] {
            let folder = TemporaryDirectory("lookahead-data-only")
            let cache = CountingDiskCache(DiskCache(directory: folder.url))
            let loader = loader(answering: body)
            let pipeline = ImagePipeline {
                $0.dataLoader = loader
                $0.diskCache = cache
            }
            let failure = await error { _ = try await pipeline.data(for: ImageRequest(url: url)) }
            await cache.flush()
            if isImage {
                #expect(failure == nil)
                #expect(cache.stores == [key])
                #expect(cache.disk.cachedData(for: key) == body)
            } else {
                switch failure {
                case .noDecoder?, .decodingFailed(codec: "JPEG", _)?: break
                default: Issue.record("got \(String(describing: failure)) for \(body.count) bytes")
                }
                #expect(cache.stores.isEmpty)
                #expect(cache.disk.cachedData(for: key) == nil)
                // Asked again: the network again.
                _ = await error { _ = try await pipeline.data(for: ImageRequest(url: url)) }
                #expect(loader.record.value.started.count == 2)
            }
        }
    }

    @Test func anErrorStatusStoresNothing() async {
        let loader = GatedDataLoader(isGated: false) { _ in .failure(.statusCodeUnacceptable(404, nil)) }
        let pipeline = makePipeline(loader)
        let failure = await error { _ = try await pipeline.image(for: url) }
        guard case .statusCodeUnacceptable(404, _)? = failure else {
            Issue.record("got \(String(describing: failure))")
            return
        }
        _ = await error { _ = try await pipeline.data(for: ImageRequest(url: url)) }
        await cache.flush()
        #expect(cache.stores.isEmpty)
        #expect(cache.disk.totalCount == 0)
    }
}
