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

    /// Seconds since 1970 for an HTTP-date in IMF-fixdate, RFC 850 or asctime form (always GMT), or `nil`.
    package static func secondsSince1970(httpDate text: String) -> Int64? {
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" }).map(String.init)
        let day: Int
        let month: Int
        var year: Int
        let time: String
        if tokens.count == 5, let asctimeMonth = monthNumber(tokens[1]) {
            // asctime: Sun Nov  6 08:49:37 1994
            guard let d = Int(tokens[2]), let y = Int(tokens[4]) else { return nil }
            (day, month, year, time) = (d, asctimeMonth, y, tokens[3])
        } else if tokens.count == 6, tokens[5] == "GMT", let m = monthNumber(tokens[2]), let d = Int(tokens[1]),
            let y = Int(tokens[3])
        {
            // IMF-fixdate (four-digit year) or RFC 850 (two-digit year).
            (day, month, year, time) = (d, m, y, tokens[4])
            if tokens[3].count == 2 { year += year < 70 ? 2000 : 1900 }
        } else {
            return nil
        }
        let parts = time.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 3, (1...31).contains(day), (0...23).contains(parts[0]), (0...59).contains(parts[1]),
            (0...60).contains(parts[2]), (1...9999).contains(year)
        else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        return days * 86_400 + Int64(parts[0] * 3600 + parts[1] * 60 + parts[2])
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    private static func monthNumber(_ name: String) -> Int? {
        months.firstIndex(of: name.lowercased()).map { $0 + 1 }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's days_from_civil).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
