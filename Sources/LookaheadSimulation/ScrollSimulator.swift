// Lookahead simulation — a deterministic, frame-by-frame simulation of a scrolling list that drives the real
// task graph, prefetch queue and ListPrefetchController against a modelled network.

import Foundation
import Lookahead

/// Runs scroll scenarios in simulated time. Nothing sleeps and nothing is random but the seeded latencies:
/// the same scenario gives the same figures, on any machine, in a few milliseconds.
///
/// The parts that decide are Lookahead's own: `TaskGraph` (coalescing, priorities, bounded queues and
/// background download slots), `PrefetchQueue` (what `ImagePrefetcher` runs), `ListPrefetchController`, and the
/// `ImageSlot` policies (memory hit at once, visible priority, demote on reuse inside the window). The network
/// and the decoder are models: latency drawn per row and attempt, bandwidth per connection, a fixed decode time.
public enum ScrollSimulator {
    /// Runs one strategy on one scenario.
    public static func run(_ scenario: ScrollScenario, strategy: ScrollStrategy) -> ScrollReport {
        var engine = Engine(scenario: scenario, strategy: strategy)
        return engine.run()
    }

    /// Runs every strategy on a scenario.
    public static func compare(_ scenario: ScrollScenario, strategies: [ScrollStrategy] = ScrollStrategy.allCases)
        -> [ScrollReport]
    {
        strategies.map { run(scenario, strategy: $0) }
    }
}

private struct Engine {
    struct Row {
        var isVisible = false
        var wasShown = false
        var firstShownWithImage = false
        var hasImage = false
        var everDisplayedImage = false
        var placeholderMilliseconds = 0.0
        var bytes = 0
    }

    enum Operation {
        case load(row: Int, start: Double, latency: Double, due: Double)
        case decode(row: Int, due: Double)
    }

    struct Owner {
        let row: Int
        var isSlot: Bool
        let submitted: Double
    }

    let scenario: ScrollScenario
    let strategy: ScrollStrategy
    let frame: Double
    var now = 0.0
    var graph: TaskGraph
    let memory: MemoryCache
    var events: [(due: Double, sequence: Int, operation: Int)] = []
    var sequence = 0
    var operations: [Int: Operation] = [:]
    var operationByToken: [ObjectIdentifier: Int] = [:]
    var owners: [Int: Owner] = [:]
    var nextTask = 0
    var slotTasks: [Int: Int] = [:]
    var prefetches: PrefetchQueue<Int, Int>
    var controller: ListPrefetchController
    var attempts: [Int: Int] = [:]
    var rows: [Row]
    var cancellations = 0
    var missedMilliseconds = 0.0
    var visible = 0..<0
    var direction = 1.0
    var lastOffset = 0.0
    /// For the oracle: the frames at which each row is on screen.
    var visibleFrames: [[Int]] = []
    var frameIndex = 0
    let tinyImage = Bitmap(width: 1, height: 1, red: 0, green: 0, blue: 0)

    init(scenario: ScrollScenario, strategy: ScrollStrategy) {
        self.scenario = scenario
        self.strategy = strategy
        self.frame = 1 / Double(scenario.frameRate)
        self.graph = TaskGraph(
            dataLoadLimit: scenario.connectionLimit,
            decodeLimit: 2,
            backgroundDataLoadLimit: strategy == .lookahead ? max(1, scenario.connectionLimit - 2) : nil
        )
        self.memory = MemoryCache(costLimit: .max / 2, countLimit: scenario.memoryCacheCount, entryCostLimit: .max / 2)
        let limit: Int
        switch strategy {
        case .uikit: limit = 2
        case .lookahead: limit = 4
        case .oracle: limit = scenario.connectionLimit
        default: limit = 1000
        }
        self.prefetches = PrefetchQueue(limit: limit)
        self.controller = ListPrefetchController(itemCount: scenario.rows)
        self.rows = Array(repeating: Row(), count: scenario.rows)
    }

    // MARK: - The frame loop

