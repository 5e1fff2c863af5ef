// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — `lookahead fetch` run again and again as a separate process: every fetch leaves its disk
// cache entry behind, because the program waits for the disk write before it exits.

import Foundation
import Lookahead
import LookaheadFixtures
import Testing

@Suite(.timeLimit(.minutes(3))) struct FetchCommandFlushTests {
    /// The `lookahead` executable built next to this test bundle.
    static let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("lookahead")

    @Test func everyFetchLeavesItsEntryOnDisk() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.tool.path),
            "build the tools first (swift build --build-tests): \(Self.tool.path) is missing"
        )
        let caches = FileManager.default.temporaryDirectory.appendingPathComponent("lookahead-fetch-\(UUID())")
        defer { try? FileManager.default.removeItem(at: caches) }
        let server = try await FixtureServer.start()
        let count = 24
        for n in 1...count {
            // Large enough that the write takes a moment after the image is decoded.
            let url = server.imageURL(n, width: 900, height: 700)
            let fetch = try await runProgram(
                Self.tool,
                arguments: ["fetch", url.absoluteString],
                environment: ["XDG_CACHE_HOME": caches.path]
            )
            #expect(fetch.status == 0, "fetch \(n): \(fetch.output)\(fetch.errors)")
            #expect(fetch.output.contains("from the network"), "fetch \(n): \(fetch.output)\(fetch.errors)")
        }
        await server.stop()
        let folder = caches.appendingPathComponent("lookahead-images")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let entries = names.filter { $0.count == 64 }
        #expect(entries.count == count, "\(entries.count) entries after \(count) fetches")
        // Each is whole: a fresh cache on the folder serves every URL.
        let disk = DiskCache(directory: folder)
        for n in 1...count {
            #expect(disk.cachedData(for: server.imageURL(n, width: 900, height: 700).absoluteString) != nil)
        }
    }
}
