// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — public-key pins (`DataLoaderOptions.pinnedPublicKeyHashes`) against an HTTPS server on
// loopback whose certificate is made for the run: the right pin loads, another is a TLS failure.

import Foundation
import Lookahead
import LookaheadFixtures
import Testing

@Suite(.timeLimit(.minutes(2))) struct PinnedKeysOverHTTPSTests {
    private static let image = Data(try! FixtureImages.jpeg(number: 4, width: 32, height: 32))
    /// A well-formed pin no certificate of this run carries.
    private static let otherPin = Data(repeating: 7, count: 32).base64EncodedString()

    /// The pin of a PEM certificate, as `openssl` computes it.
    private static func pin(of certificate: Data) async throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lookahead-pin-\(UUID().uuidString)")
        try certificate.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script =
            "openssl x509 -in \"$0\" -pubkey -noout | openssl pkey -pubin -outform der"
            + " | openssl dgst -sha256 -binary | base64"
        let run = try await runProgram(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script, file.path])
        #expect(run.status == 0, "\(run.errors)")
        return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func theLibcurlLoaderLoadsOnlyFromAServerWithAPinnedKey() async throws {
        let server = try await TLSFixture.start(image: Self.image)
        var options = DataLoaderOptions()
        options.trustedCertificates = [server.certificate]
        options.pinnedPublicKeyHashes = [try await Self.pin(of: server.certificate), Self.otherPin]
        let pinned = await TLSFixture.load(server.url("/image"), options: options, transport: .default)
        #expect((try? pinned.get()) == Self.image, "\(pinned)")

        options.pinnedPublicKeyHashes = [Self.otherPin]
        let other = await TLSFixture.load(server.url("/image"), options: options, transport: .default)
        #expect(TLSFixture.tlsFailure(other)?.code == 90, "CURLE_SSL_PINNEDPUBKEYNOTMATCH: \(other)")
        await server.stop()
    }

    @Test func foundationNetworkingCannotCheckPinsSoItSendsNothingOverHTTPS() async throws {
        let server = try await TLSFixture.start(image: Self.image)
        var options = DataLoaderOptions()
        options.trustedCertificates = [server.certificate]
        options.pinnedPublicKeyHashes = [try await Self.pin(of: server.certificate)]
        let refused = await TLSFixture.load(server.url("/image"), options: options, transport: .urlSession)
        #expect(TLSFixture.tlsFailure(refused)?.message.contains("FoundationNetworking") == true, "\(refused)")
        await server.stop()

        // Plain HTTP carries no certificate: pins do not apply to it.
        let plain = try await FixtureServer.start()
        let url = plain.imageURL(1, width: 16, height: 16)
        let loaded = await TLSFixture.load(url, options: options, transport: .urlSession)
        #expect((try? loaded.get())?.isEmpty == false, "\(loaded)")
        #expect(plain.requestCount(forPath: url.path) == 1)
        await plain.stop()
    }
}
