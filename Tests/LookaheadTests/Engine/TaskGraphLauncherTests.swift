// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the task graph's launcher and registration, driven synchronously: tasks registered once, and
// downloads waiting for the launcher.

import Foundation
import Testing

@testable import Lookahead

@Suite struct TaskGraphLauncherTests {
    /// Records what the machine delivers to it.
    private final class Receiver: TaskReceiver, Sendable {
        let id: Int
        let request: ImageRequest
        let hasEnded = false

        init(_ id: Int, url: String) {
            self.id = id
            self.request = ImageRequest(url: URL(string: url))
        }

        func receive(_ delivery: TaskGraph.Actions.Delivery) {}
    }

    private func machine(dataLoadLimit: Int = 6) -> Graph {
        Graph(graph: TaskGraph(dataLoadLimit: dataLoadLimit, decodeLimit: 2))
    }

    /// The graph as the runner drives it: each task submitted with its receiver.
    private struct Graph {
        var graph: TaskGraph
        var liveCount: Int { graph.liveCount }
        var isInvalidated: Bool { graph.isInvalidated }

        mutating func submit(_ receiver: Receiver) -> TaskGraph.Actions {
            graph.submit(task: TaskGraph.TaskID(receiver.id), request: receiver.request, receiver: receiver)
        }
        mutating func cancel(task: Int) -> TaskGraph.Actions { graph.cancel(task: TaskGraph.TaskID(task)) }
        mutating func invalidate() -> TaskGraph.Actions { graph.invalidate() }
        mutating func takePendingLoads() -> [TaskGraph.Actions.Start] { graph.takePendingLoads() }
        mutating func setPriority(_ priority: ImageRequest.Priority, ofTask task: Int) -> TaskGraph.Actions {
            graph.setPriority(priority, ofTask: TaskGraph.TaskID(task))
        }
    }

    @Test func downloadsWaitForOneLauncher() {
        var machine = machine()
        let first = machine.submit(Receiver(1, url: "https://example.com/1.jpg"))
        #expect(first.schedulesLauncher == true, "the first download schedules the launcher")
        #expect(first.starts.isEmpty == true, "a download is not handed to the executor directly")
        let second = machine.submit(Receiver(2, url: "https://example.com/2.jpg"))
        #expect(second.schedulesLauncher == false, "one launcher is scheduled at a time")

        let taken = machine.takePendingLoads()
        #expect(taken.count == 2)
        let left = machine.takePendingLoads()
        #expect(left.isEmpty, "the launcher finds nothing left and stops")
        let third = machine.submit(Receiver(3, url: "https://example.com/3.jpg"))
        #expect(third.schedulesLauncher == true, "after the launcher stopped, the next download schedules a new one")
    }

    @Test func aDownloadCancelledBeforeLaunchFreesItsSlotWithoutRunning() {
        var machine = machine(dataLoadLimit: 1)
        _ = machine.submit(Receiver(1, url: "https://example.com/1.jpg"))
        _ = machine.submit(Receiver(2, url: "https://example.com/2.jpg"))
        let cancel = machine.cancel(task: 1)
        #expect(cancel.cancels.isEmpty, "nothing ran, so there is nothing to cancel")
        #expect(!cancel.schedulesLauncher, "the launcher scheduled by the first download is still due")

        let next = machine.takePendingLoads()
        #expect(next.count == 1, "the cancelled download was taken back; its slot went to the queued one")
        if case .load(let request) = next.first?.work {
            #expect(request.identity == "https://example.com/2.jpg")
        } else {
            Issue.record("expected a download")
        }
    }

    @Test func aDownloadRaisedWhileWaitingStartsAtItsNewPriority() {
        var machine = machine()
        _ = machine.submit(Receiver(1, url: "https://example.com/1.jpg"))
        _ = machine.setPriority(.veryHigh, ofTask: 1)
        let taken = machine.takePendingLoads()
        #expect(taken.map(\.priority) == [.veryHigh], "the launcher starts it at the priority it has now")
    }

    @Test func eachTaskIsRegisteredOnceAndForgottenWhenItLeaves() {
        var machine = machine()
        let receiver = Receiver(1, url: "https://example.com/1.jpg")
        _ = machine.submit(receiver)
        // One task, its decode and data stages and the download: nothing counted twice.
        #expect(machine.liveCount == 4)
        _ = machine.cancel(task: 1)
        #expect(machine.liveCount == 0, "a download cancelled before launch stops at once")
        let pending = machine.takePendingLoads()
        #expect(pending.isEmpty)
    }

    @Test func anInvalidatedGraphFailsItsTasks() {
        var machine = machine()
        _ = machine.submit(Receiver(1, url: "https://example.com/1.jpg"))
        let invalidate = machine.invalidate()
        #expect(invalidate.deliveries.count == 1, "the running task fails")
        // The runner submits nothing more (`invalidateCancelsEverythingAndRefusesNewWork` checks it end to end).
        #expect(machine.isInvalidated)
    }
}
