// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — random loads (images and data), cancels and priority changes; nothing crashes, hangs, leaks or mixes up images.

import Foundation
import Testing

@testable import Lookahead

/// Answers after a random number of scheduler yields; some URLs fail. Image `n` is `16 + n` pixels wide, so a
/// response for the wrong URL would show.
private struct YieldingLoader: DataLoading {
    static let images: [Data] = (0..<30).map { n in
        Data(TestImages.encode(pixels: TestImages.gradient(width: 16 + n, height: 8), width: 16 + n, height: 8))
    }

    func loadData(for request: DataLoadRequest) async throws -> DataLoadResponse {
        let n = Int(request.url.deletingPathExtension().lastPathComponent)!
        var generator = SplitMix64(seed: UInt64(n) &* 7919 &+ UInt64(request.url.query?.count ?? 0))
        for _ in 0..<(generator.next() % 20) {
            await Task.yield()
            try Task.checkCancellation()
        }
        if n % 10 == 9 { throw DataLoadingError.statusCodeUnacceptable(503, nil) }
        request.progress(1, 1)
        return DataLoadResponse(data: Self.images[n])
    }
}

@Suite(.timeLimit(.minutes(2))) struct PipelineStressTests {
    @Test(arguments: [1 as UInt64, 2, 3]) func randomLoadsCancelsAndPriorityChanges(seed: UInt64) async throws {
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.dataLoader = YieldingLoader()
            $0.memoryCache = MemoryCache(costLimit: 4096)  // small: most requests miss
            $0.dataLoadingConcurrency = 3
            $0.decodingConcurrency = 2
        }
        var generator = SplitMix64(seed: seed)
        var tasks: [ImageTask] = []
        // Data-only loads share downloads with image requests of the same URL, in flight or queued.
        var dataLoads: [(n: Int, task: Task<ImagePipeline.DataResponse, any Error>)] = []
        let thumbnails: [ThumbnailOptions?] = [nil, ThumbnailOptions(maximumPixelSize: 8)]
        for _ in 0..<1000 {
            switch generator.next() % 10 {
            case 0..<5:
                let n = Int(generator.next() % 30)
                let request = ImageRequest(
                    url: URL(string: "https://example.com/\(n).jpg"),
                    priority: ImageRequest.Priority(rawValue: Int(generator.next() % 5))!,
                    thumbnail: thumbnails[Int(generator.next() % 2)]
                )
                tasks.append(pipeline.imageTask(with: request))
            case 5..<7 where !tasks.isEmpty:
                tasks[Int(generator.next() % UInt64(tasks.count))].cancel()
            case 7..<9 where !tasks.isEmpty:
                tasks[Int(generator.next() % UInt64(tasks.count))].priority =
                    ImageRequest.Priority(rawValue: Int(generator.next() % 5))!
            case 9 where generator.next() % 2 == 0:
                let n = Int(generator.next() % 30)
                let request = ImageRequest(url: URL(string: "https://example.com/\(n).jpg"))
                let task = Task { try await pipeline.data(for: request) }
                if generator.next() % 4 == 0 { task.cancel() }
                dataLoads.append((n, task))
            default:
                await Task.yield()
            }
        }
        var dataSucceeded = 0
        for (n, task) in dataLoads {
            do {
                #expect(try await task.value.data == YieldingLoader.images[n])
                dataSucceeded += 1
            } catch ImagePipeline.Error.cancelled {
                #expect(task.isCancelled)
            } catch ImagePipeline.Error.statusCodeUnacceptable(503, _),
                ImagePipeline.Error.failureBackoff(.statusCodeUnacceptable(503, _), _)
            {
                #expect(n % 10 == 9)
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
        #expect(dataSucceeded > 0)
        var succeeded = 0
        for task in tasks {
            let n = Int(task.request.url!.deletingPathExtension().lastPathComponent)!
            do {
                let response = try await task.response
                let expectedWidth = task.request.thumbnail == nil ? 16 + n : nil
                if let expectedWidth { #expect(response.image.pixelWidth == expectedWidth) }
                #expect(response.request.url == task.request.url)
                #expect(n % 10 != 9)
                succeeded += 1
            } catch {
                switch error {
                case .cancelled: #expect(task.state == .cancelled)
                case .statusCodeUnacceptable(503, _): #expect(n % 10 == 9)
                // A later request for a URL that failed fails at once while the URL backs off.
                case .failureBackoff(.statusCodeUnacceptable(503, _), let retryIn):
                    #expect(n % 10 == 9 && retryIn != nil)
                default: Issue.record("unexpected error \(error)")
                }
            }
        }
        #expect(succeeded > 0)
        await pipeline.waitUntilIdle()
        #expect(pipeline.liveTaskCount == 0)
    }
}
