// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — a stage's subscribers: one inline, more in a table, the same answers either way.

import Testing

@testable import Lookahead

@Suite struct TaskGraphSubscribersTests {
    typealias Subscribers = TaskGraph.Subscribers
    typealias StageID = TaskGraph.StageID

    @Test func theFirstLeavingHandsOverToTheOthers() {
        var subscribers = Subscribers(.task(TaskGraph.TaskID(1)), priority: .low)
        subscribers[.stage(StageID(rawValue: 7))] = .high
        subscribers[.task(TaskGraph.TaskID(3))] = .normal
        #expect(
            subscribers.ordered == [
                .task(TaskGraph.TaskID(1)), .task(TaskGraph.TaskID(3)), .stage(StageID(rawValue: 7)),
            ]
        )
        #expect(subscribers.highestPriority == .high)
        subscribers[.task(TaskGraph.TaskID(1))] = nil
        #expect(subscribers[.task(TaskGraph.TaskID(1))] == nil)
        #expect(subscribers.ordered == [.task(TaskGraph.TaskID(3)), .stage(StageID(rawValue: 7))])
        subscribers[.stage(StageID(rawValue: 7))] = nil
        #expect(subscribers.highestPriority == .normal)
        #expect(!subscribers.isEmpty)
        subscribers[.task(TaskGraph.TaskID(3))] = nil
        #expect(subscribers.isEmpty)
        #expect(subscribers.highestPriority == nil)
        subscribers[.task(TaskGraph.TaskID(4))] = .veryLow
        #expect(subscribers.ordered == [.task(TaskGraph.TaskID(4))])
        #expect(subscribers[.task(TaskGraph.TaskID(4))] == .veryLow)
    }

    @Test func randomChangesMatchADictionary() {
        var generator = SplitMix64(seed: 5)
        var subscribers = Subscribers(.task(TaskGraph.TaskID(0)), priority: .normal)
        var model: [TaskGraph.Subscriber: ImageRequest.Priority] = [.task(TaskGraph.TaskID(0)): .normal]
        let priorities = ImageRequest.Priority.allCases
        for _ in 0..<5_000 {
            let number = Int(generator.next() % 6)
            let subscriber: TaskGraph.Subscriber =
                generator.next() % 2 == 0 ? .task(TaskGraph.TaskID(number)) : .stage(StageID(rawValue: number))
            let priority =
                generator.next() % 3 == 0 ? nil : priorities[Int(generator.next() % UInt64(priorities.count))]
            subscribers[subscriber] = priority
            model[subscriber] = priority
            #expect(subscribers.isEmpty == model.isEmpty)
            #expect(subscribers.highestPriority == model.values.max())
            #expect(subscribers.ordered == model.keys.sorted())
        }
    }
}
