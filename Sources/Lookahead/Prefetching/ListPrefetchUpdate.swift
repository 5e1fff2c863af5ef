// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// What a change of a list's visible rows changed: rows to prefetch and prefetched rows to cancel, nearest first.
public struct ListPrefetchUpdate: Equatable, Sendable {
    /// Rows to start prefetching.
    public var prefetch: [Int] = []
    /// Rows whose prefetch should stop.
    public var cancel: [Int] = []

    /// Whether there is nothing to do.
    public var isEmpty: Bool { prefetch.isEmpty && cancel.isEmpty }

    /// The console lines of the classic prefetching demo (rows numbered from 1).
    public var logMessages: [String] {
        var lines: [String] = []
        if !prefetch.isEmpty { lines.append("🚀 Prefetching images for rows: \(Self.format(prefetch))") }
        if !cancel.isEmpty { lines.append("🚫 Cancelling prefetch for rows: \(Self.format(cancel))") }
        return lines
    }

    private static func format(_ rows: [Int]) -> String {
        "[" + rows.map { String($0 + 1) }.joined(separator: ", ") + "]"
    }
}
