// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

#if canImport(UIKit) && !os(watchOS)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

/// The system's memory pressure, handed to every ``MemoryCache`` that follows it. The process has one (``shared``):
/// its platform source starts with the first follower and runs for the life of the process.
final class SystemMemoryPressure: Sendable {
    /// The process's memory pressure, from the platform's source.
    static let shared = SystemMemoryPressure(source: startPlatformSource)

    private struct Follower {
        weak var cache: MemoryCache?
    }

    private struct State {
        var followers: [ObjectIdentifier: Follower] = [:]
        var started = false
        /// Keeps the platform's source alive; never used after it was started.
        var source: Any?
    }

    private let state = Locked(State())
    private let startSource: @Sendable (@escaping @Sendable (MemoryPressure) -> Void) -> Any?

    /// Creates a hub whose `source` starts with the first follower and hands it each pressure.
    init(source: @escaping @Sendable (@escaping @Sendable (MemoryPressure) -> Void) -> Any?) {
        self.startSource = source
    }

    /// Relieves `cache` on each pressure from now on, for as long as it lives.
    func follow(_ cache: MemoryCache) {
        let start = state.withLock { state in
            state.followers = state.followers.filter { $0.value.cache != nil }
            state.followers[ObjectIdentifier(cache)] = Follower(cache: cache)
            defer { state.started = true }
            return !state.started
        }
        guard start else { return }
        let source = startSource { [weak self] pressure in self?.deliver(pressure) }
        state.withLock { $0.source = source }
    }

    /// Whether `cache` follows this hub.
    func isFollowed(_ cache: MemoryCache) -> Bool {
        state.withLock { $0.followers[ObjectIdentifier(cache)]?.cache === cache }
    }

    /// Relieves every live follower, outside the lock.
    func deliver(_ pressure: MemoryPressure) {
        let caches = state.withLock { $0.followers.values.compactMap(\.cache) }
        for cache in caches { cache.relieve(pressure) }
    }
}

extension SystemMemoryPressure {
    /// What each platform signal means; the one table for every platform.
    enum Signal {
        /// UIKit's memory warning.
        case applicationMemoryWarning
        /// UIKit's move to the background.
        case applicationEnteredBackground
        /// Dispatch's memory-pressure source: `warning`.
        case kernelWarning
        /// Dispatch's memory-pressure source: `critical`.
        case kernelCritical
    }

    static func pressure(for signal: Signal) -> MemoryPressure {
        switch signal {
        case .applicationMemoryWarning, .kernelCritical: .critical
        case .applicationEnteredBackground: .background
        case .kernelWarning: .warning
        }
    }

    /// Starts the platform's source: UIKit's notifications on iOS, tvOS and visionOS; Dispatch's memory-pressure
    /// source on macOS and watchOS; the cgroup and the kernel's stall information on Linux.
    static func startPlatformSource(_ handler: @escaping @Sendable (MemoryPressure) -> Void) -> Any? {
        #if canImport(UIKit) && !os(watchOS)
        let center = NotificationCenter.default
        let signals: [(Notification.Name, Signal)] = [
            (UIApplication.didReceiveMemoryWarningNotification, .applicationMemoryWarning),
            (UIApplication.didEnterBackgroundNotification, .applicationEnteredBackground),
        ]
        let observers = signals.map { name, signal in
            center.addObserver(forName: name, object: nil, queue: nil) { _ in handler(pressure(for: signal)) }
        }
        return observers
        #elseif canImport(AppKit) || os(watchOS)
        // One source a level, so that a handler knows its level without reading the source it belongs to.
        let levels: [(DispatchSource.MemoryPressureEvent, Signal)] = [
            (.warning, .kernelWarning), (.critical, .kernelCritical),
        ]
        let sources = levels.map { event, signal in
            let source = DispatchSource.makeMemoryPressureSource(eventMask: event, queue: .global())
            source.setEventHandler { handler(pressure(for: signal)) }
            source.activate()
            return source
        }
        return sources
        #else
        let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)
        let monitor = LinuxMemoryPressure(files: LinuxMemoryPressure.files(procSelfCgroup: text))
        return monitor.poll(every: .seconds(2), handler)
        #endif
    }
}
