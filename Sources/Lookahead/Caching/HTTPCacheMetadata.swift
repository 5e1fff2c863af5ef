// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// A stored response's status, header fields and freshness, and what its request sent for the fields it varies on,
/// kept as a sidecar entry of the same ``DataCaching`` under ``key(for:)``, so any cache gets HTTP semantics. Metadata
/// without data is ignored; data without readable metadata is stale with no validator. Everything below
/// `responseTime` is derived from the fields by one initialiser, so a lookup parses nothing.
package struct HTTPCacheMetadata: Codable, Hashable, Sendable {
    package var statusCode: Int
    /// The stored header fields (``storable(_:)``).
    package var headers: [String: String]
    /// The values the request sent for the fields the response varies on, by lowercased name.
    package var variedFields: [String: String]
    package var requestTime: Date
    package var responseTime: Date

    package var etag: String?
    package var lastModified: String?
    /// The response's age when it arrived (RFC 9111 §4.2.3).
    package var initialAge: TimeInterval
    /// Arrival plus the freshness lifetime (explicit, else heuristic) less the initial age; `nil`: stale at once.
    package var freshUntil: Date?
    package var noCache: Bool
    package var mustRevalidate: Bool
    /// `stale-if-error` and `stale-while-revalidate`, in seconds past `freshUntil`.
    package var staleIfError: TimeInterval?
    package var staleWhileRevalidate: TimeInterval?
    package var vary: [String]

    /// The sidecar key of a data key.
    package static func key(for dataKey: String) -> String { dataKey + "\u{0}lookahead-http-metadata-v3" }

    /// The metadata of `response` to a request with `requestHeaders` (`immutable` matters only while fresh, RFC 8246).
    package init(response: HTTPResponseInfo, requestHeaders: [String: String], requestTime: Date, responseTime: Date) {
        self.init(
            statusCode: response.statusCode,
            headers: Self.storable(response.headers),
            requestTime: requestTime,
            responseTime: responseTime
        )
        variedFields = Self.values(of: vary, in: requestHeaders)
    }

    /// `ageHeaders` are the response the age is measured from when it is not the one whose fields are stored.
    private init(
        statusCode: Int,
        headers: [String: String],
        ageFrom ageHeaders: HTTPCacheHeaders? = nil,
        variedFields: [String: String] = [:],
        requestTime: Date,
        responseTime: Date
    ) {
        let parsed = HTTPCacheHeaders(headers: headers)
        self.statusCode = statusCode
        self.headers = headers
        self.variedFields = variedFields
        self.requestTime = requestTime
        self.responseTime = responseTime
        etag = parsed.etag
        lastModified = parsed.lastModified
        initialAge = (ageHeaders ?? parsed).initialAge(requestTime: requestTime, responseTime: responseTime)
        let heuristic =
            Self.heuristicallyCacheable.contains(statusCode) ? parsed.heuristicLifetime(now: responseTime) : nil
        let lifetime = parsed.freshnessLifetime(now: responseTime) ?? heuristic
        freshUntil = lifetime.map { [initialAge] in responseTime.addingTimeInterval($0 - initialAge) }
        noCache = parsed.noCache
        mustRevalidate = parsed.mustRevalidate
        staleIfError = parsed.staleIfError.map(TimeInterval.init)
        staleWhileRevalidate = parsed.staleWhileRevalidate.map(TimeInterval.init)
        vary = parsed.vary
    }

    /// The metadata after a `304 Not Modified` (RFC 9111 §4.3.4, §3.2): the fields it sends replace the stored ones,
    /// `Content-Length` excepted; freshness is judged again from the fields so updated, and the age from the `304`.
    package func refreshed(by response: HTTPResponseInfo, requestTime: Date, responseTime: Date) -> HTTPCacheMetadata {
        var merged = headers
        for (name, value) in Self.storable(response.headers) where name != "content-length" { merged[name] = value }
        return HTTPCacheMetadata(
            statusCode: statusCode,
            headers: merged,
            ageFrom: HTTPCacheHeaders(headers: response.headers),
            variedFields: variedFields,
            requestTime: requestTime,
            responseTime: responseTime
        )
    }

    /// The statuses whose responses may be given a heuristic lifetime (RFC 9110 §15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Whether the response is a fresh error answer, worth keeping to answer again without asking the server.
    package func isStorableErrorAnswer(now: Date) -> Bool { statusCode >= 400 && isFresh(now: now) }

    /// Whether the entry may be used without asking the server.
    package func isFresh(now: Date) -> Bool { !noCache && freshUntil.map { now < $0 } ?? false }

    /// Whether the stored response may answer a request with `requestHeaders` (RFC 9111 §4.1): each field it varies
    /// on has the value it was stored with, or is absent from both; `Vary: *` matches nothing.
    package func matches(_ requestHeaders: [String: String]) -> Bool {
        vary.isEmpty || (!vary.contains("*") && Self.values(of: vary, in: requestHeaders) == variedFields)
    }

    /// How many variants of one URL are kept besides the first one stored (RFC 9111 §4.1): each has a slot chosen by
    /// the values its request sent, so a variant replaces only the one whose slot it shares.
    package static let variantSlots = 8

    /// The key of the slot for the variant a request with `requestHeaders` wants, when this entry (the first stored
    /// for `dataKey`) varies and does not match it; `nil` when the entry does not vary or varies on `*`.
    package func variantKey(of dataKey: String, for requestHeaders: [String: String]) -> String? {
        guard !vary.isEmpty, !vary.contains("*") else { return nil }
        let values = Self.values(of: vary, in: requestHeaders).sorted { $0.key < $1.key }
        // A stable hash: the same slot in every process that shares the folder.
        let hash = stableHash(values.map { "\($0.key)\u{0}\($0.value)\u{0}" }.joined())
        return Self.variantKey(of: dataKey, slot: Int(hash % UInt64(Self.variantSlots)))
    }

    /// The key of one of a data key's variant slots.
    package static func variantKey(of dataKey: String, slot: Int) -> String {
        dataKey + "\u{0}lookahead-variant-\(slot)"
    }

    /// Whether the stale entry may answer when the server cannot be reached (RFC 9111 §4.2.4).
    package var mayAnswerWhenUnreachable: Bool { !mustRevalidate && !noCache }

    /// Whether the stale entry may answer a 500, 502, 503 or 504 at `now` (`stale-if-error`, RFC 5861 §4).
    package func mayAnswer(status: Int, now: Date) -> Bool {
        [500, 502, 503, 504].contains(status) && mayAnswerWhenUnreachable && isWithin(staleIfError, now: now)
    }

    /// Whether the stale entry may answer at `now` while revalidated (`stale-while-revalidate`, RFC 5861 §3).
    package func mayAnswerWhileRevalidating(now: Date) -> Bool {
        mayAnswerWhenUnreachable && isWithin(staleWhileRevalidate, now: now)
    }

    private func isWithin(_ window: TimeInterval?, now: Date) -> Bool {
        guard let window, let freshUntil else { return false }
        return now <= freshUntil.addingTimeInterval(window)
    }

    /// The stored response as a hit returns it, with the `Age` it has at `now` (RFC 9111 §5.1).
    package func response(url: URL?, now: Date) -> HTTPResponseInfo {
        let age = initialAge + max(0, now.timeIntervalSince(responseTime))
        var fields = headers
        fields["age"] = String(Int(min(age, TimeInterval(1 << 31))))
        return HTTPResponseInfo(url: url, statusCode: statusCode, headers: fields)
    }

    /// The conditional request header fields; empty without a validator.
    package var conditionalHeaders: [String: String] {
        ["If-None-Match": etag, "If-Modified-Since": lastModified].compactMapValues { $0 }
    }

    package func encoded() -> Data { (try? JSONEncoder().encode(self)) ?? Data() }

    package static func decode(_ data: Data) -> HTTPCacheMetadata? { try? JSONDecoder().decode(Self.self, from: data) }
}