    mutating func run() -> ScrollReport {
        let offsets = scenario.offsets()
        if strategy == .oracle { visibleFrames = Self.visibleFrames(offsets, scenario: scenario) }
        for (index, offset) in offsets.enumerated() {
            frameIndex = index
            now = Double(index) * frame
            processEvents(until: now)
            if offset != lastOffset { direction = offset > lastOffset ? 1 : -1 }
            lastOffset = offset
            let first = max(0, Int(offset.rounded(.down)))
            let next = first..<min(scenario.rows, Int((offset + scenario.viewportRows).rounded(.up)))
            var work = 0.0
            for row in visible where !next.contains(row) { disappear(row) }
            for row in next where !visible.contains(row) { work += appear(row) }
            visible = next
            updatePrefetching(time: now)
            for row in visible {
                if rows[row].hasImage {
                    rows[row].everDisplayedImage = true
                } else {
                    rows[row].placeholderMilliseconds += frame * 1000
                }
            }
            missedMilliseconds += max(0, work - frame * 1000)
        }
        return report(duration: Double(offsets.count) * frame)
    }

    // MARK: - Cells

    private func key(_ row: Int) -> ImageCacheKey { ImageCacheKey(url: "sim://rows/\(row)") }

    private mutating func appear(_ row: Int) -> Double {
        let isFirst = !rows[row].wasShown
        rows[row].wasShown = true
        rows[row].isVisible = true
        if memory[key(row)] != nil {
            rows[row].hasImage = true
            if isFirst { rows[row].firstShownWithImage = true }
            return scenario.configureMilliseconds
        }
        if strategy.isSynchronous {
            // The main thread waits: for the load in flight, or for a new one.
            let wait = timeUntilLoaded(row)
            memory.store(tinyImage, for: key(row))
            rows[row].hasImage = true
            if isFirst { rows[row].firstShownWithImage = true }
            rows[row].bytes += scenario.imageBytes
            return scenario.configureMilliseconds + wait * 1000
        }
        rows[row].hasImage = false
        // ImageSlot.configure(with:startsLoading:): during a fling, the placeholder only. The oracle schedules
        // every load itself.
        if strategy == .oracle { return scenario.configureMilliseconds }
        if strategy != .lookahead || !controller.isFlinging {
            slotTasks[row] = submit(row, priority: .high, isSlot: true)
        }
        return scenario.configureMilliseconds
    }

    private mutating func disappear(_ row: Int) {
        rows[row].isVisible = false
        rows[row].hasImage = false
        guard let task = slotTasks.removeValue(forKey: row) else { return }
        if strategy == .lookahead, controller.prefetched.contains(row),
            prefetches.adopt(row, handle: task)
        {
            owners[task]?.isSlot = false  // demoted: the prefetcher cancels it when the row leaves the window
            apply(graph.setPriority(.low, ofTask: task))
        } else {
            cancel(task)
        }
    }

    /// Seconds until a row's image would be ready if the main thread waited for it now.
    private mutating func timeUntilLoaded(_ row: Int) -> Double {
        for (_, info) in operations.sorted(by: { $0.key < $1.key }) {
            if case .load(let loading, _, _, let due) = info, loading == row {
                return max(0, due - now) + scenario.decodeMilliseconds / 1000
            }
        }
        let latency = nextLatency(row)
        return latency + Double(scenario.imageBytes) / scenario.bytesPerSecond + scenario.decodeMilliseconds / 1000
    }

    // MARK: - Prefetching

    private mutating func updatePrefetching(time: Double) {
        switch strategy {
        case .synchronous:
            return
        case .prefetchSynchronous, .prefetchLazy, .uikit:
            let size = strategy == .uikit ? Int(scenario.viewportRows) : 10
            let window: [Int] =
                direction > 0
                ? Array(visible.upperBound..<min(scenario.rows, visible.upperBound + size))
                : Array(stride(from: visible.lowerBound - 1, through: max(0, visible.lowerBound - size), by: -1))
            let wanted = Set(window)
            var stale: [Int] = []
            for row in prefetches.pending where !wanted.contains(row) && !visible.contains(row) { stale.append(row) }
            for row in prefetches.running.keys.sorted() where !wanted.contains(row) && !visible.contains(row) {
                stale.append(row)
            }
            for task in prefetches.remove(stale) { cancel(task) }
            prefetches.enqueue(window.filter { memory[key($0)] == nil }.map { ($0, request($0)) })
        case .lookahead:
            _ = controller.visibleRangeChanged(visible, at: .nanoseconds(Int64(time * 1e9)))
            // ImagePrefetcher.prefetch(_:): the controller's wish list, re-ranked every frame.
            let wanted = controller.desiredRows.filter { memory[key($0)] == nil }.map { ($0, request($0)) }
            for task in prefetches.replace(with: wanted) { cancel(task) }
            // ImageSlot.startLoading(): once the fling slows, visible rows still waiting load at visible priority.
            if !controller.isFlinging {
                for row in visible where !rows[row].hasImage && slotTasks[row] == nil {
                    if memory[key(row)] != nil {
                        rows[row].hasImage = true
                    } else {
                        slotTasks[row] = submit(row, priority: .high, isSlot: true)
                    }
                }
            }
        case .oracle:
            scheduleOracleLoads()
            return
        }
        startPrefetches()
    }

