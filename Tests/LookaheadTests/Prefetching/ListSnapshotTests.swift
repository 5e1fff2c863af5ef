// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — a list's items change while loads run: inserts at the top, deletes, moves, pages and reloads
// keep the loads still wanted, cancel exactly the others, and start nothing for items that are gone.

import Foundation
import Testing

@_spi(Simulation) @testable import Lookahead

@Suite(.timeLimit(.minutes(1))) struct ListSnapshotTests {
    let network = GatedDataLoader()
    let clock = ManualClock()
    let scheduler = ManualScheduler()
    let pipeline: ImagePipeline
    let loader: ListImageSlots<String>
    /// The photos of the feed, `p0` … `p99`.
    static let photos = (0..<100).map { "p\($0)" }

    init() {
        let network = network
        pipeline = ImagePipeline {
            $0.dataLoader = network
            $0.diskCache = nil
            $0.dataLoadingConcurrency = 64
            $0.maximumBackgroundDataLoads = 64
        }
        var configuration = ListImageSlots<String>.Configuration()
        configuration.keepMargin = 2
        configuration.cancellationDelay = .milliseconds(400)
        let clock = clock
        loader = ListImageSlots(
            pipeline: pipeline,
            snapshot: ListSnapshot(Self.photos),
            configuration: configuration,
            now: { clock.now.offset },
            prefetchScheduler: scheduler.schedule
        )
    }

    private func url(_ item: String) -> String { "https://example.com/\(item).jpg" }
    private func request(_ item: String) -> ImageRequest? { ImageRequest(url: URL(string: url(item))) }

    private func setTime(_ milliseconds: Int) {
        clock.advance(by: .milliseconds(milliseconds) - clock.now.offset)
    }

    /// The feed at rest on its first four photos, bound to cells: the photos on screen load, and the window's
    /// prefetches (the next four) run.
    private func showFirstScreen() async -> [String: ImageSlot] {
        loader.visibleRowsChanged(0..<4, requests: request)
        var cells: [String: ImageSlot] = [:]
        for item in Self.photos[0..<4] {
            cells[item] = ImageSlot(pipeline: pipeline) { _ in }
            loader.bind(item, request: request(item), to: cells[item]!)
        }
        scheduler.runAll()
        await network.waitForStarts(8)
        #expect(Set(network.record.value.started) == Set(Self.photos[0..<8].map(url)))
        return cells
    }

    private var started: [String] { network.record.value.started }
    private var cancelled: Set<String> { Set(network.record.value.cancelled) }

    @Test func anInsertAtTheTopMovesTheWindowWithTheItemsAndCancelsNothing() async {
        _ = await showFirstScreen()
        // Pull to refresh: five new items above the photos on screen, which stay where they were.
        let fresh = (0..<5).map { "new\($0)" }
        let update = loader.apply(ListSnapshot(fresh + Self.photos), requests: request)
        scheduler.runAll()
        #expect(loader.controller.visible == 5..<9, "the window follows the photos on screen")
        #expect(loader.controller.velocity == 0, "an insert is no scroll")
        #expect(update.cancel.isEmpty)
        // Two of the new items are just above the screen, where the window keeps two items behind.
        #expect(update.prefetch == ["new4", "new3"])
        await network.waitForStarts(10)
        // Long past the cancellation delay, every load still wanted runs: none was cancelled.
        setTime(2000)
        #expect(loader.visibleRowsChanged(5..<9, requests: request).cancel.isEmpty)
        scheduler.runAll()
        #expect(cancelled.isEmpty)
        #expect(Set(started) == Set((Self.photos[0..<8] + ["new3", "new4"]).map(url)))
        loader.stop()
    }

    @Test func deletedItemsLoseTheirLoadsAtOnceAndNothingStartsForThem() async {
        let cells = await showFirstScreen()
        // p1 (on screen, its cell still bound) and p5, p6 (prefetching) are deleted.
        let removed: Set = ["p1", "p5", "p6"]
        let update = loader.apply(ListSnapshot(Self.photos.filter { !removed.contains($0) }), requests: request)
        scheduler.runAll()
        #expect(Set(update.cancel) == ["p5", "p6"], "gone items stop without the cancellation delay")
        await network.waitForCancellations(2)
        #expect(cancelled == Set(["p5", "p6"].map(url)))
        // The cell of p1 shows it until it is unbound (it animates out); then its load stops too.
        #expect(cells["p1"]!.state.request?.url?.absoluteString == url("p1"))
        loader.unbind(cells["p1"]!)
        await network.waitForCancellations(3)
        #expect(cancelled == Set(removed.map(url)))
        // The window stays on the same positions and closes the gap: the items that moved up into it (p8 … p10)
        // load; later updates start nothing for the items that are gone.
        await network.waitForStarts(11)
        setTime(2000)
        loader.visibleRowsChanged(0..<4, requests: request)
        scheduler.runAll()
        #expect(Set(started) == Set(Self.photos[0..<11].map(url)), "\(started)")
        #expect(started.count == 11, "each started once: \(started)")
        #expect(cancelled == Set(removed.map(url)))
        loader.stop()
    }

    @Test func aMoveKeepsTheLoadsOfItemsStillNearAndLetsAFarOneGoAfterTheDelay() async {
        _ = await showFirstScreen()
        // p6 moves to the end of the list; p50 moves just below the screen.
        var moved = Self.photos.filter { $0 != "p6" && $0 != "p50" }
        moved.insert("p50", at: 4)
        moved.append("p6")
        loader.apply(ListSnapshot(moved), requests: request)
        scheduler.runAll()
        await network.waitForStarts(9)
        #expect(started.last == url("p50"), "the item moved into the window loads")
        #expect(cancelled.isEmpty, "a download no longer wanted goes on for the delay")
        setTime(500)
        let update = loader.visibleRowsChanged(0..<4, requests: request)
        #expect(update.cancel == ["p6"])
        await network.waitForCancellations(1)
        #expect(cancelled == [url("p6")])
        #expect(Set(started) == Set((Self.photos[0..<8] + ["p50"]).map(url)))
        loader.stop()
    }

    @Test func aPageAppendedAtTheEndExtendsTheWindowAndCancelsNothing() async {
        // The first page: ten photos, scrolled to its end.
        loader.apply(ListSnapshot(Self.photos[0..<10]), requests: request)
        loader.visibleRowsChanged(6..<10, requests: request)
        scheduler.runAll()
        await network.waitForStarts(2)
        #expect(Set(started) == Set(["p4", "p5"].map(url)), "two behind, none ahead: the end of the list")
        let update = loader.apply(ListSnapshot(Self.photos[0..<30]), requests: request)
        scheduler.runAll()
        #expect(update.prefetch == ["p10", "p11", "p12", "p13"])
        await network.waitForStarts(6)
        #expect(cancelled.isEmpty)
        loader.stop()
    }

    @Test func aReloadedItemsNewImageReplacesItsOldOnesDownload() async {
        _ = await showFirstScreen()
        // p5's image changes: the same item, a new request.
        let reloaded: (String) -> ImageRequest? = { item in
            item == "p5" ? ImageRequest(url: URL(string: "https://example.com/p5-v2.jpg")) : request(item)
        }
        let update = loader.apply(ListSnapshot(Self.photos), requests: reloaded)
        scheduler.runAll()
        #expect(update.prefetch.isEmpty, "the item was already in the window")
        await network.waitForCancellations(1)
        #expect(cancelled == [url("p5")])
        await network.waitForStarts(9)
        #expect(started.last == "https://example.com/p5-v2.jpg")
        loader.stop()
    }
}

