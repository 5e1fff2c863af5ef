// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery — messages posted from other threads and taken by a frame loop.

import Dispatch
import Synchronization

/// What other threads (slot callbacks, the input reader, signal handlers, chafa) hand to a frame loop, which takes
/// everything that arrived once per frame, in the order it was posted.
package final class Inbox<Message: Sendable>: Sendable {
    private let items = Mutex<[Message]>([])
    private let posted = DispatchSemaphore(value: 0)

    package init() {}

    package func post(_ message: Message) {
        items.withLock { $0.append(message) }
        posted.signal()
    }

    /// Blocks the calling thread until a message is posted or `timeout` passes (a loop with nothing to draw waits
    /// here instead of spinning). A message posted earlier and not yet waited for returns at once.
    package func wait(timeout: Duration) {
        let nanoseconds =
            Int(timeout.components.seconds) * 1_000_000_000
            + Int(timeout.components.attoseconds / 1_000_000_000)
        guard posted.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else { return }
        while posted.wait(timeout: .now()) == .success {}  // the messages are taken together: one wake-up for all
    }

    package func take() -> [Message] {
        items.withLock { items in
            defer { items.removeAll() }
            return items
        }
    }
}

extension Duration {
    /// The duration in seconds.
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
