// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — parsing Cache-Control, Expires and the validators, including hostile values.

import Foundation
import Testing

@testable import Lookahead

@Suite struct HTTPCacheHeadersTests {
    @Test func directivesAreCaseInsensitiveAndQuotedCommasDoNotSplit() {
        let headers = HTTPCacheHeaders(headers: [
            "Cache-Control": #"Public, MAX-AGE=120, private="a, no-store", Immutable"#
        ])
        #expect(headers.maxAge == 120)
        #expect(headers.immutable)
        #expect(!headers.noStore)  // inside the quoted field list, not a directive
        #expect(!headers.noCache)
        #expect(HTTPCacheHeaders(headers: ["cache-control": "no-store"]).noStore)
        #expect(HTTPCacheHeaders(headers: ["cache-control": "no-cache, max-age=5"]).noCache)
    }

    @Test func hostileMaxAgeValuesAreCappedOrIgnored() {
        #expect(
            HTTPCacheHeaders(headers: ["cache-control": "max-age=99999999999999999999999"]).maxAge == Int(Int32.max)
        )
        #expect(HTTPCacheHeaders(headers: ["cache-control": "max-age=-1"]).maxAge == nil)
        #expect(HTTPCacheHeaders(headers: ["cache-control": "max-age=1e9"]).maxAge == nil)
        #expect(HTTPCacheHeaders(headers: ["cache-control": "max-age="]).maxAge == nil)
        #expect(HTTPCacheHeaders(headers: ["cache-control": #"max-age="60""#]).maxAge == 60)
        #expect(HTTPCacheHeaders(headers: ["cache-control": ",,,=,\"\"\"=="]).maxAge == nil)
        #expect(HTTPCacheHeaders(headers: ["cache-control": "max-age=٣"]).maxAge == nil)  // not ASCII
    }

    @Test func theThreeHTTPDateFormsParseAndGarbageDoesNot() {
        let expected = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        #expect(HTTPDate.format(expected) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("0") == nil)
        #expect(HTTPDate.parse("") == nil)
        #expect(HTTPDate.parse(String(repeating: "Sun, 06 Nov 1994 ", count: 1000)) == nil)
        #expect(HTTPDate.parse("Sun, 32 Nov 1994 08:49:37 GMT") == nil)
    }

    @Test func freshnessComesFromMaxAgeThenExpiresMinusDate() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let both = HTTPCacheHeaders(headers: [
            "cache-control": "max-age=10",
            "expires": "Sun, 06 Nov 1994 08:49:37 GMT",
        ])
        #expect(both.freshnessLifetime(now: now) == 10)
        let expires = HTTPCacheHeaders(headers: [
            "date": "Sun, 06 Nov 1994 08:49:37 GMT",
            "expires": "Sun, 06 Nov 1994 08:50:37 GMT",
        ])
        #expect(expires.freshnessLifetime(now: now) == 60)
        // An invalid Expires means already expired.
        #expect(HTTPCacheHeaders(headers: ["expires": "0"]).freshnessLifetime(now: now) == 0)
        #expect(HTTPCacheHeaders(headers: [:]).freshnessLifetime(now: now) == nil)
    }

    @Test func validatorsAndConditionalHeaders() {
        let headers = HTTPCacheHeaders(headers: [
            "ETag": #"W/"abc""#,
            "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT",
        ])
        let metadata = HTTPCacheMetadata(headers: headers, now: Date(timeIntervalSince1970: 0))
        #expect(
            metadata.conditionalHeaders == [
                "If-None-Match": #"W/"abc""#, "If-Modified-Since": "Sun, 06 Nov 1994 08:49:37 GMT",
            ]
        )
        // A Last-Modified that is not a date is not sent back.
        #expect(HTTPCacheHeaders(headers: ["last-modified": "yesterday"]).lastModified == nil)
        #expect(HTTPCacheMetadata.decode(metadata.encoded()) == metadata)
        #expect(HTTPCacheMetadata.decode(Data("garbage".utf8)) == nil)
    }

    @Test func freshnessOfMetadata() {
        let now = Date(timeIntervalSince1970: 1_000)
        let fresh = HTTPCacheMetadata(headers: HTTPCacheHeaders(headers: ["cache-control": "max-age=60"]), now: now)
        #expect(fresh.isFresh(now: now.addingTimeInterval(59)))
        #expect(!fresh.isFresh(now: now.addingTimeInterval(60)))
        let immutable = HTTPCacheMetadata(headers: HTTPCacheHeaders(headers: ["cache-control": "immutable"]), now: now)
        #expect(immutable.isFresh(now: .distantFuture))
        let noCache = HTTPCacheMetadata(
            headers: HTTPCacheHeaders(headers: ["cache-control": "no-cache, max-age=60"]),
            now: now
        )
        #expect(!noCache.isFresh(now: now))
        let none = HTTPCacheMetadata(headers: HTTPCacheHeaders(headers: [:]), now: now)
        #expect(!none.isFresh(now: now))
    }
}
