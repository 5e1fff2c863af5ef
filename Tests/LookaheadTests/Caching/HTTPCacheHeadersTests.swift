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
            HTTPCacheHeaders(headers: ["cache-control": "max-age=99999999999999999999999"]).maxAge == 1 << 31,
            "RFC 9111 §1.2.2: 2³¹"
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
        // Names in any case, as browsers read them; two-digit years more than 50 years ahead are in the last century.
        #expect(HTTPDate.parse("SUN, 06 NOV 1994 08:49:37 gmt") == expected)
        #expect(HTTPDate.parse("Thursday, 18-Aug-50 02:01:18 GMT") == HTTPDate.parse("Thu, 18 Aug 2050 02:01:18 GMT"))
        #expect(HTTPDate.parse("Thu Aug  8 02:01:18 2050") == HTTPDate.parse("Thu, 08 Aug 2050 02:01:18 GMT"))
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 00:00:00 GMT") != nil)
        // Every other shape is not a date (the invalid Expires tests of the public cache-tests suite).
        for invalid in [
            "Thu, 18 Aug 2050 02:01:18 UTC", "Thu, 18 Aug 2050 02:01:18 AEST", "Thu, 18 Aug 50 02:01:18 GMT",
            "Thu 18 Aug 2050 02:01:18 GMT", "Thu, 18  Aug  2050 02:01:18 GMT", "Thu, 18-Aug-2050 02:01:18 GMT",
            "Thu, 18 Aug 2050 02.01.18 GMT", "Thu, 18 Aug 2050 2:01:18 GMT",
            "Thu, 18 Aug 2050 2:01:18 GMT, Thu, 18 Aug 2050 2:01:19 GMT", "Tue, 29 Feb 2100 00:00:00 GMT",
            "Thu, 18 Aug 2050 24:00:00 GMT", "Thu, 18 Aug ２０５０ 02:01:18 GMT",
        ] {
            #expect(HTTPDate.parse(invalid) == nil, "\(invalid)")
        }
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
        let metadata = metadata(
            ["ETag": #"W/"abc""#, "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT"],
            sent: .init(timeIntervalSince1970: 0),
            arrived: .init(timeIntervalSince1970: 0)
        )
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

    private func metadata(_ fields: [String: String], sent: Date, arrived: Date) -> HTTPCacheMetadata {
        HTTPCacheMetadata(
            response: HTTPResponseInfo(url: nil, statusCode: 200, headers: fields),
            requestHeaders: [:],
            requestTime: sent,
            responseTime: arrived
        )
    }

    @Test func freshnessOfMetadata() {
        let now = Date(timeIntervalSince1970: 1_000)
        let fresh = metadata(["cache-control": "max-age=60"], sent: now, arrived: now)
        #expect(fresh.isFresh(now: now.addingTimeInterval(59)))
        #expect(!fresh.isFresh(now: now.addingTimeInterval(60)))
        // RFC 8246: `immutable` spares revalidation while fresh, and only then.
        let immutable = metadata(["cache-control": "max-age=60, immutable"], sent: now, arrived: now)
        #expect(immutable.isFresh(now: now.addingTimeInterval(59)))
        #expect(!immutable.isFresh(now: now.addingTimeInterval(60)))
        #expect(!metadata(["cache-control": "immutable"], sent: now, arrived: now).isFresh(now: now))
        #expect(!metadata(["cache-control": "no-cache, max-age=60"], sent: now, arrived: now).isFresh(now: now))
        #expect(!metadata([:], sent: now, arrived: now).isFresh(now: now))
    }

    @Test func ageIsTheFirstMemberWhenItIsANonNegativeInteger() {
        func age(_ value: String) -> Int? { HTTPCacheHeaders(headers: ["Age": value]).age }
        #expect(age("7200") == 7200)
        #expect(age(" 7200 ") == 7200)
        #expect(age("7200, 0") == 7200)
        #expect(age("007") == 7)
        #expect(age("2147483648") == 1 << 31)
        #expect(age("99999999999999999999999") == 1 << 31, "past 2³¹ counts as 2³¹")
        for invalid in ["-7200", "7200.0", "7200a", "a7200", "", "1e3", "0x10"] {
            #expect(age(invalid) == nil, "\(invalid.debugDescription) is ignored")
        }
    }

    @Test func theCurrentAgeCountsAgeDateAndTheTimeTheRequestTook() {
        let sent = Date(timeIntervalSince1970: 10_000)
        let arrived = sent.addingTimeInterval(2)
        // Age plus the request's 2 s: 1,802 s old on arrival, so fresh for 1,798 s more.
        let aged = metadata(["cache-control": "max-age=3600", "age": "1800"], sent: sent, arrived: arrived)
        #expect(aged.freshUntil == arrived.addingTimeInterval(1_798))
        // A Date 2,000 s before arrival and no Age: the apparent age wins.
        let dated = metadata(
            ["cache-control": "max-age=3600", "date": HTTPDate.format(arrived.addingTimeInterval(-2_000))],
            sent: sent,
            arrived: arrived
        )
        #expect(dated.freshUntil == arrived.addingTimeInterval(1_600))
        // Expires − Date is the lifetime; Age still counts against it.
        let date = HTTPDate.format(arrived)
        let expires = HTTPDate.format(arrived.addingTimeInterval(3_600))
        let expiring = metadata(["date": date, "expires": expires, "age": "3000"], sent: arrived, arrived: arrived)
        #expect(expiring.freshUntil == arrived.addingTimeInterval(600))
        // Older than its lifetime on arrival: stale at once.
        #expect(!metadata(["cache-control": "max-age=60", "age": "120"], sent: sent, arrived: sent).isFresh(now: sent))
    }

    @Test func whenAStaleEntryMayAnswerForAServerThatFails() {
        let now = Date(timeIntervalSince1970: 1_000)
        let plain = metadata(["cache-control": "max-age=10"], sent: now, arrived: now)
        #expect(plain.mayAnswerWhenUnreachable)
        #expect(!plain.mayAnswer(status: 503, now: now.addingTimeInterval(20)), "no stale-if-error: an error stands")
        #expect(
            !metadata(["cache-control": "max-age=10, must-revalidate"], sent: now, arrived: now)
                .mayAnswerWhenUnreachable
        )
        #expect(!metadata(["cache-control": "no-cache"], sent: now, arrived: now).mayAnswerWhenUnreachable)
        let lenient = metadata(["cache-control": "max-age=10, stale-if-error=60"], sent: now, arrived: now)
        #expect(lenient.mayAnswer(status: 503, now: now.addingTimeInterval(70)))
        #expect(!lenient.mayAnswer(status: 503, now: now.addingTimeInterval(71)))
        #expect(!lenient.mayAnswer(status: 404, now: now.addingTimeInterval(20)), "only 500, 502, 503 and 504")
        let strict = metadata(
            ["cache-control": "max-age=10, stale-if-error=60, must-revalidate"],
            sent: now,
            arrived: now
        )
        #expect(!strict.mayAnswer(status: 503, now: now.addingTimeInterval(20)), "must-revalidate wins")
    }
}
