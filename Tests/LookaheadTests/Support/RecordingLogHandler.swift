// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — a swift-log handler that keeps every message, to check what a component logged.

import Logging

@testable import Lookahead

#if !LOOKAHEAD_PTHREAD_LOCKS
#endif

/// Collects log records in memory; thread safe.
final class LogRecorder: Sendable {
    struct Record: Sendable {
        let level: Logger.Level
        let message: String
    }

    private let records = Locked<[Record]>([])

    /// A logger whose every message (trace and up) lands here.
    func logger(label: String = "test") -> Logger {
        var logger = Logger(label: label) { _ in Handler(recorder: self) }
        logger.logLevel = .trace
        return logger
    }

    var all: [Record] { records.withLock { $0 } }

    fileprivate func append(_ record: Record) {
        records.withLock { $0.append(record) }
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.append(Record(level: event.level, message: event.message.description))
        }
    }
}
