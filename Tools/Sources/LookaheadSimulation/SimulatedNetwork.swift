// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead simulation — the modelled network: a DataLoading whose transfers take a seeded latency plus the
// image's bytes over a per-connection bandwidth, in virtual time.

import Foundation
@_spi(Simulation) import Lookahead
import Synchronization

/// Serves `sim://rows/N` (item N of the feed; row N of a list that never changes) in virtual time: each transfer
/// takes the latency drawn for its item and attempt (seeded, the same for every strategy) plus
/// `imageBytes / bytesPerSecond`, and sends a picture that names the item. The pipeline's download limit is the
/// number of connections. Counts what a server would see: transfers started, restarted and cancelled, bytes sent.
final class SimulatedNetwork: DataLoading {
    /// A transfer of an item's image started, finished or was cancelled.
    struct Event: Sendable, Equatable {
        enum Kind: Sendable, Equatable { case started, finished, cancelled }
        var time: Duration
        var item: Int
        var kind: Kind
    }

    struct Ledger: Sendable {
        /// Transfers started, per row.
        var starts: [Int: Int] = [:]
        /// Transfers cancelled after they started.
        var cancellations = 0
        /// Bytes sent, per row (a cancelled transfer counts what had arrived).
        var bytes: [Int: Int] = [:]
        /// Every start, finish and cancellation, in order.
        var events: [Event] = []
    }

    private struct Transfer {
        let row: Int
        let start: Duration
        let latency: Duration
        let continuation: CheckedContinuation<DataLoadResponse, any Error>
    }

    private struct State {
        var ledger = Ledger()
        var attempts: [Int: Int] = [:]
        var transfers: [Int: Transfer] = [:]
        var nextID = 0
    }

    let scenario: ScrollScenario
    private let time: VirtualTime
    private let state = Mutex(State())

    init(scenario: ScrollScenario, time: VirtualTime) {
        self.scenario = scenario
        self.time = time
    }

    var ledger: Ledger { state.withLock { $0.ledger } }

    /// The time a transfer of `imageBytes` takes once the first byte arrives.
    var transmission: Duration { .seconds(Double(scenario.imageBytes) / scenario.bytesPerSecond) }

    func loadData(for request: DataLoadRequest) async throws -> DataLoadResponse {
        let row = Self.row(of: request.url)
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let now = time.now
                let latency = state.withLock { state -> Duration in
                    let attempt = state.attempts[row, default: 0]
                    state.attempts[row] = attempt + 1
                    state.ledger.starts[row, default: 0] += 1
                    state.ledger.events.append(Event(time: now, item: row, kind: .started))
                    let latency = scenario.latency(row: row, attempt: attempt)
                    state.transfers[id] = Transfer(row: row, start: now, latency: latency, continuation: continuation)
                    return latency
                }
                time.schedule(after: latency + transmission) { [weak self] in self?.complete(id) }
            }
        } onCancel: {
            cancel(id)
        }
    }

    /// The latency the row's next transfer will have: what only the oracle may know in advance.
    func nextLatency(row: Int) -> Duration {
        scenario.latency(row: row, attempt: state.withLock { $0.attempts[row, default: 0] })
    }

    private func complete(_ id: Int) {
        let now = time.now
        let transfer = state.withLock { state -> Transfer? in
            guard let transfer = state.transfers.removeValue(forKey: id) else { return nil }
            state.ledger.bytes[transfer.row, default: 0] += scenario.imageBytes
            state.ledger.events.append(Event(time: now, item: transfer.row, kind: .finished))
            return transfer
        }
        guard let transfer else { return }
        transfer.continuation.resume(returning: DataLoadResponse(data: ScrollSimulator.body(item: transfer.row)))
    }

    private func cancel(_ id: Int) {
        let now = time.now
        let transfer = state.withLock { state -> Transfer? in
            guard let transfer = state.transfers.removeValue(forKey: id) else { return nil }
            let streaming = (now - transfer.start - transfer.latency) / transmission
            let received = Int(Double(scenario.imageBytes) * min(1, max(0, streaming)))
            state.ledger.bytes[transfer.row, default: 0] += received
            state.ledger.cancellations += 1
            state.ledger.events.append(Event(time: now, item: transfer.row, kind: .cancelled))
            return transfer
        }
        transfer?.continuation.resume(throwing: CancellationError())
    }

    static func row(of url: URL?) -> Int {
        Int(url?.lastPathComponent ?? "") ?? 0
    }
}

extension ScrollScenario {
    /// The latency of a row's transfer on a given attempt: uniform in ``latencyMilliseconds``, seeded.
    func latency(row: Int, attempt: Int) -> Duration {
        var state = seed &+ UInt64(row) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(attempt) &* 0xBF58_476D_1CE4_E5B9
        state = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
        state = (state ^ (state >> 27)) &* 0x94D0_49BB_1331_11EB
        state ^= state >> 31
        let unit = Double(state >> 11) / Double(1 << 53)
        let range = latencyMilliseconds
        return .microseconds(Int64((range.lowerBound + unit * (range.upperBound - range.lowerBound)) * 1000))
    }
}
