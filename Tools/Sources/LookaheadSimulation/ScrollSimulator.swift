// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead simulation — a scrolling list, frame by frame, driving the real library in virtual time.

import Foundation
@_spi(Simulation) import Lookahead

/// Runs scroll scenarios over the real library: `ImagePipeline` (task graph, coalescing, priorities, background
/// download slots, memory cache, real decoders), `ImagePrefetcher`, `ImageSlot` and, for Lookahead's strategy,
/// `ListImageSlots` — the very objects an app uses. Only the world is modelled: the network (latency drawn per
/// row and attempt, bandwidth per connection, the pipeline's download limit as the connection limit), the time a
/// decode takes, and the scroll.
///
/// Virtual time (``VirtualTime``) makes it deterministic: nothing sleeps, and the same scenario gives the same
/// figures — all but the hitch figure, which adds the measured main-thread cost of the real calls each frame
/// (binding cells, moving the window) to what a synchronous strategy blocks.
public enum ScrollSimulator {
    /// Runs one strategy on one scenario.
    public static func run(_ scenario: ScrollScenario, strategy: ScrollStrategy) -> ScrollReport {
        Simulation(scenario: scenario, strategy: strategy).run()
    }

    /// Runs one strategy on one scenario, and says what the network and the screen saw, frame by frame.
    static func trace(_ scenario: ScrollScenario, strategy: ScrollStrategy) -> (ScrollReport, ScrollTrace) {
        let simulation = Simulation(scenario: scenario, strategy: strategy)
        let report = simulation.run()
        return (report, ScrollTrace(network: simulation.network.ledger.events, frames: simulation.trace))
    }

    /// Runs every strategy on a scenario.
    public static func compare(_ scenario: ScrollScenario, strategies: [ScrollStrategy] = ScrollStrategy.allCases)
        -> [ScrollReport]
    {
        strategies.map { run(scenario, strategy: $0) }
    }

    /// A small PNG whose colour names `item`: what the modelled network sends for it (its size is modelled
    /// separately), decoded for real, so that a cell's image says whose it is.
    static func body(item: Int) -> Data {
        let bitmap = Bitmap(width: 4, height: 4, red: UInt8(item & 0xFF), green: UInt8(item >> 8 & 0xFF), blue: 200)
        return (try? ImageEncoders.PNG.encode(bitmap)) ?? Data()
    }

    /// The item whose image `image` is (see ``body(item:)``).
    static func item(shownBy image: PlatformImage) -> Int {
        let pixel = image[0, 0]
        return Int(pixel.red) | Int(pixel.green) << 8
    }
}

/// One run: one strategy on one scenario.
// SAFETY: a simulation lives on the thread that calls `run()`. The library calls back into it (the oracle's
// completions) only from work that `VirtualTime.run(until:)` performs, synchronously, on that same thread.
final class Simulation: @unchecked Sendable {
    /// What happened to one item of the feed.
    struct Item {
        var wasShown = false
        var firstShownWithImage = false
        var everDisplayedImage = false
        var placeholder = Duration.zero
    }

    struct Cell {
        let slot: ImageSlot
        var item: Int?
    }

    let scenario: ScrollScenario
    let strategy: ScrollStrategy
    let frame: Duration
    let time: VirtualTime
    let network: SimulatedNetwork
    let pipeline: ImagePipeline
    let loader: ListImageSlots<Int>?
    let prefetcher: ImagePrefetcher?
    let timeline: FeedTimeline
    var cells: [Cell] = []
    /// Every item the feed ever holds, by identifier.
    var items: [Item]
    /// The list as it is now (an index into the timeline's lists), and its items on screen, top to bottom.
    var list = 0
    var visible: [Int] = []
    var direction = 1
    var missed = Duration.zero
    let requests: [ImageRequest]
    /// The oracle's loads in flight, and the frames at which each item is on screen.
    var oracle: [Int: ImageTask] = [:]
    var visibleFrames: [[Int]] = []
    var frameIndex = 0
    /// What each frame showed, for the report's wrong-item count and the tests.
    var trace: [ScrollTrace.Frame] = []

