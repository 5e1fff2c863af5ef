// Lookahead gallery — messages posted from other threads and taken by a frame loop.

import Synchronization

/// What other threads (slot callbacks, the input reader, signal handlers, chafa) hand to a frame loop, which takes
/// everything that arrived once per frame, in the order it was posted.
package final class Inbox<Message: Sendable>: Sendable {
    private let items = Mutex<[Message]>([])

    package init() {}

    package func post(_ message: Message) { items.withLock { $0.append(message) } }

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
