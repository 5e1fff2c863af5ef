// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — header fields that would split a request on the wire are refused before any connection.

import Foundation
import Testing

@testable import Lookahead

@Suite struct HeaderFieldsTests {
    /// Nothing listens on port 9 of the loopback: a loader that connected would fail as refused, not as invalid.
    private let closedPort = URL(string: "http://127.0.0.1:9/image.jpg")!

    private static let splitting: [(name: String, value: String)] = [
        ("X-Note", "hello\r\nX-Injected: 1"),
        ("X-Note", "hello\nX-Injected: 1"),
        ("X-Note", "hello\rX-Injected: 1"),
        ("X-Note", "a\u{0}b"),
        ("X-Note", "a\u{7F}b"),
        ("X-Note: a\r\nX-Injected", "1"),
        ("X Note", "a"),
        ("X-Note:", "a"),
        ("", "a"),
        ("Ünïcode", "a"),
    ]

    @Test func namesAreTokensAndValuesHoldNoControlCharacter() {
        for (name, value) in Self.splitting {
            #expect(throws: DataLoadingError.invalidHeaderField(name: name), "\(name.debugDescription): \(value)") {
                try HeaderFields.check([name: value])
            }
        }
        let usual = [
            "Authorization": "Bearer abc.def-ghi_jkl~",
            "Accept": "image/avif,image/webp;q=0.9, */*;q=0.5",
            "X-Tabbed": "a\tb",
            "X-Note": "caf\u{E9} \u{1F600}",
            "!#$%&'*+-.^_`|~": "",
        ]
        #expect(throws: Never.self) { try HeaderFields.check(usual) }
    }

    @Test(arguments: [false, true])
    func bothLoadersRefuseARequestFieldBeforeConnecting(usesURLSession: Bool) async {
        let loader: any DataLoading = usesURLSession ? URLSessionDataLoader() : DefaultDataLoader()
        var request = DataLoadRequest(url: closedPort)
        request.headers = ["X-Note": "hello\r\nX-Injected: 1"]
        await #expect(throws: DataLoadingError.invalidHeaderField(name: "X-Note")) {
            _ = try await loader.loadData(for: request)
        }
    }

    @Test(arguments: [false, true])
    func bothLoadersRefuseTheirOwnFieldsToo(usesURLSession: Bool) async {
        var options = DataLoaderOptions()
        options.headers = ["X-App\r\nX-Injected": "1"]
        let loader: any DataLoading =
            usesURLSession ? URLSessionDataLoader(options: options) : DefaultDataLoader(options: options)
        await #expect(throws: DataLoadingError.invalidHeaderField(name: "X-App\r\nX-Injected")) {
            _ = try await loader.loadData(for: DataLoadRequest(url: closedPort))
        }
        options.headers = [:]
        options.userAgent = "App/1.0\r\nX-Injected: 1"
        let agent: any DataLoading =
            usesURLSession ? URLSessionDataLoader(options: options) : DefaultDataLoader(options: options)
        await #expect(throws: DataLoadingError.invalidHeaderField(name: "User-Agent")) {
            _ = try await agent.loadData(for: DataLoadRequest(url: closedPort))
        }
    }

    @Test func thePipelineFailsWithTheFieldAndDoesNotBackOff() async throws {
        let pipeline = ImagePipeline {
            $0.dataLoader = DefaultDataLoader()
            $0.diskCache = nil
        }
        var request = ImageRequest(url: closedPort)
        request.headers = ["X-Note": "hello\r\nX-Injected: 1"]
        do {
            _ = try await pipeline.image(for: request)
            Issue.record("expected a failure")
        } catch .dataLoadingFailed(let error as DataLoadingError) {
            #expect(error == .invalidHeaderField(name: "X-Note"))
        } catch {
            Issue.record("expected an invalid header field, got \(error)")
        }
        #expect(pipeline.failureBackoffError(for: request) == nil, "nothing reached the network")
    }

    @Test func aModifierCannotAddAFieldThatSplitsTheRequest() async throws {
        let pipeline = ImagePipeline {
            $0.dataLoader = DefaultDataLoader()
            $0.diskCache = nil
            $0.requestModifier = { request in
                var request = request
                request.headers["Authorization"] = "Bearer token\r\nX-Injected: 1"
                return request
            }
        }
        do {
            _ = try await pipeline.image(for: ImageRequest(url: closedPort))
            Issue.record("expected a failure")
        } catch .dataLoadingFailed(let error as DataLoadingError) {
            #expect(error == .invalidHeaderField(name: "Authorization"))
        } catch {
            Issue.record("expected an invalid header field, got \(error)")
        }
    }

    // MARK: - Fields a server sends

    @Test func aServersFieldsReachTheAppWithoutLineBreaksOrInvalidNames() {
        let sent = [
            "X-A": "a\rX-Injected: 1", "X-B": "a\u{0}b\nc", "Bad Name": "x", "Set-Cookie:": "y", "ETag": "\"v\"",
            "X-Tab": "a\tb",
        ]
        let info = HTTPResponseInfo(url: nil, statusCode: 200, headers: sent)
        #expect(info.headers == ["x-a": "a X-Injected: 1", "x-b": "a b c", "etag": "\"v\"", "x-tab": "a\tb"])
    }

    @Test func responseLinesAreReadStrictly() {
        func line(_ text: String) -> HeaderFields.ResponseLine {
            Array(text.utf8).withUnsafeBufferPointer(HeaderFields.responseLine)
        }
        #expect(line("HTTP/1.1 200 OK\r\n") == .status(200))
        #expect(line("HTTP/2 204\r\n") == .status(204))
        #expect(line("HTTP/1.1 +12 OK\r\n") == .status(0), "a status code is three digits")
        #expect(line("HTTP/1.1 2000 OK\r\n") == .status(0))
        #expect(line("\r\n") == .end)
        #expect(line("Content-Type: \t image/jpeg \r\n") == .field(name: "Content-Type", value: "image/jpeg"))
        #expect(line("X-A: a\rb\r\n") == .field(name: "X-A", value: "a\rb"), "a bare CR stays for the sanitiser")
        #expect(line(" folded\r\n") == .other)
    }
}
