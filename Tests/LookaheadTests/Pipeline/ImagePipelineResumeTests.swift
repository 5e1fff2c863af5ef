// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — an interrupted download's first bytes are kept and the next load asks only for the rest.

import Foundation
import Testing

@testable import Lookahead

/// Hands over the first half of the image and "is cancelled" (or fails with `firstError`) on its first load;
/// answers later loads with what `answer` makes of the request headers. Records every request's headers.
private final class HalfThenRestLoader: DataLoading {
    let body = TestImages.jpeg
    let firstHeaders: [String: String]
    let firstError: any Error
    let answer: @Sendable (Data, [String: String]) -> (Int, [String: String], Data)
    let sent = Locked<[[String: String]]>([])

    init(
        firstHeaders: [String: String] = ["Accept-Ranges": "bytes", "ETag": #""v1""#],
        firstError: any Error = CancellationError(),
        answer: @escaping @Sendable (Data, [String: String]) -> (Int, [String: String], Data)
    ) {
        self.firstHeaders = firstHeaders
        self.firstError = firstError
        self.answer = answer
    }

    func loadData(for request: DataLoadRequest) async throws -> DataLoadResponse {
        let index = sent.withLock { sent in
            sent.append(request.headers)
            return sent.count - 1
        }
        if index == 0 {
            var headers = firstHeaders
            headers["Content-Length"] = "\(body.count)"
            let info = HTTPResponseInfo(url: request.url, statusCode: 200, headers: headers)
            request.partialBodyOnInterruption?(body.prefix(body.count / 2), info)
            throw firstError
        }
        let (status, headers, data) = answer(body, request.headers)
        request.progress(Int64(data.count), Int64(data.count))
        return DataLoadResponse(
            data: data,
            response: HTTPResponseInfo(url: request.url, statusCode: status, headers: headers)
        )
    }
}

@Suite(.timeLimit(.minutes(1))) struct ImagePipelineResumeTests {
    let folder = TemporaryDirectory("lookahead-resume")
    let disk: DiskCache
    let url = URL(string: "https://example.com/large.jpg")!

    init() {
        disk = DiskCache(directory: folder.url)
    }

    private func makePipeline(_ loader: HalfThenRestLoader, limit: Int? = 1 << 20) -> ImagePipeline {
        ImagePipeline {
            $0.dataLoader = loader
            $0.advertisesDecodableFormats = false  // the conditional and range headers alone
            $0.diskCache = disk
            $0.memoryCache = nil
            $0.failureBackoff = nil
            $0.partialDownloadLimit = limit
        }
    }

    private func cancelledThenAgain(_ pipeline: ImagePipeline, url: URL? = nil) async throws -> ImageResponse {
        let url = url ?? self.url
        await #expect(throws: ImagePipeline.Error.self) { try await pipeline.image(for: ImageRequest(url: url)) }
        await disk.flush()
        return try await pipeline.image(for: ImageRequest(url: url))
    }

    @Test func theNextLoadAsksForTheRestAndJoinsIt() async throws {
        let loader = HalfThenRestLoader { body, headers in
            let start = Int(headers["Range"]!.dropFirst("bytes=".count).dropLast())!
            return (206, ["Content-Range": "bytes \(start)-\(body.count - 1)/\(body.count)"], body.dropFirst(start))
        }
        let pipeline = makePipeline(loader)
        let response = try await cancelledThenAgain(pipeline)
        let half = TestImages.jpeg.count / 2
        #expect(loader.sent.withLock { $0 } == [[:], ["Range": "bytes=\(half)-", "If-Range": #""v1""#]])
        #expect(response.cacheType == nil)
        await disk.flush()
        #expect(disk.cachedData(for: url.absoluteString) == TestImages.jpeg)
        // The kept prefix is used once.
        #expect(disk.cachedData(for: PartialDownload.key(for: url.absoluteString)) == nil)
    }

    @Test(arguments: [
        DataLoadingError.truncated(received: Int64(TestImages.jpeg.count / 2), expected: Int64(TestImages.jpeg.count)),
        DataLoadingError.timedOut(.idle(.seconds(30))),
        DataLoadingError.transportFailed(TransportFailure(kind: .other, message: "connection reset")),
    ])
    func aDownloadCutShortIsResumedByTheNextLoad(failure: DataLoadingError) async throws {
        let loader = HalfThenRestLoader(firstError: failure) { body, headers in
            let start = Int(headers["Range"]!.dropFirst("bytes=".count).dropLast())!
            return (206, ["Content-Range": "bytes \(start)-\(body.count - 1)/\(body.count)"], body.dropFirst(start))
        }
        let response = try await cancelledThenAgain(makePipeline(loader))
        let half = TestImages.jpeg.count / 2
        #expect(loader.sent.withLock { $0 } == [[:], ["Range": "bytes=\(half)-", "If-Range": #""v1""#]])
        #expect(response.image.pixelWidth == 64)
    }

    @Test func progressOfAResumedDownloadCountsThePrefix() async throws {
        let loader = HalfThenRestLoader { body, headers in
            let start = Int(headers["Range"]!.dropFirst("bytes=".count).dropLast())!
            return (206, ["Content-Range": "bytes \(start)-\(body.count - 1)/\(body.count)"], body.dropFirst(start))
        }
        let pipeline = makePipeline(loader)
        await #expect(throws: ImagePipeline.Error.self) { try await pipeline.image(for: ImageRequest(url: url)) }
        await disk.flush()
        let task = pipeline.imageTask(with: ImageRequest(url: url))
        var reported: [Int64] = []
        var totals: [Int64?] = []
        for await event in task.events {
            if case .progress(let completed, let total) = event {
                reported.append(completed)
                totals.append(total)
            }
        }
        // The loader reported only the rest; the task reports the whole body.
        #expect(reported.last == Int64(TestImages.jpeg.count))
        #expect(totals.last == Int64(TestImages.jpeg.count))
    }

    @Test func aWrongContentRangeStartsOverWithAPlainRequest() async throws {
        let loader = HalfThenRestLoader { body, headers in
            headers["Range"] == nil
                ? (200, [:], body)
                : (206, ["Content-Range": "bytes 0-\(body.count / 2 - 1)/\(body.count)"], body.prefix(body.count / 2))
        }
        let response = try await cancelledThenAgain(makePipeline(loader))
        #expect(loader.sent.withLock { $0.count } == 3)
        #expect(loader.sent.withLock { $0.last } == [:])
        #expect(response.image.pixelWidth == 64)
        await disk.flush()
        #expect(disk.cachedData(for: url.absoluteString) == TestImages.jpeg)
    }

    @Test func a200ToTheResumedRequestIsTheWholeImage() async throws {
        let loader = HalfThenRestLoader { body, _ in (200, [:], body) }
        _ = try await cancelledThenAgain(makePipeline(loader))
        #expect(loader.sent.withLock { $0.count } == 2)
        await disk.flush()
        #expect(disk.cachedData(for: url.absoluteString) == TestImages.jpeg)
    }

    @Test func withoutAcceptRangesOrWithoutTheOptionNothingIsKept() async throws {
        let noRanges = HalfThenRestLoader(firstHeaders: ["ETag": #""v1""#]) { body, _ in (200, [:], body) }
        _ = try await cancelledThenAgain(makePipeline(noRanges))
        #expect(noRanges.sent.withLock { $0 } == [[:], [:]])
        let off = HalfThenRestLoader { body, _ in (200, [:], body) }
        _ = try await cancelledThenAgain(
            makePipeline(off, limit: nil),
            url: URL(string: "https://example.com/other.jpg")!
        )
        #expect(off.sent.withLock { $0 } == [[:], [:]])
    }

    @Test func a206ToAPlainRequestIsAnErrorAndNothingIsStored() async throws {
        let loader = HalfThenRestLoader { body, _ in (206, ["Content-Range": "bytes 0-9/\(body.count)"], body) }
        let pipeline = makePipeline(loader, limit: nil)
        await #expect(throws: ImagePipeline.Error.self) { try await pipeline.image(for: ImageRequest(url: url)) }
        await #expect {
            try await pipeline.image(for: ImageRequest(url: url))
        } throws: { error in
            if case .statusCodeUnacceptable(206, _) = error as? ImagePipeline.Error { true } else { false }
        }
        await disk.flush()
        #expect(disk.cachedData(for: url.absoluteString) == nil)
    }
}
