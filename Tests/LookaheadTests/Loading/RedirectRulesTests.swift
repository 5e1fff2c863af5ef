// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the redirect rules both default loaders apply: schemes, the count limit, loops, and the
// header fields each hop may carry.

import Foundation
import Testing

@testable import Lookahead

@Suite struct RedirectRulesTests {
    private let start = URL(string: "https://example.com/a.jpg")!

    private func makeRules(
        from url: URL,
        maximumRedirects: Int,
        allowsInsecureRedirects: Bool = false,
        sensitiveFields: Set<String> = []
    ) -> RedirectRules {
        var options = DataLoaderOptions()
        options.maximumRedirects = maximumRedirects
        options.allowsInsecureRedirects = allowsInsecureRedirects
        options.sensitiveHeaderFields = sensitiveFields
        return RedirectRules(from: url, options: options)
    }

    @Test func followsHTTPAndHTTPSUpToTheLimit() {
        var rules = makeRules(from: URL(string: "http://example.com/a.jpg")!, maximumRedirects: 2)
        #expect(rules.accept(URL(string: "http://example.com/b.jpg")!) == nil)
        #expect(rules.accept(URL(string: "HTTPS://cdn.example.com/c.jpg")!) == nil)
        #expect(rules.count == 2)
        #expect(rules.accept(URL(string: "https://example.com/d.jpg")!) == .tooManyRedirects(limit: 2))
    }

    @Test func refusesOtherSchemesWithoutCountingThem() {
        var rules = makeRules(from: start, maximumRedirects: 1)
        #expect(rules.accept(URL(string: "file:///etc/passwd")!) == .unsupportedScheme("file"))
        #expect(rules.accept(URL(string: "ftp://example.com/a.jpg")!) == .unsupportedScheme("ftp"))
        #expect(rules.count == 0)
        #expect(rules.accept(URL(string: "https://example.com/b.jpg")!) == nil)
    }

    @Test func refusesAURLAlreadyVisitedTheStartIncluded() {
        var rules = makeRules(from: start, maximumRedirects: 5)
        #expect(rules.accept(start) == .redirectLoop(start))
        var other = makeRules(from: start, maximumRedirects: 5)
        let next = URL(string: "https://example.com/b.jpg")!
        #expect(other.accept(next) == nil)
        #expect(other.accept(next) == .redirectLoop(next))
    }

    @Test func httpsNeverRedirectsToHTTPUnlessAllowed() {
        let plain = URL(string: "http://example.com/b.jpg")!
        var rules = makeRules(from: start, maximumRedirects: 5)
        #expect(rules.accept(plain) == .insecureRedirect(plain))
        #expect(rules.count == 0)
        var later = makeRules(from: start, maximumRedirects: 5)
        #expect(later.accept(URL(string: "https://cdn.example.com/b.jpg")!) == nil)
        #expect(later.accept(plain) == .insecureRedirect(plain), "from any https hop of the chain")
        var allowed = makeRules(from: start, maximumRedirects: 5, allowsInsecureRedirects: true)
        #expect(allowed.accept(plain) == nil)
    }

    @Test func credentialsStayOnTheirOrigin() {
        let rules = makeRules(from: URL(string: "http://127.0.0.1:8080/a.jpg")!, maximumRedirects: 5)
        #expect(!rules.leavesOrigin(URL(string: "http://127.0.0.1:8080/b.jpg")!))
        #expect(rules.leavesOrigin(URL(string: "http://localhost:8080/b.jpg")!))
        #expect(rules.leavesOrigin(URL(string: "http://127.0.0.1:8081/b.jpg")!))
        #expect(rules.leavesOrigin(URL(string: "https://127.0.0.1:8080/b.jpg")!))
    }

    @Test func sensitiveFieldsGoOnlyToTheOriginTheAppsOwnIncluded() {
        let rules = makeRules(
            from: URL(string: "https://api.example.com/a.jpg")!,
            maximumRedirects: 5,
            sensitiveFields: ["X-Api-KEY"]
        )
        let fields = [
            "AUTHORIZATION": "Bearer t", "cookie": "s=1", "Proxy-Authorization": "Basic x", "x-api-key": "k",
            "X-Note": "n",
        ]
        #expect(rules.fields(fields, forwardedTo: URL(string: "https://api.example.com:443/b.jpg")!) == fields)
        let elsewhere = [
            "https://cdn.example.com/b.jpg", "http://api.example.com/b.jpg", "https://api.example.com:8443/b.jpg",
        ]
        for target in elsewhere {
            #expect(rules.fields(fields, forwardedTo: URL(string: target)!) == ["X-Note": "n"], "\(target)")
        }
        #expect(!rules.mayForward("Proxy-Authorization", to: URL(string: "https://cdn.example.com/b.jpg")!))
        #expect(rules.mayForward("X-Note", to: URL(string: "https://cdn.example.com/b.jpg")!))
    }

    @Test func zeroRedirectsAllowsNone() {
        var rules = makeRules(from: start, maximumRedirects: 0)
        #expect(rules.accept(URL(string: "https://example.com/b.jpg")!) == .tooManyRedirects(limit: 0))
    }
}