    /// The oracle knows every row's future frames on screen and every load's latency. While a connection is
    /// free it loads, earliest deadline first, the row that will next be on screen, among the rows whose image
    /// would then still be seen for at least two frames (rows that only fly past are not worth a connection).
    private mutating func scheduleOracleLoads() {
        while prefetches.running.count < scenario.connectionLimit {
            var best: (row: Int, deadline: Int)?
            for row in 0..<scenario.rows where prefetches.running[row] == nil && memory[key(row)] == nil {
                let ready =
                    now + peekLatency(row) + Double(scenario.imageBytes) / scenario.bytesPerSecond
                    + scenario.decodeMilliseconds / 1000
                let readyFrame = Int((ready / frame).rounded(.up))
                let future = visibleFrames[row].filter { $0 >= frameIndex }
                guard let deadline = future.first, future.filter({ $0 >= readyFrame }).count >= 2 else { continue }
                if deadline < (best?.deadline ?? .max) { best = (row, deadline) }
            }
            guard let best else { return }
            prefetches.enqueue([(best.row, request(best.row))])
            for (row, _) in prefetches.next() {
                let task = submit(row, priority: .high, isSlot: false)
                if owners[task] != nil { _ = prefetches.attach(task, to: row) }
            }
        }
    }

    private mutating func startPrefetches() {
        let priority: ImageRequest.Priority =
            switch strategy {
            case .prefetchLazy, .prefetchSynchronous, .oracle: .normal
            default: .low
            }
        for (row, _) in prefetches.next() {
            if memory[key(row)] != nil {
                prefetches.finished(row) { _ in true }
                continue
            }
            let task = submit(row, priority: priority, isSlot: false)
            if owners[task] != nil { _ = prefetches.attach(task, to: row) }
        }
    }

    private func request(_ row: Int) -> ImageRequest {
        ImageRequest(url: URL(string: "sim://rows/\(row)"))
    }

    // MARK: - The pipeline (the real task graph, over modelled network and decoding)

    private mutating func submit(_ row: Int, priority: ImageRequest.Priority, isSlot: Bool) -> Int {
        nextTask += 1
        let task = nextTask
        owners[task] = Owner(row: row, isSlot: isSlot, submitted: now)
        var request = request(row)
        request.priority = priority
        apply(graph.submit(task: task, request: request))
        return task
    }

    private mutating func cancel(_ task: Int) {
        owners[task] = nil
        apply(graph.cancel(task: task))
    }

    private mutating func apply(_ actions: [TaskGraph.Action]) {
        for action in actions {
            switch action {
            case .start(let operation, let token, let work, _):
                operationByToken[ObjectIdentifier(token)] = operation
                switch work {
                case .load(let request):
                    let row = Self.row(of: request)
                    let latency = nextLatency(row)
                    let due = now + latency + Double(scenario.imageBytes) / scenario.bytesPerSecond
                    operations[operation] = .load(row: row, start: now, latency: latency, due: due)
                    schedule(operation, at: due)
                case .decode(_, let request), .process(_, let request):
                    let due = now + scenario.decodeMilliseconds / 1000
                    operations[operation] = .decode(row: Self.row(of: request), due: due)
                    schedule(operation, at: due)
                }
            case .cancel(let token):
                guard let operation = operationByToken.removeValue(forKey: ObjectIdentifier(token)) else { continue }
                events.removeAll { $0.operation == operation }
                if case .load(let row, let start, let latency, _) = operations.removeValue(forKey: operation) {
                    let received = (now - start - latency) * scenario.bytesPerSecond
                    rows[row].bytes += Int(min(Double(scenario.imageBytes), max(0, received)))
                } else {
                    operations[operation] = nil
                }
                apply(graph.operationFinished(operation, with: .failure(.cancelled)))
            case .finish(let task, let result):
                guard let owner = owners.removeValue(forKey: task) else { continue }
                finish(owner, task: task, succeeded: (try? result.get()) != nil)
            case .loadCancelled:
                cancellations += 1
            case .progress, .coalesced:
                break
            }
        }
    }