    init(scenario: ScrollScenario, strategy: ScrollStrategy) {
        self.scenario = scenario
        self.strategy = strategy
        self.frame = .seconds(1) / scenario.frameRate
        self.timeline = FeedTimeline(scenario)
        let time = VirtualTime(decodeDuration: .microseconds(Int64(scenario.decodeMilliseconds * 1000)))
        self.time = time
        let network = SimulatedNetwork(scenario: scenario, time: time)
        self.network = network
        let pipeline = ImagePipeline(
            configuration: Self.configuration(scenario: scenario, strategy: strategy, network: network, time: time)
        )
        self.pipeline = pipeline
        let deferred: @Sendable (@escaping @Sendable () -> Void) -> Void = { work in
            time.schedule(after: .zero, work)
        }
        switch strategy {
        case .lookahead:
            self.loader = ListImageSlots(
                pipeline: pipeline,
                snapshot: ListSnapshot(timeline.lists[0]),
                configuration: scenario.loaderConfiguration,
                now: { time.now },
                prefetchScheduler: deferred
            )
            self.prefetcher = nil
        case .uikit, .prefetchLazy, .prefetchSynchronous:
            self.loader = nil
            self.prefetcher = ImagePrefetcher(
                pipeline: pipeline,
                destination: .memoryCache,
                maxConcurrentRequestCount: strategy == .uikit ? 2 : 1000,
                scheduler: deferred
            )
            if strategy != .uikit { prefetcher?.priority = .normal }
        case .synchronous, .oracle, .oracleAtRelease:
            self.loader = nil
            self.prefetcher = nil
        }
        self.items = Array(repeating: Item(), count: timeline.itemCount)
        self.requests = (0..<timeline.itemCount).map { ImageRequest(url: URL(string: "sim://rows/\($0)")) }
        let cellCount = Int(scenario.viewportRows.rounded(.up)) + 2
        self.cells = (0..<cellCount).map { _ in Cell(slot: ImageSlot(pipeline: pipeline) { _ in }, item: nil) }
    }

    /// The pipeline of a run: the simulated network and virtual time, no disk cache, no timeouts or backoff.
    private static func configuration(
        scenario: ScrollScenario,
        strategy: ScrollStrategy,
        network: SimulatedNetwork,
        time: VirtualTime
    ) -> ImagePipeline.Configuration {
        var configuration = ImagePipeline.Configuration(
            dataLoader: network,
            memoryCache: MemoryCache(
                costLimit: .max / 2,
                countLimit: scenario.memoryCacheCount,
                entryCostLimit: .max / 2
            ),
            diskCache: nil
        )
        configuration.executor = time
        configuration.dataLoadingConcurrency = scenario.connectionLimit
        configuration.decodingConcurrency = 2
        configuration.stalledDownloadInterval = nil
        configuration.failureBackoff = nil
        configuration.dataLoadTimeout = nil
        configuration.dataLoadIdleTimeout = nil
        if strategy != .lookahead {
            // The peers have no background slots: a prefetch may take every connection.
            configuration.maximumBackgroundDataLoads = scenario.connectionLimit
        }
        return configuration
    }

    // MARK: - The frame loop

    /// The items of the list now.
    var currentList: [Int] { timeline.lists[list] }

    func run() -> ScrollReport {
        let frames = timeline.frames
        let positions = frames.map(\.position)
        if strategy.isOracle { visibleFrames = visibleFrames(positions) }
        let firstCoastingFrame = frames.firstIndex(where: \.isDecelerating) ?? frames.count
        for (index, step) in frames.enumerated() {
            frameIndex = index
            if strategy == .oracleAtRelease, index <= firstCoastingFrame {
                // Until the fling begins, it expects the scroll to go on at the speed of the last frame.
                let known = index < firstCoastingFrame ? extrapolated(positions, from: index) : positions
                visibleFrames = visibleFrames(known)
            }
            // A frame blocked by a synchronous load pushes the clock past later frames: those run at once.
            time.run(until: max(frame * index, time.now))
            let frameStart = time.now
            if step.moved != 0 { direction = step.moved > 0 ? 1 : -1 }
            let clock = ContinuousClock()
            let start = clock.now
            if step.list != list { listChanged(to: step.list) }
            let next = timeline.visibleRange(position: step.position, count: currentList.count)
            let isDecelerating = scenario.reportsDeceleration ? step.isDecelerating : nil
            let blocked = update(
                to: next,
                position: step.position,
                isDecelerating: isDecelerating,
                frameStart: frameStart
            )
            let measured = start.duration(to: clock.now) - blocked.wall
            // What the frame's own calls scheduled at this instant (the prefetcher's turn) runs now.
            time.run(until: time.now)
            recordFrame()
            missed += max(.zero, measured + blocked.virtual - frame)
        }
        loader?.stop()
        prefetcher?.stopPrefetching()
        return report(duration: frame * frames.count)
    }

    /// The feed changed: the loader is told, as an app applies its data source's new snapshot. The cells of
    /// deleted items end displaying in the update that follows.
    private func listChanged(to index: Int) {
        list = index
        loader?.apply(ListSnapshot(timeline.lists[index])) { requests[$0] }
    }