extension HTTPCacheMetadata {
    /// Fields that describe one connection, never stored (RFC 9110 §7.6.1, RFC 9111 §3.1).
    static let connectionFields: Set<String> = [
        "connection", "keep-alive", "proxy-authenticate", "proxy-authentication-info", "proxy-authorization",
        "proxy-connection", "te", "transfer-encoding", "upgrade",
    ]
    /// The fields kept when all would pass ``storedFieldsLimit``.
    static let cachingFields: Set<String> = [
        "cache-control", "content-length", "content-type", "date", "etag", "expires", "last-modified", "vary",
    ]
    /// The most bytes of stored fields (names and values), and of one field.
    static let storedFieldsLimit = 16 * 1024
    static let storedFieldLimit = 4 * 1024

    /// The fields of a response a cache stores: lowercased, without the connection's fields or those `Connection`
    /// names, none longer than ``storedFieldLimit``, and at most ``storedFieldsLimit`` bytes in all.
    static func storable(_ headers: [String: String]) -> [String: String] {
        var fields = HTTPCacheHeaders.lowercased(headers)
        let named = (fields["connection"] ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        fields = fields.filter { name, value in
            !connectionFields.contains(name) && !named.contains(name)
                && name.utf8.count + value.utf8.count <= storedFieldLimit
        }
        let size = fields.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        return size <= storedFieldsLimit ? fields : fields.filter { cachingFields.contains($0.key) }
    }

    /// The values `requestHeaders` (names matched case-insensitively) has for the `names`, by lowercased name, each
    /// normalised as a list: the whitespace around its comma-separated members does not make another variant, nor,
    /// for `Accept-Language`, the case or order of its language ranges (case-insensitive by RFC 4647 §2).
    static func values(of names: [String], in requestHeaders: [String: String]) -> [String: String] {
        guard !names.isEmpty else { return [:] }
        var values: [String: String] = [:]
        for (name, value) in HTTPCacheHeaders.lowercased(requestHeaders) where names.contains(name) {
            var members = value.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            if name == "accept-language" { members = members.map { $0.lowercased() }.sorted() }
            values[name] = members.joined(separator: ", ")
        }
        return values
    }
}
