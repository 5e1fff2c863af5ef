// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead simulation — virtual time: an event queue, and a task executor that runs the pipeline's Swift tasks
// on the simulation's own thread, so the real library runs deterministically without sleeping.

@_spi(Simulation) import Lookahead
import Synchronization

/// The simulation's clock, event queue and executor. Everything the library does in a simulation runs in
/// ``run(until:)`` on the calling thread, one step at a time:
///
/// - **Swift tasks** the pipeline starts for downloads run on this executor (`Task(executorPreference:)`): their
///   jobs wait here until the simulation runs them, and every `await` they pass resumes here.
/// - **Decoding** is real (the library's decoders on small images), but takes modelled time: it finishes
///   ``decodeDuration`` after it starts.
/// - **Deferred work** (the prefetcher's turns) runs at the current time, after what is already due.
///
/// Jobs and events run in a fixed order (time, then the order they were scheduled), so the same scenario gives
/// the same result every time.
final class VirtualTime: TaskExecutor, ImagePipelineExecutor {
    private struct Event {
        let due: Duration
        let sequence: Int
        let action: @Sendable () -> Void
    }

    private struct State {
        var now = Duration.zero
        var sequence = 0
        var events: [Event] = []
        var jobs: [UnownedJob] = []
    }

    private let state = Mutex(State())
    /// How long one decode (or processing) stage takes.
    let decodeDuration: Duration

    init(decodeDuration: Duration) {
        self.decodeDuration = decodeDuration
    }

    /// The current virtual time, since the start of the simulation.
    var now: Duration { state.withLock { $0.now } }

    /// Runs `action` at `now + delay`, after everything already due by then.
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.sequence += 1
            let event = Event(due: state.now + max(.zero, delay), sequence: state.sequence, action: action)
            // Events are few (the downloads and decodes in flight): a sorted insert is enough.
            let index =
                state.events.firstIndex { ($0.due, $0.sequence) > (event.due, event.sequence) } ?? state.events.endIndex
            state.events.insert(event, at: index)
        }
    }

    /// Runs every job and event due up to `time`, in order, then sets the clock to `time`.
    func run(until time: Duration) {
        while true {
            runJobs()
            let event = state.withLock { state -> Event? in
                guard let first = state.events.first, first.due <= time else { return nil }
                state.events.removeFirst()
                state.now = max(state.now, first.due)
                return first
            }
            guard let event else { break }
            event.action()
        }
        state.withLock { $0.now = max($0.now, time) }
        runJobs()
    }

    /// The time of the next event, if any.
    var nextEventTime: Duration? { state.withLock { $0.events.first?.due } }

    private func runJobs() {
        while let job = state.withLock({ $0.jobs.isEmpty ? nil : $0.jobs.removeFirst() }) {
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    // MARK: - TaskExecutor

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        state.withLock { $0.jobs.append(job) }
    }

    // MARK: - ImagePipelineExecutor

    func runLoad(priority: TaskPriority, _ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        Task(executorPreference: self, priority: priority, operation: work)
    }

    func runDecode(_ work: @escaping @Sendable () -> Void) {
        schedule(after: decodeDuration, work)
    }
}
