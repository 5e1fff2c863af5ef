// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — previews of a progressive JPEG served scan by scan over loopback HTTP.

import Foundation
import Lookahead
import LookaheadFixtures
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(2))) struct ProgressivePreviewsOverHTTPTests {
    @Test(arguments: Transport.allCases) func aProgressiveJPEGServedInChunksShowsPreviewsThenTheImage(
        transport: Transport
    ) async throws {
        let server = try await FixtureServer.start()
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.dataLoader = transport.makeLoader()
            $0.memoryCache = MemoryCache(costLimit: 32 << 20)
            $0.isProgressiveDecodingEnabled = true
            $0.progressiveDecodingInterval = .milliseconds(50)
        }
        // 150 ms between scans: each scan arrives well after the interval, and its preview decodes meanwhile.
        let url = server.url("/progressive/3.jpg").appending(queryItems: [
            URLQueryItem(name: "w", value: "640"), URLQueryItem(name: "h", value: "480"),
            URLQueryItem(name: "pauseMs", value: "150"),
        ])
        let request = ImageRequest(url: url, thumbnail: ThumbnailOptions(maximumPixelSize: 160))
        let task = pipeline.imageTask(with: request)
        let cachedAtPreview = Mutex<[Bool]>([])
        task.onPreview { _ in
            let cached = pipeline.cachedImage(for: request) != nil
            cachedAtPreview.withLock { $0.append(cached) }
        }
        var events: [String] = []
        var totals: Set<Int64?> = []
        for await event in task.events {
            switch event {
            case .started: events.append("started")
            case .progress(_, let total): totals.insert(total)
            case .preview(let response):
                #expect(response.isPreview)
                #expect(response.cacheType == nil)
                events.append("preview \(response.image.width)×\(response.image.height)")
            case .finished(.success(let response)):
                #expect(!response.isPreview)
                events.append("finished \(response.image.width)×\(response.image.height)")
            case .finished(.failure(let error)): events.append("failed \(error)")
            case .cancelled: events.append("cancelled")
            }
        }
        let previews = events.filter { $0.hasPrefix("preview") }
        #expect(previews.count >= 2, "events: \(events)")
        #expect(previews.count <= 4)  // the default maximum per image
        #expect(previews.allSatisfy { $0 == "preview 160×120" })  // the request's thumbnail size
        #expect(events.first == "started")
        #expect(events.last == "finished 160×120")
        #expect(events.dropFirst().dropLast().allSatisfy { $0.hasPrefix("preview") })
        // Content-Length was sent: every progress event carries the total.
        #expect(totals.count == 1 && totals.first! != nil)
        // Previews never entered the memory cache; the final image did.
        #expect(cachedAtPreview.withLock { $0 }.allSatisfy { !$0 })
        #expect(pipeline.cachedImage(for: request)?.width == 160)
        await server.stop()
    }

    @Test func previewsAreOffByDefault() async throws {
        let server = try await FixtureServer.start()
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.memoryCache = nil
        }
        let url = server.url("/progressive/4.jpg").appending(queryItems: [URLQueryItem(name: "pauseMs", value: "60")])
        let task = pipeline.imageTask(with: ImageRequest(url: url))
        var previews = 0
        var finished = false
        for await event in task.events {
            if case .preview = event { previews += 1 }
            if case .finished(.success) = event { finished = true }
        }
        #expect(previews == 0)
        #expect(finished)
        await server.stop()
    }
}
