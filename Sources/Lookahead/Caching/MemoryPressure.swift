// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// How hard the system presses on memory, and how much a ``MemoryCache`` gives back for it.
public enum MemoryPressure: Sendable, Equatable {
    /// Memory is getting short: the cache keeps half its cost. Dispatch's `warning` on macOS and watchOS; on Linux a
    /// rise of the cgroup's `high` counter, or tasks waiting on memory a tenth of the time (pressure stall
    /// information, `some`).
    case warning
    /// Memory is about to run out: the cache empties. UIKit's memory warning; Dispatch's `critical`; on Linux a rise of
    /// the cgroup's `max` or OOM counters, or every task waiting on memory a tenth of the time (`full`).
    case critical
    /// The app left the foreground (UIKit): the cache keeps a tenth of its cost, what the first screen needs on return.
    case background

    /// The order in which pressures outrank each other, for the monitors that report only a rise.
    var severity: Int {
        switch self {
        case .background: 0
        case .warning: 1
        case .critical: 2
        }
    }
}

extension MemoryCache {
    /// Gives memory back as the system asks. A cache does this by itself unless it was created with
    /// `followsSystemMemoryPressure: false`; call it to relieve memory by hand.
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
    ///
    /// A ``MemoryCache`` follows this file, and the kernel's pressure stall information, by itself.
    public static func poll(
        every interval: Duration = .seconds(2),
        path: String = "/sys/fs/cgroup/memory.events",
        _ handler: @escaping @Sendable (MemoryPressure) -> Void
    ) -> (any DispatchSourceTimer)? {
        guard FileManager.default.isReadableFile(atPath: path) else { return nil }
        let monitor = LinuxMemoryPressure(files: .init(events: path, stall: nil))
        return monitor.poll(every: interval, handler)
    }
}

/// The kernel's pressure stall information for memory (`memory.pressure` of a cgroup, or `/proc/pressure/memory`):
/// the share of the last ten seconds in which some task (`some`) or every task (`full`) waited for memory.
///
/// A tenth of the time is pressure, as systemd's default (200 ms in 2 s): `some` is a ``MemoryPressure/warning``,
/// `full` ``MemoryPressure/critical``. The averages fall slowly, so a level is reported once, when it is reached.
struct PressureStallMemory: Sendable {
    /// The share of time, in percent, that counts as pressure.
    static let threshold = 10.0
    private var level: MemoryPressure?

    /// Reads the file's text and returns the pressure it shows, if higher than at the last reading.
    mutating func observe(_ text: String) -> MemoryPressure? {
        var averages: [Substring: Double] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let kind = fields.first, let field = fields.first(where: { $0.hasPrefix("avg10=") }) else { continue }
            averages[kind] = Double(field.dropFirst("avg10=".count))
        }
        let now: MemoryPressure? =
            if averages["full", default: 0] >= Self.threshold {
                .critical
            } else if averages["some", default: 0] >= Self.threshold {
                .warning
            } else {
                nil
            }
        defer { level = now }
        guard let now, now.severity > level?.severity ?? -1 else { return nil }
        return now
    }
}
