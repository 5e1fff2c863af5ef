// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// How hard the system presses on memory, and how much a ``MemoryCache`` gives back for it.
public enum MemoryPressure: Sendable, Equatable {
    /// Memory is short (the cgroup's `high` limit reached): the cache keeps half its cost.
    case warning
    /// Memory is about to run out (UIKit's memory warning, the cgroup's `max` limit, an OOM kill): the cache empties.
    case critical
    /// The app left the foreground: the cache keeps a tenth of its cost, what the first screen needs on return.
    case background
}

extension MemoryCache {
    /// Gives memory back as the system asks: by itself on iOS, tvOS and visionOS; on Linux, ``CgroupMemoryPressure``.
    public func relieve(_ pressure: MemoryPressure) {
        let kept =
            switch pressure {
            case .warning: totalCost / 2
            case .critical: 0
            case .background: totalCost / 10
            }
        if kept == 0 { removeAll() } else { trim(toCost: kept) }
    }
}

/// Memory pressure on Linux, from the cgroup v2 `memory.events` counters: a rise of `high` is a
/// ``MemoryPressure/warning``, of `max` or `oom` ``MemoryPressure/critical``. Feed it each reading
/// (``observe(_:)``), or let ``poll(every:path:_:)`` read the file on a timer.
public struct CgroupMemoryPressure: Sendable {
    private var last: [String: Int]?

    /// Creates a monitor; the first reading sets the baseline.
    public init() {}

    /// Reads `memory.events` text and returns the pressure its counters show since the last reading, if any.
    public mutating func observe(_ text: String) -> MemoryPressure? {
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, let value = Int(fields[1]) { counts[String(fields[0])] = value }
        }
        defer { last = counts }
        guard let last else { return nil }
        func rose(_ name: String) -> Bool { (counts[name] ?? 0) > (last[name] ?? 0) }
        if rose("max") || rose("oom") || rose("oom_kill") { return .critical }
        return rose("high") ? .warning : nil
    }

    /// Reads `memory.events` every `interval` and hands each pressure to `handler`; `nil` without cgroup v2.
    public static func poll(
        every interval: Duration = .seconds(2),
        path: String = "/sys/fs/cgroup/memory.events",
        _ handler: @escaping @Sendable (MemoryPressure) -> Void
    ) -> (any DispatchSourceTimer)? {
        guard FileManager.default.isReadableFile(atPath: path) else { return nil }
        let monitor = Locked(CgroupMemoryPressure())
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "Lookahead.CgroupMemoryPressure"))
        timer.schedule(deadline: .now(), repeating: interval.secondsValue)
        timer.setEventHandler {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                let pressure = monitor.withLock({ $0.observe(text) })
            else { return }
            handler(pressure)
        }
        timer.resume()
        return timer
    }
}