    private mutating func finish(_ owner: Owner, task: Int, succeeded: Bool) {
        let row = owner.row
        if succeeded {
            memory.store(tinyImage, for: key(row))
            if strategy == .lookahead {
                controller.recordLoadLatency(.nanoseconds(Int64((now - owner.submitted) * 1e9)))
            }
        }
        if owner.isSlot {
            if slotTasks[row] == task {
                slotTasks[row] = nil
                if succeeded, rows[row].isVisible { rows[row].hasImage = true }
            }
        } else {
            prefetches.finished(row) { $0 == task }
            if succeeded, rows[row].isVisible { rows[row].hasImage = true }
            if strategy == .oracle { scheduleOracleLoads() } else { startPrefetches() }
        }
    }

    private mutating func schedule(_ operation: Int, at due: Double) {
        sequence += 1
        let entry = (due: due, sequence: sequence, operation: operation)
        let index = events.firstIndex { ($0.due, $0.sequence) > (due, sequence) } ?? events.endIndex
        events.insert(entry, at: index)
    }

    private mutating func processEvents(until time: Double) {
        while let event = events.first, event.due <= time {
            events.removeFirst()
            now = event.due
            guard let info = operations.removeValue(forKey: event.operation) else { continue }
            operationByToken = operationByToken.filter { $0.value != event.operation }
            switch info {
            case .load(let row, _, _, _):
                rows[row].bytes += scenario.imageBytes
                let data = TaskGraph.LoadedData(response: DataLoadResponse(data: Data()))
                apply(graph.operationFinished(event.operation, with: .success(.data(data))))
            case .decode:
                let output = TaskGraph.Output(image: tinyImage, response: nil)
                apply(graph.operationFinished(event.operation, with: .success(.image(output))))
            }
        }
        now = time
    }

    // MARK: - Models

    /// Seconds of latency for a row's next load: the same for every strategy (per row and attempt).
    private mutating func nextLatency(_ row: Int) -> Double {
        defer { attempts[row, default: 0] += 1 }
        return peekLatency(row)
    }

    /// The latency the row's next load will have (what only the oracle may know in advance).
    private func peekLatency(_ row: Int) -> Double {
        let attempt = attempts[row, default: 0]
        var state = scenario.seed &+ UInt64(row) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(attempt) &* 0xBF58_476D_1CE4_E5B9
        state = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
        state = (state ^ (state >> 27)) &* 0x94D0_49BB_1331_11EB
        state ^= state >> 31
        let unit = Double(state >> 11) / Double(1 << 53)
        let range = scenario.latencyMilliseconds
        return (range.lowerBound + unit * (range.upperBound - range.lowerBound)) / 1000
    }

    private static func row(of request: ImageRequest) -> Int {
        Int(request.url?.lastPathComponent ?? "") ?? 0
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

    private func report(duration: Double) -> ScrollReport {
        let shown = rows.filter(\.wasShown)
        let placeholders = shown.map(\.placeholderMilliseconds).sorted()
        func percentile(_ p: Double) -> Double {
            placeholders.isEmpty
                ? 0 : placeholders[min(placeholders.count - 1, Int((Double(placeholders.count - 1) * p).rounded()))]
        }
        return ScrollReport(
            strategy: strategy,
            trajectory: scenario.trajectory,
            frameRate: scenario.frameRate,
            rowsShown: shown.count,
            rowsFirstShownWithImage: shown.filter(\.firstShownWithImage).count,
            placeholderP50: percentile(0.5),
            placeholderP95: percentile(0.95),
            placeholderTotal: placeholders.reduce(0, +),
            bytesDownloaded: rows.reduce(0) { $0 + $1.bytes },
            bytesNeverShown: rows.filter { !$0.everDisplayedImage }.reduce(0) { $0 + $1.bytes },
            cancellations: cancellations,
            hitchRatio: duration > 0 ? missedMilliseconds / duration : 0
        )
    }
}
