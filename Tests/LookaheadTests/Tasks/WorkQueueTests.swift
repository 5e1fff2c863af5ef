// Lookahead tests — the bounded priority queue and its background slots.

import Testing

@testable import Lookahead

@Suite struct WorkQueueTests {
    @Test func highestFirstFIFOWithinALevelAndBounded() {
        var queue = WorkQueue(limit: 2)
        queue.enqueue(1, priority: .normal)
        queue.enqueue(2, priority: .high)
        queue.enqueue(3, priority: .normal)
        #expect(queue.next()?.node == 2)
        #expect(queue.next()?.node == 1)
        #expect(queue.next() == nil)  // both slots taken
        queue.finishOne(isBackground: false)
        #expect(queue.next()?.node == 3)
    }

    @Test func prefetchesTakeOnlyTheirShareOfSlots() {
        var queue = WorkQueue(limit: 4, backgroundLimit: 2)
        for node in 1...5 { queue.enqueue(node, priority: .low) }
        #expect(queue.next()?.isBackground == true)
        #expect(queue.next()?.isBackground == true)
        #expect(queue.next() == nil, "two background slots are taken; two stay free for visible work")
        queue.enqueue(9, priority: .high)
        #expect(queue.next()?.node == 9)
        #expect(queue.runningCount == 3)
        // A promoted prefetch frees its background slot.
        queue.promoteRunning()
        #expect(queue.next()?.node == 3)
        #expect(queue.next() == nil)  // all four slots
    }
}