    /// Moves the list to the positions `next`: the window first (as `scrollViewDidScroll` comes before layout), then
    /// the cells whose items left and the cells of the items that came. Returns the time a synchronous load blocked
    /// the frame.
    private func update(to next: Range<Int>, position: Double, isDecelerating: Bool?, frameStart: Duration) -> (
        virtual: Duration, wall: Duration
    ) {
        let now = Array(currentList[next])
        let shown = Set(now)
        let before = Set(visible)
        let left = visible.filter { !shown.contains($0) }
        let came = now.filter { !before.contains($0) }
        visible = now
        var blocked: (virtual: Duration, wall: Duration) = (.zero, .zero)
        switch strategy {
        case .lookahead:
            guard let loader else { break }
            loader.visibleRowsChanged(next, position: position, isDecelerating: isDecelerating) { requests[$0] }
            for item in left {
                loader.unbind(item)
                release(item)
            }
            for item in came {
                let cell = take(item)
                loader.bind(item, request: requests[item], to: cells[cell].slot)
                appeared(item)
            }
        case .uikit, .prefetchLazy, .prefetchSynchronous, .synchronous:
            if let prefetcher {
                prefetcher.prefetch(fixedWindow(next).map { requests[currentList[$0]] })
            }
            for item in left {
                cells[release(item)].slot.prepareForReuse()
            }
            for item in came {
                configure(take(item), with: item, blocked: &blocked.wall)
                appeared(item)
            }
            blocked.virtual = time.now - frameStart
        case .oracle, .oracleAtRelease:
            for item in left { release(item) }
            for item in came {
                _ = take(item)
                appeared(item)
            }
            scheduleOracleLoads()
        }
        return blocked
    }

    /// A peer's cell configured with `item`'s request; a synchronous strategy waits for the image, adding the
    /// wall time it took to `blocked`.
    private func configure(_ cell: Int, with item: Int, blocked: inout Duration) {
        cells[cell].slot.configure(with: requests[item])
        guard strategy.isSynchronous, !hasImage(item) else { return }
        let clock = ContinuousClock()
        let start = clock.now
        // The main thread waits for the image: virtual time runs until it is there.
        while !hasImage(item) {
            time.run(until: time.now)  // the load's first steps, at this instant
            guard !hasImage(item), let due = time.nextEventTime else { break }
            time.run(until: due)
        }
        blocked += start.duration(to: clock.now)
    }

    private func appeared(_ item: Int) {
        guard !items[item].wasShown else { return }
        items[item].wasShown = true
        items[item].firstShownWithImage = hasImage(item)
    }

    /// The frame's end: what each visible cell shows, and whose image it is.
    private func recordFrame() {
        var wrong: [Int] = []
        for item in visible {
            let shown = shownItem(item)
            if shown == item {
                items[item].everDisplayedImage = true
            } else {
                items[item].placeholder += frame
                if shown != nil { wrong.append(item) }
            }
        }
        trace.append(.init(time: time.now, list: list, visible: visible, wrongItems: wrong))
    }

    /// The item whose image the cell of `item` shows, `nil` for a placeholder; an oracle shows what is cached.
    private func shownItem(_ item: Int) -> Int? {
        if strategy.isOracle { return pipeline.cachedImage(for: requests[item]) != nil ? item : nil }
        guard let cell = cells.first(where: { $0.item == item }), let image = cell.slot.state.image else { return nil }
        return ScrollSimulator.item(shownBy: image)
    }

    func hasImage(_ item: Int) -> Bool {
        shownItem(item) == item
    }

    private func take(_ item: Int) -> Int {
        let cell = cells.firstIndex { $0.item == nil } ?? cells.endIndex
        if cell == cells.endIndex { cells.append(Cell(slot: ImageSlot(pipeline: pipeline) { _ in }, item: nil)) }
        cells[cell].item = item
        return cell
    }

    @discardableResult
    private func release(_ item: Int) -> Int {
        let cell = cells.firstIndex { $0.item == item } ?? 0
        cells[cell].item = nil
        return cell
    }

    /// The peers' window: a fixed number of positions ahead in the direction of the scroll.
    private func fixedWindow(_ visible: Range<Int>) -> [Int] {
        let size = strategy == .uikit ? Int(scenario.viewportRows) : 10
        let count = currentList.count
        return direction > 0
            ? Array(visible.upperBound..<min(count, visible.upperBound + size))
            : Array(stride(from: visible.lowerBound - 1, through: max(0, visible.lowerBound - size), by: -1))
    }
}
