// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — progressive previews through the pipeline, with a loader that delivers chunks on demand.

import Foundation
import Testing

@testable import Lookahead

#if canImport(CJPEGProgressive)
@Suite(.timeLimit(.minutes(1))) struct ImagePipelinePreviewTests {
    let jpeg = ProgressiveJPEGFixture.make()
    let url = URL(string: "https://example.com/progressive.jpg")!

    /// Chunks that complete scans 1 and 3: a preview of each.
    private func makeLoader() -> ChunkedDataLoader {
        let boundaries = ProgressiveJPEGFixture.scanBoundaries(jpeg)
        return ChunkedDataLoader(body: jpeg, chunkEnds: [boundaries[0], boundaries[2]])
    }

    private func makePipeline(_ loader: ChunkedDataLoader, isEnabled: Bool = true) -> ImagePipeline {
        ImagePipeline {
            $0.diskCache = nil
            $0.dataLoader = loader
            $0.memoryCache = MemoryCache(costLimit: 1 << 24)
            $0.isProgressiveDecodingEnabled = isEnabled
            $0.progressiveDecodingInterval = .zero
        }
    }

    /// An event, as text a test can compare.
    static func describe(_ event: ImageTask.Event) -> String {
        switch event {
        case .started: "started"
        case .progress(let completed, let total): "progress \(completed)/\(total.map(String.init) ?? "?")"
        case .preview(let response):
            "preview \(response.image.pixelWidth)×\(response.image.pixelHeight) \(response.isPreview)"
        case .finished(.success(let response)):
            "finished \(response.image.pixelWidth)×\(response.image.pixelHeight) \(response.cacheType.map { "\($0)" } ?? "network")"
        case .finished(.failure(let error)): "failed \(error)"
        case .cancelled: "cancelled"
        }
    }

    @Test func coalescedTasksAndLateSubscribersSeeTheSamePreviewsBeforeTheFinalImage() async throws {
        let loader = makeLoader()
        let pipeline = makePipeline(loader)
        let request = ImageRequest(url: url)
        let first = pipeline.imageTask(with: request)
        let second = pipeline.imageTask(with: request)  // coalesced onto the same download
        let firstEvents = first.events
        let secondEvents = second.events
        let previews = AsyncCondition(0)
        first.onPreview { _ in previews.update { $0 += 1 } }

        loader.release()
        await previews.wait { $0 == 1 }
        #expect(pipeline.cachedImage(for: request) == nil)  // a preview never enters the memory cache
        loader.release()
        await previews.wait { $0 == 2 }
        // A subscriber arriving now gets the same shape: started, the last progress, the last preview.
        var late: [String] = []
        for await event in first.events {
            late.append(Self.describe(event))
            if late.count == 3 { break }
        }
        loader.release()
        let response = try await first.response

        let ends = loader.chunkEnds
        let expected = [
            "started",
            "progress \(ends[0])/\(jpeg.count)",
            "preview 256×192 true",
            "progress \(ends[1])/\(jpeg.count)",
            "preview 256×192 true",
            "progress \(jpeg.count)/\(jpeg.count)",
            "finished 256×192 network",
        ]
        var seenFirst: [String] = []
        for await event in firstEvents { seenFirst.append(Self.describe(event)) }
        var seenSecond: [String] = []
        for await event in secondEvents { seenSecond.append(Self.describe(event)) }
        #expect(seenFirst == expected)
        #expect(seenSecond == expected)
        #expect(late == ["started", "progress \(ends[1])/\(jpeg.count)", "preview 256×192 true"])
        #expect(!response.isPreview)
        #expect(pipeline.cachedImage(for: request)?.pixelWidth == 256)  // the final image is cached
        // After the final event, a subscriber gets it alone.
        var after: [String] = []
        for await event in second.events { after.append(Self.describe(event)) }
        #expect(after == ["finished 256×192 network"])
    }

    @Test func previewsHaveTheRequestsThumbnailSize() async throws {
        let loader = makeLoader()
        let pipeline = makePipeline(loader)
        let task = pipeline.imageTask(with: ImageRequest(url: url, thumbnail: ThumbnailOptions(maximumPixelSize: 64)))
        let sizes = AsyncCondition([String]())
        task.onPreview { response in
            sizes.update { $0.append("\(response.image.pixelWidth)×\(response.image.pixelHeight)") }
        }
        loader.release()
        await sizes.wait { $0.count == 1 }
        loader.release()
        await sizes.wait { $0.count == 2 }
        loader.release()
        let response = try await task.response
        let seen = sizes.update { $0 }
        #expect(seen == ["64×48", "64×48"])
        #expect(response.image.pixelWidth == 64)
    }

    @Test func noPreviewsUnlessEnabled() async throws {
        let loader = makeLoader()
        let pipeline = makePipeline(loader, isEnabled: false)
        let task = pipeline.imageTask(with: ImageRequest(url: url))
        let events = task.events
        loader.release()
        loader.release()
        loader.release()
        _ = try await task.response
        var seen: [String] = []
        for await event in events { seen.append(Self.describe(event)) }
        #expect(!seen.contains { $0.hasPrefix("preview") })
        #expect(seen.first == "started" && seen.last == "finished 256×192 network")
    }

    @Test func aSlotShowsPreviewsInsteadOfThePlaceholderThenTheImage() async throws {
        let loader = makeLoader()
        let pipeline = makePipeline(loader)
        let states = AsyncCondition([String]())
        let slot = ImageSlot(pipeline: pipeline) { state in
            let text: String
            switch state {
            case .empty: text = "empty"
            case .loading: text = "loading"
            case .preview(let image, _): text = "preview \(image.pixelWidth)"
            case .loaded(let image, _, _): text = "loaded \(image.pixelWidth)"
            case .failed: text = "failed"
            }
            states.update { $0.append(text) }
        }
        slot.configure(with: ImageRequest(url: url))
        loader.release()
        await states.wait { $0.contains("preview 256") }
        loader.release()
        await states.wait { $0.filter { $0.hasPrefix("preview") }.count == 2 }
        loader.release()
        await states.wait { $0.last?.hasPrefix("loaded") == true }
        let seen = states.update { $0 }
        #expect(seen == ["loading", "preview 256", "preview 256", "loaded 256"])
    }
}
/// Hands over the first scan of a progressive JPEG and "is cancelled" on its first load; answers the resumed
/// request (`Range`) with the rest, reporting the rest up to the third scan as its body so far first, then waiting
/// until the test has seen a preview.
private final class ResumingProgressiveLoader: DataLoading {
    let jpeg: Data
    let prefixLength: Int
    let reportedEnd: Int
    let loads = Locked(0)
    let previewSeen = AsyncCondition(false)