/// Cells over a changing list: each image view shows its own item's image, never another's.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct ListSnapshotBindingTests {
    let network: GatedDataLoader
    let hops = ManualScheduler()
    let prefetcher: ListPrefetcher<Int>
    let cells = (FakeImageView(), FakeImageView())

    /// Item n's image is (10 + n)×8.
    init() {
        let network = GatedDataLoader { url in
            let width = 10 + (Int(url.deletingPathExtension().lastPathComponent) ?? 0)
            let pixels = TestImages.gradient(width: width, height: 8)
            return .success(DataLoadResponse(data: Data(TestImages.encode(pixels: pixels, width: width, height: 8))))
        }
        self.network = network
        let pipeline = ImagePipeline {
            $0.dataLoader = network
            $0.diskCache = nil
        }
        let clock = ManualClock()
        let slots = ListImageSlots<Int>(
            pipeline: pipeline,
            snapshot: ListSnapshot(1...40),
            configuration: ListImageSlots<Int>.Configuration(),
            now: { clock.now.offset },
            prefetchScheduler: ManualScheduler().schedule  // no prefetches: only the cells load
        )
        prefetcher = ListPrefetcher(slots: slots) { ImageRequest(url: URL(string: "https://example.com/\($0).jpg")) }
        for cell in [cells.0, cells.1] {
            let options = ImageLoadingOptions(pipeline: pipeline)
            cell.lookaheadBinding = ImageViewBinding(view: cell, options: options, mainScheduler: hops.schedule)
        }
    }

    private func url(_ item: Int) -> String { "https://example.com/\(item).jpg" }

    @Test func aCellReusedAcrossASnapshotShowsOnlyItsNewItemsImage() async {
        let (cell, other) = cells
        prefetcher.itemAppeared(1)
        prefetcher.itemAppeared(2)
        prefetcher.bind(cell, item: 1)
        prefetcher.bind(other, item: 2)
        await network.waitForPending(2)
        // Pull to refresh: item 41 above, item 1 deleted. The cell of item 1 ends displaying and shows item 41.
        prefetcher.apply(ListSnapshot([41] + Array(2...40)))
        prefetcher.unbind(cell)
        await network.waitForCancellations(1)
        #expect(network.record.value.cancelled == [url(1)], "the deleted item's load stopped at once")
        prefetcher.bind(cell, item: 41)
        // The other cell is bound to item 3 before item 2 is unbound (as an app that rebinds without unbinding):
        // the late unbind of item 2 leaves it alone.
        prefetcher.bind(other, item: 3)
        prefetcher.slots.unbind(2)
        #expect(other.lookahead.state.request?.url?.absoluteString == url(3))
        await network.waitForCancellations(2)
        #expect(Set(network.record.value.cancelled) == [url(1), url(2)], "each cell's previous load stopped")
        for item in [41, 3] {
            await network.waitForPending(url(item))
            network.release(url(item))
        }
        func images(_ view: FakeImageView) -> Set<String> { Set(view.shown.value.map(\.image)).subtracting(["nil"]) }
        while images(cell).isEmpty || images(other).isEmpty {
            await hops.waitForWork()
            hops.runAll()
        }
        #expect(images(cell) == ["51x8"], "cell showed \(cell.labels)")
        #expect(images(other) == ["13x8"], "other cell showed \(other.labels)")
        #expect(Set(network.record.value.started) == Set([1, 2, 41, 3].map(url)))
        prefetcher.slots.stop()
    }
}
