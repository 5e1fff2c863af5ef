// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureServerTests: the loopback fixture server, exercised over real HTTP with URLSession.

import Foundation
import Synchronization
import Testing

@testable import LookaheadFixtures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite(.timeLimit(.minutes(1)))
struct FixtureServerTests {
    // MARK: - Images

    @Test func imageIsTheGeneratedJPEG() async throws {
        try await withServer { server, client in
            let (data, response) = try await client.get(server.imageURL(3, width: 64, height: 48))
            #expect(response.statusCode == 200)
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "image/jpeg")
            #expect(response.value(forHTTPHeaderField: "Content-Length") == String(data.count))
            #expect(Array(data.prefix(3)) == [0xFF, 0xD8, 0xFF])
            #expect(Array(data) == (try FixtureImages.jpeg(number: 3, width: 64, height: 48)))
        }
    }

    @Test func imageSizeDefaultsAndSquares() async throws {
        try await withServer { server, client in
            let (defaultSized, _) = try await client.get(server.imageURL(5))
            #expect(Array(defaultSized) == (try FixtureImages.jpeg(number: 5, width: 200, height: 200)))
            let (square, _) = try await client.get(server.imageURL(5, width: 40))
            #expect(Array(square) == (try FixtureImages.jpeg(number: 5, width: 40, height: 40)))
        }
    }

    @Test func differentNumbersGiveDifferentPictures() async throws {
        try await withServer { server, client in
            let (first, _) = try await client.get(server.imageURL(1, width: 32, height: 32))
            let (second, _) = try await client.get(server.imageURL(2, width: 32, height: 32))
            let (firstAgain, _) = try await client.get(server.imageURL(1, width: 32, height: 32))
            #expect(first != second)
            #expect(first == firstAgain)
        }
        #expect(FixtureImages.rgb(number: 1, width: 8, height: 8) != FixtureImages.rgb(number: 2, width: 8, height: 8))
        #expect(FixtureImages.rgb(number: 9, width: 8, height: 5).count == 8 * 5 * 3)
    }

    @Test(arguments: ["/images/-1.jpg", "/images/abc.jpg", "/no/such/route"])
    func unknownImagesAreNotFound(path: String) async throws {
        try await withServer { server, client in
            let (_, response) = try await client.get(server.url(path))
            #expect(response.statusCode == 404)
        }
    }

    // MARK: - Counters

    @Test func eachRequestCountsExactlyOnce() async throws {
        try await withServer { server, client in
            let path = "/images/7.jpg"
            #expect(server.requestCount(forPath: path) == 0)
            for expected in 1...3 {
                _ = try await client.get(server.imageURL(7, width: 16 * expected))
                #expect(server.requestCount(forPath: path) == expected)
                #expect(server.totalRequestCount == expected)
            }
            await server.waitForCompletion(path: path, count: 3)
            #expect(server.completedCount(forPath: path) == 3)
            #expect(server.abortedCount(forPath: path) == 0)
            #expect(server.requestCount(forPath: "/images/8.jpg") == 0)

            server.resetCounters()
            #expect(server.requestCount(forPath: path) == 0)
            #expect(server.totalRequestCount == 0)
        }
    }

    // MARK: - Status codes and faults

    @Test(arguments: [404, 500, 503])
    func statusRouteAnswersWithThatCode(code: Int) async throws {
        try await withServer { server, client in
            let (data, response) = try await client.get(server.url("/status/\(code)"))
            #expect(response.statusCode == code)
            #expect(String(decoding: data, as: UTF8.self).contains(String(code)))
        }
    }

    @Test func brokenJPEGRoutes() async throws {
        try await withServer { server, client in
            let (empty, emptyResponse) = try await client.get(server.url("/faults/empty"))
            #expect(emptyResponse.statusCode == 200)
            #expect(empty.isEmpty)

            let (corrupt, _) = try await client.get(server.url("/faults/corrupt.jpg"))
            #expect(Array(corrupt) == FixtureImages.corruptJPEG())
            #expect(Array(corrupt.prefix(3)) == [0xFF, 0xD8, 0xFF])

            let (truncated, _) = try await client.get(server.url("/faults/truncated.jpg"))
            let whole = try FixtureImages.jpeg(number: 1, width: 200, height: 200)
            #expect(Array(truncated) == Array(whole.prefix(whole.count / 2)))

            let (huge, _) = try await client.get(server.url("/faults/huge-dimensions.jpg"))
            let bytes = Array(huge)
            let frame = try #require(FixtureImages.frameHeaderOffset(in: bytes))
            #expect(Int(bytes[frame + 5]) << 8 | Int(bytes[frame + 6]) == 65000)
            #expect(Int(bytes[frame + 7]) << 8 | Int(bytes[frame + 8]) == 65000)
        }
    }

    @Test func largeBodyWithAndWithoutContentLength() async throws {
        try await withServer { server, client in
            let (chunked, chunkedResponse) = try await client.get(server.url("/faults/large?bytes=200000&length=false"))
            #expect(chunkedResponse.value(forHTTPHeaderField: "Content-Length") == nil)
            #expect(chunked.count == 200_000)
            #expect(chunked[chunked.startIndex + 70_000] == UInt8(70_000 & 0xFF))

            let (sized, sizedResponse) = try await client.get(server.url("/faults/large?bytes=200000&length=true"))
            #expect(sizedResponse.value(forHTTPHeaderField: "Content-Length") == "200000")
            #expect(sized == chunked)
        }
    }

    @Test func resetClosesTheConnectionWithoutAResponse() async throws {
        try await withServer { server, client in
            await #expect(throws: URLError.self) {
                _ = try await client.get(server.url("/faults/reset"))
            }
            #expect(server.requestCount(forPath: "/faults/reset") == 1)
            await server.waitForAbort(path: "/faults/reset")
            #expect(server.abortedCount(forPath: "/faults/reset") == 1)
            #expect(server.completedCount(forPath: "/faults/reset") == 0)
        }
    }

    // MARK: - Aborts

    @Test func cancellingASlowDownloadIsSeenAsAnAbort() async throws {
        try await withServer { server, client in
            let path = "/faults/slow"
            let download = Task {
                try await client.get(server.url("\(path)?bytes=1000000&chunk=1000&delayMs=20"))
            }
            await server.waitForRequests(path: path, count: 1)
            download.cancel()
            await server.waitForAbort(path: path)
            #expect(server.abortedCount(forPath: path) == 1)
            #expect(server.completedCount(forPath: path) == 0)
            let outcome = await download.result
            #expect(throws: (any Error).self) { try outcome.get() }
        }
    }

    @Test func cancellingABandwidthLimitedImageIsSeenAsAnAbort() async throws {
        try await withServer(.init { $0.bytesPerSecond = 2000 }) { server, client in
            let path = "/images/4.jpg"
            let download = Task { try await client.get(server.imageURL(4)) }
            await server.waitForRequests(path: path, count: 1)
            download.cancel()
            await server.waitForAbort(path: path)
            #expect(server.completedCount(forPath: path) == 0)
            _ = await download.result
        }
    }

    @Test func bandwidthLimitedImageArrivesIntact() async throws {
        try await withServer(.init { $0.bytesPerSecond = 200_000 }) { server, client in
            let (data, _) = try await client.get(server.imageURL(6, width: 120, height: 90))
            #expect(Array(data) == (try FixtureImages.jpeg(number: 6, width: 120, height: 90)))
        }
    }

    // MARK: - Latency

    @Test func latencyHoldsImageHeadersButNotOtherRoutes() async throws {
        try await withServer(.init { $0.latency = .seconds(3600) }) { server, client in
            let imagePath = "/images/9.jpg"
            let answered = Answered()
            let image = Task {
                _ = try await client.get(server.imageURL(9))
                answered.mark()
            }
            await server.waitForRequests(path: imagePath, count: 1)

            // A route without latency answers while the image is still being held back.
            let (_, response) = try await client.get(server.url("/status/200"))
            #expect(response.statusCode == 200)
            #expect(!answered.isMarked)
            #expect(server.completedCount(forPath: imagePath) == 0)
            #expect(server.requestCount(forPath: imagePath) == 1)

            image.cancel()
            _ = await image.result
        }
    }

    @Test func jitterIsAPureFunctionOfSeedPathAndIndex() {
        let schedule = LatencySchedule(latency: .milliseconds(10), jitter: .milliseconds(50), seed: 42)
        let same = LatencySchedule(latency: .milliseconds(10), jitter: .milliseconds(50), seed: 42)
        let other = LatencySchedule(latency: .milliseconds(10), jitter: .milliseconds(50), seed: 43)
        let delays = (0..<20).map { schedule.delay(path: "/images/1.jpg", index: $0) }
        #expect(delays == (0..<20).map { same.delay(path: "/images/1.jpg", index: $0) })
        #expect(delays != (0..<20).map { other.delay(path: "/images/1.jpg", index: $0) })
        #expect(delays != (0..<20).map { schedule.delay(path: "/images/2.jpg", index: $0) })
        #expect(delays.allSatisfy { $0 >= .milliseconds(10) && $0 <= .milliseconds(60) })
        #expect(Set(delays).count > 1)
    }

    // MARK: - Lifecycle

    @Test func startFailsWhenThePortIsTaken() async throws {
        try await withServer { server, _ in
            await #expect(throws: FixtureServer.Error.self) {
                let second = try await FixtureServer.start(configuration: .init(port: server.port))
                await second.stop()
            }
        }
    }

    @Test func stopIsIdempotentAndClosesThePort() async throws {
        let server = try await FixtureServer.start()
        let client = FixtureClient()
        defer { client.close() }
        #expect(server.port > 0)
        #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
        _ = try await client.get(server.url("/status/200"))
        await server.stop()
        await server.stop()
        await #expect(throws: (any Error).self) {
            _ = try await client.get(server.url("/status/200"))
        }
    }

    // MARK: - Helpers

    /// Starts a server, runs `body` against it with a fresh client, and stops it again.
    private func withServer(
        _ configuration: FixtureServer.Configuration = .init(),
        _ body: (FixtureServer, FixtureClient) async throws -> Void
    ) async throws {
        try await withFixtureServer(configuration, body)
    }
}

/// A flag one task sets and another reads.
private final class Answered: Sendable {
    private let flag = Atomic(false)

    var isMarked: Bool { flag.load(ordering: .acquiring) }

    func mark() {
        flag.store(true, ordering: .releasing)
    }
}
