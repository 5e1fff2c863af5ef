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

    /// Runs every strategy on a scenario.
    public static func compare(_ scenario: ScrollScenario, strategies: [ScrollStrategy] = ScrollStrategy.allCases)
        -> [ScrollReport]
    {
        strategies.map { run(scenario, strategy: $0) }
    }

    /// A small PNG: what the modelled network sends (its size is modelled separately), decoded for real.
    static let body: Data = {
        let bitmap = Bitmap(width: 4, height: 4, red: 90, green: 120, blue: 200)
        return (try? ImageEncoders.PNG.encode(bitmap)) ?? Data()
    }()
}

/// One run: one strategy on one scenario.
// SAFETY: a simulation lives on the thread that calls `run()`. The library calls back into it (the oracle's
// completions) only from work that `VirtualTime.run(until:)` performs, synchronously, on that same thread.
private final class Simulation: @unchecked Sendable {
    struct Row {
        var wasShown = false
        var firstShownWithImage = false
        var everDisplayedImage = false
        var placeholder = Duration.zero
    }

    struct Cell {
        let slot: ImageSlot
        var row: Int?
    }

    let scenario: ScrollScenario
    let strategy: ScrollStrategy
    let frame: Duration
    let time: VirtualTime
    let network: SimulatedNetwork
    let pipeline: ImagePipeline
    let loader: ListImageSlots<Int>?
    let prefetcher: ImagePrefetcher?
    var cells: [Cell] = []
    var rows: [Row]
    var visible = 0..<0
    var direction = 1
    var missed = Duration.zero
    let requests: [ImageRequest]
    /// The oracle's loads in flight, and the frames at which each row is on screen.
    var oracle: [Int: ImageTask] = [:]
    var visibleFrames: [[Int]] = []
    var frameIndex = 0

