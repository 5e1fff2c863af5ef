// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — a list's snapshots over loopback HTTP: an insert at the top, deletes, a move and a page
// keep the downloads still wanted, cancel exactly those of items gone, start nothing for them, and every cell shows
// its own item's image.

import Foundation
@_spi(Simulation) import Lookahead
import LookaheadFixtures
import Testing

@Suite(.timeLimit(.minutes(2))) struct ListSnapshotsOverHTTPTests {
    /// Item `aN` is picture N, `16 + N` pixels wide: a cell's image says which item it belongs to.
    static func number(_ item: String) -> Int { Int(item.dropFirst())! }
    static func width(_ item: String) -> Int { 16 + number(item) }

    @Test func snapshotChangesKeepWhatIsWantedCancelWhatIsGoneAndShowEachItemsImage() async throws {
        let server = try await FixtureServer.start()
        server.holdResponses(withPathPrefix: "/images/")  // every download waits until the test releases it
        var loading = DataLoaderOptions()
        loading.maximumConnectionsPerHost = 32  // every held download has its connection
        let pipeline = ImagePipeline {
            $0.dataLoader = CurlDataLoader(options: loading)
            $0.diskCache = nil
            // A held download sends nothing for as long as the test takes: no timeout may end it.
            $0.dataLoadTimeout = nil
            $0.dataLoadIdleTimeout = nil
            $0.dataLoadingConcurrency = 32
            $0.maximumBackgroundDataLoads = 32
        }
        @Sendable func request(_ item: String) -> ImageRequest? {
            ImageRequest(url: server.imageURL(Self.number(item), width: Self.width(item), height: 8))
        }
        func path(_ item: String) -> String { "/images/\(Self.number(item)).jpg" }
        var configuration = ListImageSlots<String>.Configuration()
        configuration.cancellationDelay = .zero  // a download no longer wanted stops at once
        configuration.keepMargin = 0
        configuration.memoryBudgetFraction = nil
        var items = (0..<100).map { "a\($0)" }
        let list = ListImageSlots(pipeline: pipeline, snapshot: ListSnapshot(items), configuration: configuration)

        // Six cells on screen; the window at rest prefetches the four items below them.
        let (changes, continuation) = AsyncStream.makeStream(of: (Int, ImageSlot.State).self)
        let cells = (0..<6).map { cell in ImageSlot(pipeline: pipeline) { continuation.yield((cell, $0)) } }
        var first = list.visibleRowsChanged(0..<6, requests: request)
        #expect(first.prefetch == ["a6", "a7", "a8", "a9"])
        for (cell, item) in zip(cells, items) { list.bind(item, request: request(item), to: cell) }
        for item in items[0..<10] { await server.waitForRequests(path: path(item), count: 1) }

        // Pull to refresh: three items arrive above. The screen keeps its items; the window gains the two just
        // above the screen and loses nothing.
        items = ["a200", "a201", "a202"] + items
        var update = list.apply(ListSnapshot(items), requests: request)
        #expect(update.cancel.isEmpty)
        #expect(update.prefetch == ["a202", "a201"])

        // A prefetched item is deleted: exactly its download stops, and the next item joins the window.
        items.removeAll { $0 == "a7" }
        update = list.apply(ListSnapshot(items), requests: request)
        #expect(update.cancel == ["a7"])
        #expect(update.prefetch == ["a10"])

        // An item far away is deleted, another far one moves to the top, a page is appended: nothing stops.
        items.removeAll { $0 == "a60" }
        update = list.apply(ListSnapshot(items), requests: request)
        #expect(update.cancel.isEmpty && update.prefetch.isEmpty)
        items.removeAll { $0 == "a80" }
        items.insert("a80", at: 0)
        update = list.apply(ListSnapshot(items), requests: request)
        #expect(update.cancel.isEmpty && update.prefetch.isEmpty)
        items += (100..<150).map { "a\($0)" }
        update = list.apply(ListSnapshot(items), requests: request)
        #expect(update.cancel.isEmpty && update.prefetch.isEmpty)

        // A cell is reused for another item while both downloads are held; then every download is answered.
        list.bind("a9", request: request("a9"), to: cells[0])
        server.releaseAllResponses()
        var shown: [Int: [Int]] = [:]
        let expected = ["a9", "a1", "a2", "a3", "a4", "a5"].map(Self.width)
        var iterator = changes.makeAsyncIterator()
        while (0..<6).contains(where: { shown[$0]?.last != expected[$0] }), let (cell, state) = await iterator.next() {
            if case .loaded(let image, _, _) = state { shown[cell, default: []].append(image.width) }
        }
        #expect(shown[0] == [Self.width("a9")], "the reused cell never showed its old item's image")

        // Scrolling to where the deleted items were asks for neither of them.
        let row = items.firstIndex(of: "a61")!
        first = list.visibleRowsChanged(row..<(row + 6), requests: request)
        for item in first.prefetch { await server.waitForRequests(path: path(item), count: 1) }
        #expect(!first.prefetch.isEmpty)
        #expect(server.requestCount(forPath: path("a60")) == 0)
        #expect(server.requestCount(forPath: path("a7")) == 1)
        list.stop()
        await server.stop()
    }
}
