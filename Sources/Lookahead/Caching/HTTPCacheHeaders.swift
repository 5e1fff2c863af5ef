// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

/// What an HTTP response says about caching it: `Cache-Control`, `Expires`, `Date`, `Age`, `ETag`, `Last-Modified`
/// and `Vary`. Parsing never fails: a malformed directive or date is ignored (a malformed `Expires` means expired).
public struct HTTPCacheHeaders: Hashable, Sendable {
    /// `Cache-Control: no-store`: the response must not be stored.
    public var noStore = false
    /// `Cache-Control: no-cache`: the response may be stored but must be revalidated before each use.
    public var noCache = false
    /// `Cache-Control: immutable`: the body at this URL never changes.
    public var immutable = false
    /// `Cache-Control: must-revalidate`: once stale, never used without the server's say-so.
    public var mustRevalidate = false
    /// `Cache-Control: must-understand`: only a cache that implements the status code's rules may store it.
    public var mustUnderstand = false
    /// `Cache-Control: max-age`, in seconds (the last valid one wins).
    public var maxAge: Int?
    /// `Cache-Control: stale-if-error` (RFC 5861), in seconds: how long a stale response may answer a server error.
    public var staleIfError: Int?
    /// `Cache-Control: stale-while-revalidate` (RFC 5861), in seconds: how long a stale response may answer at once.
    public var staleWhileRevalidate: Int?
    /// `Age`, in seconds: the first member of the field, when it is a non-negative integer (RFC 9111 §5.1).
    public var age: Int?
    /// `Expires`; `.distantPast` when the header is present but not a valid HTTP-date.
    public var expires: Date?
    /// `Date`: when the server produced the response.
    public var date: Date?
    /// `ETag`, verbatim (a weak `W/"…"` tag included).
    public var etag: String?
    /// `Last-Modified`, verbatim (sent back as `If-Modified-Since`) when it is a valid HTTP-date.
    public var lastModified: String?
    /// `Vary`: the request fields the response was chosen by, lowercased; `"*"` matches no later request.
    public var vary: [String] = []

    /// Parses the caching headers of a response; `headers` names are matched case-insensitively.
    public init(headers: [String: String]) {
        let fields = Self.lowercased(headers)
        for directive in Self.directives(fields["cache-control"] ?? "") {
            switch directive.name {
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "immutable": immutable = true
            case "must-revalidate": mustRevalidate = true
            case "must-understand": mustUnderstand = true
            case "max-age": maxAge = Self.deltaSeconds(directive.value) ?? maxAge
            case "stale-if-error": staleIfError = Self.deltaSeconds(directive.value) ?? staleIfError
            case "stale-while-revalidate":
                staleWhileRevalidate = Self.deltaSeconds(directive.value) ?? staleWhileRevalidate
            default: break
            }
        }
        if let value = fields["age"], let first = value.split(separator: ",", omittingEmptySubsequences: false).first {
            age = Self.deltaSeconds(first.trimmingCharacters(in: .whitespaces))
        }
        if let value = fields["expires"] { expires = HTTPDate.parse(value) ?? .distantPast }
        date = fields["date"].flatMap(HTTPDate.parse)
        etag = fields["etag"].map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        lastModified = fields["last-modified"].flatMap { HTTPDate.parse($0) == nil ? nil : $0 }
        vary = (fields["vary"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
    }

    /// Whether a response with `status` must not be stored (RFC 9111 §5.2.2.3): with `must-understand`, when the
    /// status is not one RFC 9110 defines (`no-store` then yields to it); otherwise under `no-store`.
    public func forbidsStoring(status: Int) -> Bool {
        mustUnderstand ? !Self.understoodStatuses.contains(status) : noStore
    }

    /// The statuses RFC 9110 §15 defines, whose caching rules the cache follows.
    static let understoodStatuses = Set([100, 101, 305, 307, 308, 421, 422, 426])
        .union(200...206).union(300...304).union(400...417).union(500...505)

    /// The freshness lifetime the response grants, in seconds: `max-age`, else `Expires` less `Date` (or `now`).
    public func freshnessLifetime(now: Date) -> TimeInterval? {
        if let maxAge { return TimeInterval(maxAge) }
        guard let expires else { return nil }
        return max(0, expires.timeIntervalSince(date ?? now))
    }

    /// The freshness lifetime a cache may guess for a response without one (RFC 9111 §4.2.2): a tenth of the time
    /// since `Last-Modified` (at `Date`, or `now` without one), at most a week; `nil` without `Last-Modified`.
    public func heuristicLifetime(now: Date) -> TimeInterval? {
        guard let modified = lastModified.flatMap(HTTPDate.parse) else { return nil }
        let sinceModified = (date ?? now).timeIntervalSince(modified)
        return sinceModified > 0 ? min(sinceModified / 10, 7 * 24 * 60 * 60) : nil
    }

    /// The response's age when it arrived (RFC 9111 §4.2.3): the larger of the age its `Date` shows and its `Age`
    /// plus the time between the request (`requestTime`) and the response (`responseTime`).
    public func initialAge(requestTime: Date, responseTime: Date) -> TimeInterval {
        let apparent = max(0, responseTime.timeIntervalSince(date ?? responseTime))
        let delay = max(0, responseTime.timeIntervalSince(requestTime))
        return max(apparent, TimeInterval(age ?? 0) + delay)
    }

    /// Header fields by lowercased name; fields whose names differ only in case are joined by commas.
    static func lowercased(_ headers: [String: String]) -> [String: String] {
        Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, b in "\(a), \(b)" })
    }

    /// `delta-seconds` (RFC 9111 §1.2.2): digits only; a value past 2³¹ counts as 2³¹, not as a trap.
    static func deltaSeconds(_ value: String?) -> Int? {
        guard let value, !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let digits = value.drop { $0 == "0" }
        return digits.count > 10 ? 1 << 31 : min(Int(digits) ?? 0, 1 << 31)
    }

    /// Splits a `Cache-Control` value into lowercased directive names and their unquoted values.
    static func directives(_ value: String) -> [(name: String, value: String?)] {
        var parts = [""]
        var quoted = false
        for character in value {
            if character == "\"" { quoted.toggle() }
            if character == ",", !quoted { parts.append("") } else { parts[parts.count - 1].append(character) }
        }
        return parts.compactMap { part in
            let pieces = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = pieces.first?.lowercased(), !name.isEmpty else { return nil }
            let value = pieces.count > 1 ? pieces[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : nil
            return (name, value)
        }
    }
}
