// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Who wants to know that a host answers again after failures to reach it (``ImageSlot``s and
/// ``ImagePipeline/recoveredHosts``); observers are called on the download's thread.
package final class HostRecoveries: Sendable {
    private struct State {
        var nextID = 0
        var observers: [Int: @Sendable (String) -> Void] = [:]
    }

    private let state = Locked(State())

    /// Adds an observer; keep the returned id to remove it.
    package func addObserver(_ observer: @escaping @Sendable (_ host: String) -> Void) -> Int {
        state.withLock { state in
            state.nextID += 1
            state.observers[state.nextID] = observer
            return state.nextID
        }
    }

    package func removeObserver(_ id: Int) { state.withLock { $0.observers[id] = nil } }

    package func hostRecovered(_ host: String) {
        let observers = state.withLock { Array($0.observers.values) }
        for observer in observers { observer(host) }
    }
}