    init(scenario: ScrollScenario, strategy: ScrollStrategy) {
        self.scenario = scenario
        self.strategy = strategy
        self.frame = .seconds(1) / scenario.frameRate
        let time = VirtualTime(decodeDuration: .microseconds(Int64(scenario.decodeMilliseconds * 1000)))
        self.time = time
        let network = SimulatedNetwork(scenario: scenario, time: time, body: ScrollSimulator.body)
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
                snapshot: ListSnapshot(0..<scenario.rows),
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
        self.rows = Array(repeating: Row(), count: scenario.rows)
        self.requests = (0..<scenario.rows).map { ImageRequest(url: URL(string: "sim://rows/\($0)")) }
        let cellCount = Int(scenario.viewportRows.rounded(.up)) + 2
        self.cells = (0..<cellCount).map { _ in Cell(slot: ImageSlot(pipeline: pipeline) { _ in }, row: nil) }
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

    func run() -> ScrollReport {
        let frames = scenario.frames()
        let offsets = frames.map(\.offset)
        if strategy.isOracle { visibleFrames = Self.visibleFrames(offsets, scenario: scenario) }
        let firstCoastingFrame = frames.firstIndex(where: \.isDecelerating) ?? offsets.count
        var lastOffset = 0.0
        for (index, offset) in offsets.enumerated() {
            frameIndex = index
            if strategy == .oracleAtRelease, index <= firstCoastingFrame {
                // Until the fling begins, it expects the scroll to go on at the speed of the last frame.
                let known = index < firstCoastingFrame ? extrapolated(offsets, from: index) : offsets
                visibleFrames = Self.visibleFrames(known, scenario: scenario)
            }
            // A frame blocked by a synchronous load pushes the clock past later frames: those run at once.
            time.run(until: max(frame * index, time.now))
            let frameStart = time.now
            if offset != lastOffset { direction = offset > lastOffset ? 1 : -1 }
            lastOffset = offset
            let first = max(0, Int(offset.rounded(.down)))
            let next = first..<min(scenario.rows, Int((offset + scenario.viewportRows).rounded(.up)))
            let clock = ContinuousClock()
            let start = clock.now
            let isDecelerating = scenario.reportsDeceleration ? frames[index].isDecelerating : nil
            let blocked = update(to: next, position: offset, isDecelerating: isDecelerating, frameStart: frameStart)
            let measured = start.duration(to: clock.now) - blocked.wall
            // What the frame's own calls scheduled at this instant (the prefetcher's turn) runs now.
            time.run(until: time.now)
            for row in visible {
                if hasImage(row) {
                    rows[row].everDisplayedImage = true
                } else {
                    rows[row].placeholder += frame
                }
            }
            missed += max(.zero, measured + blocked.virtual - frame)
        }
        loader?.stop()
        prefetcher?.stopPrefetching()
        return report(duration: frame * offsets.count)
    }

    /// Moves the list to `next`: the window first (as `scrollViewDidScroll` comes before layout), then the cells
    /// that left and the cells that came. Returns the time a synchronous load blocked the frame.
    private func update(to next: Range<Int>, position: Double, isDecelerating: Bool?, frameStart: Duration) -> (
        virtual: Duration, wall: Duration
    ) {
        let left = visible.filter { !next.contains($0) }
        let came = next.filter { !visible.contains($0) }
        visible = next
        var blocked: (virtual: Duration, wall: Duration) = (.zero, .zero)
        switch strategy {
        case .lookahead:
            guard let loader else { break }
            loader.visibleRowsChanged(next, position: position, isDecelerating: isDecelerating) { requests[$0] }
            for row in left {
                loader.unbind(row)
                release(row)
            }
            for row in came {
                let cell = take(row)
                loader.bind(row, request: requests[row], to: cells[cell].slot)
                appeared(row)
            }
        case .uikit, .prefetchLazy, .prefetchSynchronous, .synchronous:
            if let prefetcher {
                prefetcher.prefetch(fixedWindow(next).map { requests[$0] })
            }
            for row in left {
                cells[release(row)].slot.prepareForReuse()
            }
            for row in came {
                let cell = take(row)
                cells[cell].slot.configure(with: requests[row])
                if strategy.isSynchronous, !hasImage(row) {
                    let clock = ContinuousClock()
                    let start = clock.now
                    // The main thread waits for the image: virtual time runs until it is there.
                    while !hasImage(row) {
                        time.run(until: time.now)  // the load's first steps, at this instant
                        guard !hasImage(row), let due = time.nextEventTime else { break }
                        time.run(until: due)
                    }
                    blocked.wall += start.duration(to: clock.now)
                }
                appeared(row)
            }
            blocked.virtual = time.now - frameStart
        case .oracle, .oracleAtRelease:
            for row in left { release(row) }
            for row in came {
                _ = take(row)
                appeared(row)
            }
            scheduleOracleLoads()
        }
        return blocked
    }

    private func appeared(_ row: Int) {
        guard !rows[row].wasShown else { return }
        rows[row].wasShown = true
        rows[row].firstShownWithImage = hasImage(row)
    }

    private func hasImage(_ row: Int) -> Bool {
        if strategy.isOracle { return pipeline.cachedImage(for: requests[row]) != nil }
        guard let cell = cells.firstIndex(where: { $0.row == row }) else { return false }
        return cells[cell].slot.state.image != nil
    }

    private func take(_ row: Int) -> Int {
        let cell = cells.firstIndex { $0.row == nil } ?? cells.endIndex
        if cell == cells.endIndex { cells.append(Cell(slot: ImageSlot(pipeline: pipeline) { _ in }, row: nil)) }
        cells[cell].row = row
        return cell
    }

    @discardableResult
    private func release(_ row: Int) -> Int {
        let cell = cells.firstIndex { $0.row == row } ?? 0
        cells[cell].row = nil
        return cell
    }

    /// The peers' window: a fixed number of rows ahead in the direction of the scroll.
    private func fixedWindow(_ visible: Range<Int>) -> [Int] {
        let size = strategy == .uikit ? Int(scenario.viewportRows) : 10
        return direction > 0
            ? Array(visible.upperBound..<min(scenario.rows, visible.upperBound + size))
            : Array(stride(from: visible.lowerBound - 1, through: max(0, visible.lowerBound - size), by: -1))
    }

    // MARK: - The oracle

    /// The oracle knows every row's future frames on screen and every transfer's latency. While a connection is
    /// free it loads, earliest deadline first, the row that will next be on screen, among the rows whose image
    /// would then still be seen for at least two frames.
    private func scheduleOracleLoads() {
        while oracle.count < scenario.connectionLimit {
            var best: (row: Int, deadline: Int)?
            for row in 0..<scenario.rows where oracle[row] == nil {
                guard pipeline.cachedImage(for: requests[row]) == nil else { continue }
                let ready = time.now + network.nextLatency(row: row) + network.transmission + time.decodeDuration
                let readyFrame = Int((ready / frame).rounded(.up))
                let future = visibleFrames[row].drop { $0 < frameIndex }
                guard let deadline = future.first, future.count(where: { $0 >= readyFrame }) >= 2 else { continue }
                if deadline < (best?.deadline ?? .max) { best = (row, deadline) }
            }
            guard let best else { return }
            var request = requests[best.row]
            request.priority = .high
            let task = pipeline.imageTask(with: request)
            oracle[best.row] = task
            task.onFinish { [weak self] _ in
                guard let self else { return }
                self.oracle[best.row] = nil
                // The next load starts at once, at this instant.
                self.time.schedule(after: .zero) { [weak self] in self?.scheduleOracleLoads() }
            }
        }
    }

    /// The offsets up to frame `index`, then on at the speed of that frame, within the list.
    private func extrapolated(_ offsets: [Double], from index: Int) -> [Double] {
        let step = index > 0 ? offsets[index] - offsets[index - 1] : 0
        let maximum = Double(scenario.rows) - scenario.viewportRows
        return Array(offsets[...index])
            + (1..<(offsets.count - index)).map { min(max(0, offsets[index] + step * Double($0)), maximum) }
    }

    /// For each row, the frames at which it is on screen.
    private static func visibleFrames(_ offsets: [Double], scenario: ScrollScenario) -> [[Int]] {
        var frames = [[Int]](repeating: [], count: scenario.rows)
        for (index, offset) in offsets.enumerated() {
            let first = max(0, Int(offset.rounded(.down)))
            for row in first..<min(scenario.rows, Int((offset + scenario.viewportRows).rounded(.up))) {
                frames[row].append(index)
            }
        }
        return frames
    }

    // MARK: - The report

    private func report(duration: Duration) -> ScrollReport {
        let shown = rows.filter(\.wasShown)
        let placeholders = shown.map { $0.placeholder / .milliseconds(1) }.sorted()
        func percentile(_ p: Double) -> Double {
            placeholders.isEmpty
                ? 0 : placeholders[min(placeholders.count - 1, Int((Double(placeholders.count - 1) * p).rounded()))]
        }
        let ledger = network.ledger
        let bytes = ledger.bytes
        return ScrollReport(
            strategy: strategy,
            trajectory: scenario.trajectory,
            frameRate: scenario.frameRate,
            seed: scenario.seed,
            rowsShown: shown.count,
            rowsFirstShownWithImage: shown.filter(\.firstShownWithImage).count,
            placeholderP50: percentile(0.5),
            placeholderP95: percentile(0.95),
            placeholderTotal: placeholders.reduce(0, +),
            bytesDownloaded: bytes.values.reduce(0, +),
            bytesNeverShown: rows.indices.filter { !rows[$0].everDisplayedImage }.reduce(0) {
                $0 + bytes[$1, default: 0]
            },
            // Rows never on screen near where the list rests at the end: a prefetch for a scroll that never came.
            bytesNeverShownAtEnd: rows.indices.filter { row in
                !rows[row].wasShown && (visible.lowerBound - 40..<visible.upperBound + 40).contains(row)
            }.reduce(0) { $0 + bytes[$1, default: 0] },
            downloadsStarted: ledger.starts.values.reduce(0, +),
            distinctURLsStarted: ledger.starts.count,
            restarts: ledger.starts.values.reduce(0) { $0 + max(0, $1 - 1) },
            cancellations: ledger.cancellations,
            hitchRatio: duration > .zero ? (missed / .milliseconds(1)) / (duration / .seconds(1)) : 0
        )
    }
}
