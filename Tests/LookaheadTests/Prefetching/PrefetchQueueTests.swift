// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — PrefetchQueue: the declarative wish list, with rows kept running but never started.

import Foundation
import Testing

@testable import Lookahead

@Suite struct PrefetchQueueTests {
    private func items(_ keys: [Int]) -> [(key: Int, request: ImageRequest)] {
        keys.map { ($0, ImageRequest(url: URL(string: "https://example.com/\($0).jpg"))) }
    }

    /// A queue whose `keys` run, in this order, with handles "h1", "h2", …
    private func running(_ keys: [Int], limit: Int) -> PrefetchQueue<Int, String> {
        var queue = PrefetchQueue<Int, String>(limit: limit)
        queue.enqueue(items(keys))
        let started = queue.nextInANewTurn().map(\.key)
        #expect(started == keys)
        for key in keys {
            let attached = queue.attach("h\(key)", to: key)
            #expect(attached)
        }
        return queue
    }

    @Test func replaceKeepsWhatIsWishedOrKeptAndCancelsTheRest() {
        var queue = running([1, 2, 3], limit: 3)
        let cancelled = queue.replace(with: items([3, 4]), keeping: [1, 5])
        #expect(cancelled == ["h2"], "2 is neither wished nor kept")
        #expect(Set(queue.running.keys) == [1, 3], "1 is kept, 3 still wished")
        #expect(Array(queue.pending) == [4], "3 runs already; 5 is only kept, so it never waits to start")
        let next = queue.nextInANewTurn().map(\.key)
        #expect(next == [4])
        queue.finished(1) { $0 == "h1" }
        queue.finished(4) { _ in true }
        let afterwards = queue.nextInANewTurn()
        #expect(afterwards.isEmpty, "free slots, but nothing that is only kept starts")
    }

    @Test func keepingProtectsOnlyUntilTheNextReplace() {
        var queue = running([1, 2], limit: 2)
        let first = queue.replace(with: [], keeping: [1, 2])
        #expect(first.isEmpty)
        #expect(queue.running.count == 2)
        let second = queue.replace(with: items([3]), keeping: [2])
        #expect(second == ["h1"])
        let third = queue.replace(with: items([3]), keeping: [])
        #expect(third == ["h2"])
        #expect(queue.running.isEmpty)
        let next = queue.nextInANewTurn().map(\.key)
        #expect(next == [3])
    }

    @Test func replaceReturnsTheCancelledHandlesInTheOrderTheyStarted() {
        var queue = running([7, 3, 5], limit: 4)
        let adopted = queue.adopt(9, handle: "h9")
        #expect(adopted)
        let cancelled = queue.replace(with: items([3]))
        #expect(cancelled == ["h7", "h5", "h9"])
    }

    @Test func aStartWithoutItsHandleYetIsForgottenWithoutOne() {
        var queue = PrefetchQueue<Int, String>(limit: 2)
        queue.enqueue(items([1]))
        let started = queue.nextInANewTurn().map(\.key)
        #expect(started == [1])
        let cancelled = queue.replace(with: items([2]))
        #expect(cancelled.isEmpty, "no handle to cancel yet")
        let attached = queue.attach("h1", to: 1)
        #expect(!attached, "the start that was under way learns it was stopped")
        let next = queue.nextInANewTurn().map(\.key)
        #expect(next == [2])
    }

    @Test func requestsWaitForTheirTurnToBegin() {
        var queue = PrefetchQueue<Int, String>(limit: 4)
        let first = queue.enqueue(items([1, 2]))
        #expect(queue.next().isEmpty, "the turn that added them has not begun")
        #expect(queue.hasWaitingTurn)
        let second = queue.enqueue(items([3]))
        #expect(second > first)
        queue.beginTurn(first)
        #expect(queue.next().map(\.key) == [1, 2], "3 belongs to a later turn")
        #expect(queue.next().isEmpty)
        _ = queue.remove([3])  // a stop before its turn: it never starts
        queue.beginTurn(second)
        #expect(queue.next().isEmpty)
        #expect(!queue.hasWaitingTurn)
    }

    @Test func aReplacedListWaitsForItsOwnTurn() {
        var queue = PrefetchQueue<Int, String>(limit: 4)
        queue.beginTurn(queue.enqueue(items([1])))
        _ = queue.replace(with: items([1, 2]))
        #expect(queue.next().isEmpty, "a re-ranked list starts on its own turn")
        queue.beginTurn(queue.lastTurn)
        #expect(queue.next().map(\.key) == [1, 2])
    }
}

extension PrefetchQueue {
    /// Begins the latest turn, then takes what may start: what the prefetcher does on its next turn.
    fileprivate mutating func nextInANewTurn() -> [(key: Key, request: ImageRequest)] {
        beginTurn(lastTurn)
        return next()
    }
}
