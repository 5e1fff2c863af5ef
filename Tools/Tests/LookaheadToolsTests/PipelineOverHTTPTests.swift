// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — the pipeline and both transports against the real fixture server on loopback.

import Foundation
import Lookahead
import LookaheadFixtures
import Testing

@Suite(.timeLimit(.minutes(2))) struct PipelineOverHTTPTests {
    private func makePipeline(
        _ transport: Transport = .default,
        _ configure: (inout ImagePipeline.Configuration) -> Void = { _ in }
    ) -> ImagePipeline {
        ImagePipeline {
            $0.diskCache = nil
            $0.dataLoader = transport.makeLoader()
            $0.memoryCache = MemoryCache(costLimit: 32 << 20)
            configure(&$0)
        }
    }

    private func error(loading url: URL, with pipeline: ImagePipeline) async -> ImagePipeline.Error? {
        do {
            _ = try await pipeline.image(for: url)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: Transport.allCases) func loadsTheRightImageForEachURL(transport: Transport) async throws {
        let server = try await FixtureServer.start()
        let pipeline = makePipeline(transport)
        for n in [3, 4] {
            let response = try await pipeline.image(for: server.imageURL(n, width: 40, height: 30))
            #expect(response.image.width == 40 && response.image.height == 30)
            #expect(response.httpResponse?.statusCode == 200)
            let source = FixtureImages.rgb(number: n, width: 40, height: 30)
            var worst = 0
            var total = 0
            for y in 0..<30 {
                for x in 0..<40 {
                    let pixel = response.image[x, y]
                    let offset = (y * 40 + x) * 3
                    let difference =
                        abs(Int(pixel.red) - Int(source[offset])) + abs(Int(pixel.green) - Int(source[offset + 1]))
                        + abs(Int(pixel.blue) - Int(source[offset + 2]))
                    worst = max(worst, difference)
                    total += difference
                }
            }
            // JPEG at quality 85 with 4:2:0: small average error; another image would be far off.
            #expect(Double(total) / 1200 < 30, "mean error \(Double(total) / 1200) for image \(n)")
        }
        await server.stop()
    }

    @Test func tenConcurrentIdenticalLoadsMakeOneRequest() async throws {
        let server = try await FixtureServer.start(configuration: .init(latency: .milliseconds(50)))
        let pipeline = makePipeline()
        let url = server.imageURL(5, width: 64, height: 64)
        let tasks = (0..<10).map { _ in pipeline.imageTask(with: ImageRequest(url: url)) }
        for task in tasks {
            let response = try await task.response
            #expect(response.image.width == 64)
        }
        #expect(server.requestCount(forPath: "/images/5.jpg") == 1)
        // And the memory cache answers the next one without a request.
        let cached = try await pipeline.image(for: url)
        #expect(cached.cacheType == .memory)
        #expect(server.requestCount(forPath: "/images/5.jpg") == 1)
        await server.stop()
    }

    @Test(arguments: Transport.allCases) func cancellingALoadClosesTheConnection(transport: Transport) async throws {
        let server = try await FixtureServer.start()
        let pipeline = makePipeline(transport)
        let url = server.baseURL.appending(path: "faults/slow").appending(queryItems: [
            URLQueryItem(name: "bytes", value: "400000"), URLQueryItem(name: "chunk", value: "1024"),
            URLQueryItem(name: "delayMs", value: "20"),
        ])
        let task = pipeline.imageTask(with: ImageRequest(url: url))
        for await event in task.events {
            if case .progress = event { break }  // bytes are flowing
        }
        task.cancel()
        await server.waitForAbort(path: "/faults/slow")
        #expect(server.abortedCount(forPath: "/faults/slow") == 1)
        #expect(server.completedCount(forPath: "/faults/slow") == 0)
        await expectError(task) { if case .cancelled = $0 { true } else { false } }
        await server.stop()
    }

    @Test(arguments: Transport.allCases, [404, 500])
    func statusCodesAreTypedErrors(transport: Transport, code: Int) async throws {
        let server = try await FixtureServer.start()
        // A wait far longer than the test: on a busy machine the default second may pass before the plain request.
        let pipeline = makePipeline(transport) {
            $0.failureBackoff = .init(initialDelay: .seconds(3600), maximumDelay: .seconds(3600))
        }
        let error = await error(loading: server.baseURL.appending(path: "status/\(code)"), with: pipeline)
        guard case .statusCodeUnacceptable(code, _) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        // Failures are not cached: an explicit retry reaches the server again, while a plain request for the
        // URL, which waits after its failure, fails at once.
        let url = server.baseURL.appending(path: "status/\(code)")
        _ = try? await pipeline.image(for: ImageRequest(url: url, options: .skipFailureBackoff))
        #expect(server.requestCount(forPath: "/status/\(code)") == 2)
        guard case .failureBackoff(.statusCodeUnacceptable(code, _), _) = await self.error(loading: url, with: pipeline)
        else {
            Issue.record("a plain request should wait")
            return
        }
        #expect(server.requestCount(forPath: "/status/\(code)") == 2)
        await server.stop()
    }

    @Test(arguments: Transport.allCases, ["true", "false"])
    func oversizedResponsesFailWithAndWithoutContentLength(transport: Transport, length: String) async throws {
        let server = try await FixtureServer.start()
        let pipeline = makePipeline(transport) { $0.maximumResponseSize = 100_000 }
        let url = server.baseURL.appending(path: "faults/large").appending(queryItems: [
            URLQueryItem(name: "bytes", value: "2000000"), URLQueryItem(name: "length", value: length),
        ])
        let error = await error(loading: url, with: pipeline)
        guard case .responseTooLarge(limit: 100_000) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        await server.stop()
    }

    @Test(arguments: Transport.allCases) func brokenBodiesAreTypedErrors(transport: Transport) async throws {
        let server = try await FixtureServer.start()
        let pipeline = makePipeline(transport) { $0.maximumPixelCount = 10_000_000 }
        let base = server.baseURL
        let empty = await error(loading: base.appending(path: "faults/empty"), with: pipeline)
        guard case .dataIsEmpty = empty else { Issue.record("empty: \(String(describing: empty))"); return }
        let corrupt = await error(loading: base.appending(path: "faults/corrupt.jpg"), with: pipeline)
        guard case .decodingFailed(codec: "JPEG", _) = corrupt else {
            Issue.record("corrupt: \(String(describing: corrupt))")
            return
        }
        let truncated = await error(loading: base.appending(path: "faults/truncated.jpg"), with: pipeline)
        guard case .decodingFailed(codec: "JPEG", _) = truncated else {
            Issue.record("truncated: \(String(describing: truncated))")
            return
        }
        let huge = await error(loading: base.appending(path: "faults/huge-dimensions.jpg"), with: pipeline)
        guard case .imageTooLarge(let width, let height, limit: 10_000_000) = huge, width * height > 10_000_000 else {
            Issue.record("huge: \(String(describing: huge))")
            return
        }
        await server.stop()
    }

    @Test(arguments: Transport.allCases) func connectionFailuresAreTypedErrors(transport: Transport) async throws {
        let server = try await FixtureServer.start()
        let pipeline = makePipeline(transport)
        let reset = await error(loading: server.baseURL.appending(path: "faults/reset"), with: pipeline)
        guard case .dataLoadingFailed = reset else { Issue.record("reset: \(String(describing: reset))"); return }
        let closedURL = server.imageURL(1)
        await server.stop()
        let refused = await error(loading: closedURL, with: pipeline)
        guard case .dataLoadingFailed = refused else { Issue.record("refused: \(String(describing: refused))"); return }
    }

    @Test func cacheOnlyRequestsNeverReachTheServer() async throws {
        let server = try await FixtureServer.start()
        let pipeline = makePipeline()
        var request = ImageRequest(url: server.imageURL(9))
        request.options = [.returnCacheDataDontLoad]
        let error: ImagePipeline.Error?
        do {
            _ = try await pipeline.image(for: request)
            error = nil
        } catch let failure {
            error = failure
        }
        guard case .dataMissingInCache = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(server.totalRequestCount == 0)
        await server.stop()
    }
}

func expectError(
    _ task: ImageTask,
    sourceLocation: SourceLocation = #_sourceLocation,
    matches: (ImagePipeline.Error) -> Bool
) async {
    do {
        _ = try await task.response
        Issue.record("expected an error", sourceLocation: sourceLocation)
    } catch {
        #expect(matches(error), "unexpected \(error)", sourceLocation: sourceLocation)
    }
}