    init(jpeg: Data) {
        self.jpeg = jpeg
        let boundaries = ProgressiveJPEGFixture.scanBoundaries(jpeg)
        self.prefixLength = boundaries[0]
        self.reportedEnd = boundaries[2]
    }

    func loadData(for request: DataLoadRequest) async throws -> DataLoadResponse {
        let index = loads.withLock { loads in
            loads += 1
            return loads
        }
        guard index > 1 else {
            let headers = ["Accept-Ranges": "bytes", "ETag": #""v1""#, "Content-Length": "\(jpeg.count)"]
            let info = HTTPResponseInfo(url: request.url, statusCode: 200, headers: headers)
            request.partialBodyOnInterruption?(jpeg.prefix(prefixLength), info)
            throw CancellationError()
        }
        #expect(request.headers["Range"] == "bytes=\(prefixLength)-")
        request.onData?(jpeg[prefixLength..<reportedEnd])
        await previewSeen.wait { $0 }
        let rest = jpeg.dropFirst(prefixLength)
        let range = "bytes \(prefixLength)-\(jpeg.count - 1)/\(jpeg.count)"
        return DataLoadResponse(
            data: Data(rest),
            response: HTTPResponseInfo(url: request.url, statusCode: 206, headers: ["Content-Range": range])
        )
    }
}

@Suite(.timeLimit(.minutes(1))) struct ResumedPreviewTests {
    let folder = TemporaryDirectory("lookahead-resumed-previews")

    @Test func previewsAreDeliveredWhenTheDownloadIsResumed() async throws {
        let jpeg = ProgressiveJPEGFixture.make()
        let loader = ResumingProgressiveLoader(jpeg: jpeg)
        let disk = DiskCache(directory: folder.url)
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = disk
            $0.memoryCache = nil
            $0.failureBackoff = nil
            $0.partialDownloadLimit = 1 << 20
            $0.isProgressiveDecodingEnabled = true
            $0.progressiveDecodingInterval = .zero
        }
        let url = URL(string: "https://example.com/progressive.jpg")!
        await #expect(throws: ImagePipeline.Error.self) { try await pipeline.image(for: url) }
        await disk.flush()
        let task = pipeline.imageTask(with: ImageRequest(url: url))
        task.onPreview { _ in loader.previewSeen.update { $0 = true } }
        var previews = 0
        for await event in task.events {
            if case .preview = event { previews += 1 }
        }
        // The kept first scan and the rest so far decode together: a preview, though the body arrived without it.
        #expect(previews >= 1)
        #expect(try await task.response.image.pixelWidth == 256)
    }
}
#endif
