// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — a download cancelled half-way resumes over real loopback HTTP: the server counts the body
// bytes it sent for each request.

import Foundation
import Lookahead
import LookaheadFixtures
import Testing

@Suite(.timeLimit(.minutes(2))) struct ResumableDownloadOverHTTPTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "lookahead-resume-\(UUID().uuidString)"
    )

    /// Both loaders hand over the body received before a cancellation.
    enum Loader: String, CaseIterable, Sendable {
        case curl, urlSession

        func make() -> any DataLoading {
            switch self {
            case .curl: CurlDataLoader()
            case .urlSession: URLSessionDataLoader()
            }
        }
    }

    private func makePipeline(_ disk: DiskCache, loader: Loader = .curl) -> ImagePipeline {
        ImagePipeline {
            $0.dataLoader = loader.make()
            $0.diskCache = disk
            $0.memoryCache = nil
            $0.partialDownloadLimit = 8 << 20
            $0.failureBackoff = nil  // a load that failed is tried again at once
        }
    }

    /// Starts a load of `url` (whose server writes half the body and stalls for `holdMs`), waits until the first
    /// progress report, cancels the load and waits until the server let go. The server does not notice a client
    /// that closes while it holds, so the hold is short (5 s); should a busy client still be cancelling when the
    /// server closes first, its transfer is cut short and keeps the same prefix.
    /// Returns the bytes the client had reported when it cancelled: it kept at least these.
    @discardableResult
    private func cancelAtHalf(_ url: URL, _ pipeline: ImagePipeline, _ server: FixtureServer, path: String) async
        -> Int64
    {
        let task = pipeline.imageTask(with: ImageRequest(url: url))
        var seen: Int64 = 0
        for await event in task.events {
            if case .progress(let completed, _) = event, completed > 0 {
                seen = completed
                break
            }
        }
        task.cancel()
        await server.waitForAbort(path: path)
        return seen
    }

    /// The whole image as a fresh client downloads it. Often the server's first request for the image: it encodes
    /// the image before the first byte, which in a full test run on a busy machine can take longer than the default
    /// idle timeout (15 s). So no timeouts here; the suite's time limit bounds the wait.
    private func reference(_ url: URL) async throws -> ImageResponse {
        try await ImagePipeline {
            $0.dataLoader = DefaultDataLoader()
            $0.diskCache = nil
            $0.memoryCache = nil
            $0.dataLoadIdleTimeout = nil
            $0.dataLoadTimeout = nil
        }.image(for: ImageRequest(url: url))
    }

    /// A server, and a pipeline on a disk cache in `folder`, with the whole image of `path` as a fresh client gets
    /// it and the body bytes that took.
    private func start(_ path: String, loader: Loader) async throws -> (
        server: FixtureServer, disk: DiskCache, pipeline: ImagePipeline, whole: ImageResponse, total: Int
    ) {
        let server = try await FixtureServer.start()
        let disk = DiskCache(directory: folder)
        let whole = try await reference(server.url(path + "?w=1024"))
        return (server, disk, makePipeline(disk, loader: loader), whole, server.bodyBytesSent(forPath: path))
    }

    /// Loads `url` again after an interruption at half of its `total` body bytes: the image is `whole`, from one
    /// `Range` request answered `206`. Returns the bytes that answer carried.
    private func resumeAfterHalf(
        _ url: URL,
        _ pipeline: ImagePipeline,
        _ server: FixtureServer,
        path: String,
        whole: ImageResponse,
        total: Int
    ) async throws -> Int {
        let resumed = try await pipeline.image(for: ImageRequest(url: url))
        #expect(resumed.image == whole.image)
        #expect(server.rangeRequestCount(forPath: path) == 1)
        #expect(server.partialContentCount(forPath: path) == 1)
        let rest = server.bodyBytesSent(forPath: path) - total - total / 2
        #expect(rest >= total - total / 2)
        return rest
    }

    @Test(arguments: Loader.allCases)
    func aDownloadCancelledAtHalfResumesAndTransfersOnlyTheRest(loader: Loader) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = "/resumable/1.jpg"
        let (server, disk, pipeline, whole, total) = try await start(path, loader: loader)
        #expect(total > 32 << 10)

        let url = server.url(path + "?w=1024&stall=1&holdMs=5000")
        let seen = await cancelAtHalf(url, pipeline, server, path: path)
        await disk.flush()
        #expect(server.bodyBytesSent(forPath: path) == total + total / 2)

        let rest = try await resumeAfterHalf(url, pipeline, server, path: path, whole: whole, total: total)
        // The second request carried only what the first did not: at most the whole less what the client had seen.
        #expect(rest <= total - Int(seen))
        #expect(seen > 0)
        await server.stop()
    }

    @Test(arguments: Loader.allCases)
    func aConnectionClosedAtHalfIsResumedByTheNextLoad(loader: Loader) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = "/resumable/5.jpg"
        let (server, disk, pipeline, whole, total) = try await start(path, loader: loader)
        // The server writes half the body and closes the connection at once.
        let url = server.url(path + "?w=1024&stall=1&holdMs=0")
        await #expect(throws: ImagePipeline.Error.self) { try await pipeline.image(for: ImageRequest(url: url)) }
        await disk.flush()

        let rest = try await resumeAfterHalf(url, pipeline, server, path: path, whole: whole, total: total)
        #expect(rest < total)
        await server.stop()
    }

    @Test func withoutAcceptRangesTheNextLoadStartsOver() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = "/resumable/2.jpg"
        // The reference first, so that the server has encoded the image before the loads under test wait for it.
        let (server, disk, pipeline, expected, whole) = try await start(path, loader: .curl)
        let url = server.url(path + "?w=1024&stall=1&holdMs=5000&ranges=0")
        await cancelAtHalf(url, pipeline, server, path: path)
        let half = server.bodyBytesSent(forPath: path) - whole
        await disk.flush()
        let full = try await pipeline.image(for: ImageRequest(url: url))
        #expect(full.image == expected.image)
        #expect(server.rangeRequestCount(forPath: path) == 0)
        #expect(server.partialContentCount(forPath: path) == 0)
        #expect(server.requestCount(forPath: path) == 3)
        // The whole body, half, then the whole body again: the load did not resume.
        #expect(server.bodyBytesSent(forPath: path) - whole - half == whole)
        #expect(whole / 2 == half)
        #expect(whole > 32 << 10)
        await server.stop()
    }

    @Test(arguments: ["start", "giant"])
    func a206WithAWrongContentRangeIsNotJoinedButStartsOver(badRange: String) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = "/resumable/4.jpg"
        // The reference first, so that the server has encoded the image before the loads under test wait for it.
        let (server, disk, pipeline, expected, _) = try await start(path, loader: .curl)
        let url = server.url(path + "?w=1024&stall=1&holdMs=5000&badRange=\(badRange)")
        await cancelAtHalf(url, pipeline, server, path: path)
        await disk.flush()
        let image = try await pipeline.image(for: ImageRequest(url: url))
        #expect(image.image == expected.image)
        // The resumed request got the hostile 206 and was not joined: one plain request followed (after the
        // reference and the cancelled one), and the whole body was stored.
        #expect(server.rangeRequestCount(forPath: path) == 1)
        #expect(server.partialContentCount(forPath: path) == 1)
        #expect(server.requestCount(forPath: path) == 4)
        await disk.flush()
        #expect(disk.cachedData(for: url.absoluteString) != nil)
        await server.stop()
    }

    @Test(arguments: Loader.allCases)
    func aChangedETagGetsTheWholeNewImage(loader: Loader) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = "/resumable/3.jpg"
        // Each version's reference first, so that the server has encoded the image before a load under test waits
        // for it.
        let (server, disk, pipeline, _, _) = try await start(path, loader: loader)
        await cancelAtHalf(server.url(path + "?w=1024&stall=1&holdMs=5000"), pipeline, server, path: path)
        await disk.flush()
        server.setCacheableVersion("v2", forPath: path)
        let expected = try await reference(server.url(path + "?w=1024"))
        let new = try await pipeline.image(for: ImageRequest(url: server.url(path + "?w=1024&stall=1&holdMs=5000")))
        #expect(new.image == expected.image)
        // The prefix was kept and offered (`If-Range` with the old ETag); the server sent the whole new body.
        #expect(server.rangeRequestCount(forPath: path) == 1)
        #expect(server.partialContentCount(forPath: path) == 0)
        await server.stop()
    }
}
