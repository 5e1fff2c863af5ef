// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Reads `Retry-After`: delta-seconds (`120`) or an HTTP-date in any of its three forms, measured from the
/// response's `Date` header when valid (so a client whose clock is off waits what the server meant), else `now`.
package enum RetryAfter {
    /// The delay a response asks for, or `nil` when it has no valid `Retry-After`. `headers` are lowercased.
    package static func delay(in headers: [String: String], now: Date) -> Duration? {
        guard let value = headers["retry-after"] else { return nil }
        return delay(value, date: headers["date"], now: now)
    }

    /// The delay a `Retry-After` value asks for; `date` is the response's `Date` header, if any.
    package static func delay(_ value: String, date: String? = nil, now: Date) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return .seconds(Int64(text) ?? Int64.max)  // delta-seconds, saturating
        }
        guard let target = secondsSince1970(httpDate: text) else { return nil }
        let reference = date.flatMap(secondsSince1970(httpDate:)) ?? Int64(now.timeIntervalSince1970.rounded(.down))
        return .seconds(max(0, target - reference))
    }

    /// Seconds since 1970 for an HTTP-date (``HTTPDate``), or `nil`.
    package static func secondsSince1970(httpDate text: String) -> Int64? {
        HTTPDate.parse(text).map { Int64($0.timeIntervalSince1970) }
    }
}
