// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The three HTTP-date forms of RFC 9110 §5.6.7, parsed to the letter (names in any case, as browsers read them):
/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime
/// (`Sun Nov  6 08:49:37 1994`). Any other shape — another zone, a missing comma, doubled spaces, a one-digit
/// hour — is not a date.
package enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let longDays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// The date, or `nil` when the value is none of the three forms.
    package static func parse(_ value: String) -> Date? {
        let value = value.trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty, value.utf8.count <= 64 else { return nil }
        let parts = value.lowercased().split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        return imfFixdate(parts) ?? rfc850(parts) ?? asctime(parts)
    }

    /// `day-name "," SP 2DIGIT SP month SP 4DIGIT SP time-of-day SP "GMT"`
    private static func imfFixdate(_ parts: [String]) -> Date? {
        guard parts.count == 6, parts[5] == "gmt", parts[0].hasSuffix(","), days.contains(String(parts[0].dropLast())),
            let day = number(parts[1], digits: 2), let year = number(parts[3], digits: 4)
        else { return nil }
        return date(year: year, month: parts[2], day: day, time: parts[4])
    }

    /// `day-name-l "," SP 2DIGIT "-" month "-" 2DIGIT SP time-of-day SP "GMT"`; a two-digit year more than 50
    /// years ahead is in the past century.
    private static func rfc850(_ parts: [String]) -> Date? {
        let date = parts.count == 4 ? parts[1].split(separator: "-", omittingEmptySubsequences: false) : []
        guard parts.count == 4, parts[3] == "gmt", parts[0].hasSuffix(","),
            longDays.contains(String(parts[0].dropLast())), date.count == 3,
            let day = number(String(date[0]), digits: 2), let shortYear = number(String(date[2]), digits: 2)
        else { return nil }
        let thisYear = Calendar(identifier: .gregorian).component(.year, from: Date())
        let year = 2000 + shortYear - thisYear > 50 ? 1900 + shortYear : 2000 + shortYear
        return self.date(year: year, month: String(date[1]), day: day, time: parts[2])
    }

    /// `day-name SP month SP ( 2DIGIT / ( SP DIGIT ) ) SP time-of-day SP 4DIGIT`
    private static func asctime(_ parts: [String]) -> Date? {
        var parts = parts
        if parts.count == 6, parts[2].isEmpty, parts[3].count == 1 { parts.remove(at: 2) }
        guard parts.count == 5, days.contains(parts[0]), let year = number(parts[4], digits: 4),
            let day = number(parts[2], digits: parts[2].count == 1 ? 1 : 2)
        else { return nil }
        return date(year: year, month: parts[1], day: day, time: parts[3])
    }

    /// The instant of a valid calendar day and `HH:MM:SS` (a leap second counts as the next), in GMT.
    private static func date(year: Int, month name: String, day: Int, time: String) -> Date? {
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard let month = months.firstIndex(of: name).map({ $0 + 1 }), clock.count == 3,
            let hour = number(String(clock[0]), digits: 2), let minute = number(String(clock[1]), digits: 2),
            let second = number(String(clock[2]), digits: 2), hour < 24, minute < 60, second <= 60,
            day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        let seconds = daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Exactly `digits` ASCII digits.
    private static func number(_ text: String, digits: Int) -> Int? {
        guard text.utf8.count == digits, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int(text)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// Days from 1970-01-01 to a day of the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The IMF-fixdate form of a date.
    package static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
