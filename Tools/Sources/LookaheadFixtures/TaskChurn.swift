// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation
public import Lookahead

/// A seeded storm of image tasks against the fixture server: many tasks for few images (duplicates), with random
/// cancellations, priority changes and reloads while they run. What a test and `lookahead-bench soak --tasks` run.
public enum TaskChurn {
    /// How the tasks ended.
    public struct Report: Sendable, CustomStringConvertible {
        public var started = 0
        public var succeeded = 0
        public var cancelled = 0
        public var failed = 0
        /// Images whose size was not the one asked for: must be 0.
        public var wrongImages = 0

        /// Every task ended with an image, a failure or a cancellation.
        public var ended: Int { succeeded + cancelled + failed }

        public var description: String {
            "\(started) tasks: \(succeeded) images, \(cancelled) cancelled, \(failed) failed, \(wrongImages) wrong"
        }
    }

    /// Starts `tasks` tasks for `distinctImages` images of `size` pixels, one at a time; after each start, a random
    /// earlier task is cancelled (30 %) or re-prioritised (30 %), and one in ten starts reloads, ignoring the
    /// caches. Then waits for every task to end.
    public static func run(
        pipeline: ImagePipeline,
        server: FixtureServer,
        tasks: Int,
        distinctImages: Int,
        size: Int = 24,
        seed: UInt64
    ) async -> Report {
        var random = SplitMix64(seed: seed)
        var started: [ImageTask] = []
        started.reserveCapacity(tasks)
        let priorities = ImageRequest.Priority.allCases
        for _ in 0..<tasks {
            let image = Int(random.next() % UInt64(max(1, distinctImages))) + 1
            var request = ImageRequest(url: server.imageURL(image, width: size, height: size))
            request.priority = priorities[Int(random.next() % UInt64(priorities.count))]
            if random.next() % 10 == 0 { request.options.insert(.reloadIgnoringCachedData) }
            started.append(pipeline.imageTask(with: request))
            let action = random.next() % 10
            let other = started[Int(random.next() % UInt64(started.count))]
            if action < 3 {
                other.cancel()
            } else if action < 6 {
                other.priority = priorities[Int(random.next() % UInt64(priorities.count))]
            }
        }
        var report = Report(started: started.count)
        for task in started {
            do {
                let response = try await task.response
                report.succeeded += 1
                if response.image.width != size { report.wrongImages += 1 }
            } catch .cancelled {
                report.cancelled += 1
            } catch {
                report.failed += 1
            }
        }
        return report
    }
}
