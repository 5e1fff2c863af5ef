// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(UIKit) && !os(watchOS)
import UIKit

/// Forwards UIKit's memory warnings and the move to the background, which a ``MemoryCache`` follows by itself.
final class SystemMemoryPressure: Sendable {
    // SAFETY: set once in `init`, read only in `deinit`; NotificationCenter's add and remove are thread safe.
    private nonisolated(unsafe) let observers: [any NSObjectProtocol]

    init(_ handler: @escaping @Sendable (MemoryPressure) -> Void) {
        let center = NotificationCenter.default
        observers = [
            center.addObserver(forName: UIApplication.didReceiveMemoryWarningNotification, object: nil, queue: nil) {
                _ in handler(.critical)
            },
            center.addObserver(forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: nil) {
                _ in handler(.background)
            },
        ]
    }

    deinit {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
    }
}
#endif
