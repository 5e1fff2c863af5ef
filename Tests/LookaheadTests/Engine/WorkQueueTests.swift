// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the bounded priority queue and its background slots.

import Testing

@testable import Lookahead

@Suite struct WorkQueueTests {
    @Test func highestFirstFIFOWithinALevelAndBounded() {
        var queue = WorkQueue<Int>(limit: 2)
        queue.enqueue(1, priority: .normal)
        queue.enqueue(2, priority: .high)
        queue.enqueue(3, priority: .normal)
        #expect(queue.next()?.node == 2)
        #expect(queue.next()?.node == 1)
        #expect(queue.next() == nil)  // both slots taken
        queue.finishOne(isBackground: false)
        #expect(queue.next()?.node == 3)
    }

    @Test func aLoweredStageGoesToTheFrontOfItsNewLevelARaisedOneToTheBack() {
        var queue = WorkQueue<Int>(limit: 10)
        queue.enqueue(1, priority: .low)
        queue.enqueue(2, priority: .low)
        queue.enqueue(3, priority: .normal)
        queue.enqueue(4, priority: .normal)
        queue.enqueue(5, priority: .high)
        // Lowered: 4 comes before what already waits at .low.
        queue.move(4, from: .normal, to: .low)
        // Raised: 1 joins .high behind 5, which was there first.
        queue.move(1, from: .low, to: .high)
        #expect(queue.queuedInOrder == [5, 1, 3, 4, 2])
        // A stage that is not queued (it runs) is not queued again by a priority change.
        #expect(queue.next()?.node == 5)
        queue.move(5, from: .high, to: .low)
        #expect(queue.queuedInOrder == [1, 3, 4, 2])
    }

    @Test func prefetchesTakeOnlyTheirShareOfSlots() {
        var queue = WorkQueue<Int>(limit: 4, backgroundLimit: 2)
        for node in 1...5 { queue.enqueue(node, priority: .low) }
        #expect(queue.next()?.isBackground == true)
        #expect(queue.next()?.isBackground == true)
        #expect(queue.next() == nil, "two background slots are taken; two stay free for visible work")
        queue.enqueue(9, priority: .high)
        #expect(queue.next()?.node == 9)
        #expect(queue.runningCount == 3)
        // A promoted prefetch frees its background slot.
        queue.releaseBackgroundSlot()
        #expect(queue.next()?.node == 3)
        #expect(queue.next() == nil)  // all four slots
    }
}
