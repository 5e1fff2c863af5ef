// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

/// What an HTTP response says about caching it: `Cache-Control`, `Expires`, `Date`, `ETag` and `Last-Modified`.
/// Parsing never fails: a malformed directive or date is ignored (a malformed `Expires` means "already expired").
public struct HTTPCacheHeaders: Hashable, Sendable {
    /// `Cache-Control: no-store`: the response must not be stored.
    public var noStore = false
    /// `Cache-Control: no-cache`: the response may be stored but must be revalidated before each use.
    public var noCache = false
    /// `Cache-Control: immutable`: the body at this URL never changes.
    public var immutable = false
    /// `Cache-Control: max-age`, in seconds (the last valid one wins; negative values count as 0).
    public var maxAge: Int?
    /// `Expires`; `.distantPast` when the header is present but not a valid HTTP-date.
    public var expires: Date?
    /// `Date`: when the server produced the response.
    public var date: Date?
    /// `ETag`, verbatim (a weak `W/"…"` tag included).
    public var etag: String?
    /// `Last-Modified`, verbatim (sent back as `If-Modified-Since`) when it is a valid HTTP-date.
    public var lastModified: String?

    /// Parses the caching headers of a response; `headers` names are matched case-insensitively.
    public init(headers: [String: String]) {
        let fields = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) },
            uniquingKeysWith: { a, b in "\(a), \(b)" }
        )
        for directive in Self.directives(fields["cache-control"] ?? "") {
            switch directive.name {
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "immutable": immutable = true
            case "max-age":
                // A huge value is capped (RFC 9111 §1.2.2), not a trap.
                if let value = directive.value, !value.isEmpty, value.allSatisfy(\.isASCIIDigit) {
                    maxAge = Int(value.prefix(10)).map { min($0, Int(Int32.max)) }
                }
            default: break
            }
        }
        if let value = fields["expires"] { expires = HTTPDate.parse(value) ?? .distantPast }
        date = fields["date"].flatMap(HTTPDate.parse)
        etag = fields["etag"].map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        lastModified = fields["last-modified"].flatMap { HTTPDate.parse($0) == nil ? nil : $0 }
    }

    /// The freshness lifetime the response grants, in seconds: `max-age` first, else `Expires − Date` (or
    /// `Expires − now` without a `Date`); `nil` when the response grants none.
    public func freshnessLifetime(now: Date) -> TimeInterval? {
        if let maxAge { return TimeInterval(maxAge) }
        guard let expires else { return nil }
        return max(0, expires.timeIntervalSince(date ?? now))
    }

    /// Splits a `Cache-Control` value into lowercased directive names and their unquoted values.
    static func directives(_ value: String) -> [(name: String, value: String?)] {
        var parts: [String] = []
        var current = ""
        var quoted = false
        for character in value {
            if character == "\"" { quoted.toggle() }
            if character == ",", !quoted {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts.compactMap { part in
            let pieces = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = pieces.first?.lowercased(), !name.isEmpty else { return nil }
            let value = pieces.count > 1 ? pieces[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : nil
            return (name, value)
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

/// The three HTTP-date forms (RFC 9110 §5.6.7): IMF-fixdate, RFC 850 and asctime, always GMT.
package enum HTTPDate {
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss 'GMT'",
        "EEEE, dd-MMM-yy HH:mm:ss 'GMT'",
        "EEE MMM d HH:mm:ss yyyy",
    ]

    /// The date, or `nil` when the value is none of the three forms.
    package static func parse(_ value: String) -> Date? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        // Real dates are ~29 characters: a longer value is not worth a formatter's time.
        guard !trimmed.isEmpty, trimmed.count <= 64 else { return nil }
        let value = trimmed.replacingOccurrences(of: "  ", with: " ")
        return formats.lazy.compactMap { formatter($0).date(from: value) }.first
    }

    /// The IMF-fixdate form of a date.
    package static func format(_ date: Date) -> String {
        formatter(formats[0]).string(from: date)
    }

    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        formatter.isLenient = false
        return formatter
    }
}
