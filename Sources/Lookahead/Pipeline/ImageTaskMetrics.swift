// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// What one image task cost, stage by stage, for analytics (``ImagePipeline/Configuration/taskMetricsHandler``).
/// Tasks that share work show the same stages, which may begin before a task that joined them late.
public struct ImageTaskMetrics: Sendable {
    /// A span of time on the continuous clock.
    public struct Interval: Sendable, Hashable {
        public var start: ContinuousClock.Instant
        public var end: ContinuousClock.Instant
        public var duration: Duration { end - start }

        public init(start: ContinuousClock.Instant, end: ContinuousClock.Instant) {
            self.start = start
            self.end = end
        }

        /// From `start` to now.
        static func since(_ start: ContinuousClock.Instant) -> Interval {
            Interval(start: start, end: .now)
        }
    }

    /// How the stages made the image. Every interval is `nil` for a stage that did not run for it.
    public struct Stages: Sendable, Hashable {
        /// Getting the bytes: the disk cache lookup, then the download if there was one.
        public var dataLoad: Interval?
        /// The download alone, `nil` when the bytes came from the disk cache.
        public var download: Interval?
        /// The bytes of the body the download delivered, a resumed prefix included.
        public var downloadedBytes = 0
        /// The bytes of that body kept from an earlier, cancelled download (``ImagePipeline/Configuration/partialDownloadLimit``).
        public var resumedBytes = 0
        /// Decoding the bytes.
        public var decode: Interval?
        /// Applying the request's processors, the first to the last.
        public var processing: Interval?

        public init() {}
    }

    /// How a task ended.
    public enum Outcome: Sendable {
        /// With an image; `cacheType` says which cache answered, `nil` for the network.
        case succeeded(cacheType: ImageResponse.CacheType?)
        case failed(ImagePipeline.Error)
        case cancelled
    }

    /// The task's ``ImageTask/id``.
    public var taskID: Int
    public var request: ImageRequest
    /// From the task's creation to its end.
    public var task: Interval
    public var outcome: Outcome
    /// The stages behind the image; empty for a memory cache hit, a failure, or a cancellation.
    public var stages: Stages
    /// The task's whole duration.
    public var duration: Duration { task.duration }
}
