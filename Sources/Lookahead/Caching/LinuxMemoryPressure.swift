// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Memory pressure on Linux: the cgroup v2 counters and the pressure stall information of the process's cgroup, or the
/// whole system's stall information where the cgroup has none, read on a timer.
struct LinuxMemoryPressure: Sendable {
    /// The files read; `nil` where there is none to read.
    struct Files: Sendable, Equatable {
        var events: String?
        var stall: String?
    }

    let files: Files
    private var events = CgroupMemoryPressure()
    private var stall = PressureStallMemory()

    init(files: Files) { self.files = files }

    /// The files for the cgroup named in `/proc/self/cgroup` (its `0::/path` line): the cgroup's `memory.events` and
    /// `memory.pressure` under `root`, and `/proc/pressure/memory` when the cgroup has no stall file.
    static func files(
        procSelfCgroup text: String?,
        root: String = "/sys/fs/cgroup",
        isReadable: (String) -> Bool = { FileManager.default.isReadableFile(atPath: $0) }
    ) -> Files {
        let line = text?.split(separator: "\n").first { $0.hasPrefix("0::/") }
        let folder = line.map { root + $0.dropFirst("0::".count) } ?? root
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        let events = base + "memory.events"
        let stall = [base + "memory.pressure", "/proc/pressure/memory"].first(where: isReadable)
        return Files(events: isReadable(events) ? events : nil, stall: stall)
    }

    /// Reads both files and returns the more severe pressure they show since the last reading, if any.
    mutating func read() -> MemoryPressure? {
        func text(_ path: String?) -> String? { path.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } }
        let counted = text(files.events).flatMap { events.observe($0) }
        let stalled = text(files.stall).flatMap { stall.observe($0) }
        guard let counted, let stalled else { return counted ?? stalled }
        return counted.severity >= stalled.severity ? counted : stalled
    }

    /// Reads the files every `interval` on a utility queue and hands each pressure to `handler`; `nil` when there
    /// is no file to read.
    consuming func poll(
        every interval: Duration,
        _ handler: @escaping @Sendable (MemoryPressure) -> Void
    ) -> (any DispatchSourceTimer)? {
        guard files.events != nil || files.stall != nil else { return nil }
        let monitor = Locked(self)
        let queue = DispatchQueue(label: "Lookahead.LinuxMemoryPressure", qos: .utility)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now(), repeating: interval.secondsValue, leeway: .milliseconds(500))
        timer.setEventHandler {
            if let pressure = monitor.withLock({ $0.read() }) { handler(pressure) }
        }
        timer.resume()
        return timer
    }
}
