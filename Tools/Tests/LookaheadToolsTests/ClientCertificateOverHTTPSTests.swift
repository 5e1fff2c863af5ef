// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — a client certificate (`DataLoaderOptions.clientCertificate`) presented to an HTTPS server on
// loopback that requires one (mutual TLS), with identities made for the run by openssl.

import Foundation
import Lookahead
import LookaheadFixtures
import Testing

@Suite(.timeLimit(.minutes(2))) struct ClientCertificateOverHTTPSTests {
    private static let image = Data(try! FixtureImages.jpeg(number: 5, width: 32, height: 32))

    @Test func theLibcurlLoaderPresentsTheAppsCertificateWhenTheServerAsks() async throws {
        let app = try await ClientIdentity.make(password: "s3cret pass")
        let stranger = try await ClientIdentity.make(password: "other")
        let server = try await TLSFixture.start(image: Self.image, clientRoot: app.certificate)
        var options = DataLoaderOptions()
        options.trustedCertificates = [server.certificate]

        let without = await TLSFixture.load(server.url("/image"), options: options, transport: .default)
        #expect(
            TLSFixture.tlsFailure(without) != nil,
            "no certificate: the handshake fails: \(String(reflecting: without))"
        )

        options.clientCertificate = ClientCertificate(pkcs12: app.pkcs12, password: app.password)
        let with = await TLSFixture.load(server.url("/image"), options: options, transport: .default)
        #expect((try? with.get()) == Self.image, "\(with)")

        options.clientCertificate = ClientCertificate(pkcs12: stranger.pkcs12, password: stranger.password)
        let unknown = await TLSFixture.load(server.url("/image"), options: options, transport: .default)
        #expect(TLSFixture.tlsFailure(unknown) != nil, "a certificate the server does not trust: \(unknown)")

        await server.stop()
    }

    @Test func anArchiveThatDoesNotOpenFailsBeforeTheHandshake() async throws {
        let app = try await ClientIdentity.make(password: "right")
        // A listener that never answers: libcurl reads the archive after connecting, before sending a byte of TLS.
        let (descriptor, port) = try LoopbackSocket.bind()
        defer { close(descriptor) }
        #expect(listen(descriptor, 4) == 0)
        var options = DataLoaderOptions()
        options.clientCertificate = ClientCertificate(pkcs12: app.pkcs12, password: "wrong")
        let url = URL(string: "https://127.0.0.1:\(port)/image")!
        let locked = await TLSFixture.load(url, options: options, transport: .default)
        #expect(TLSFixture.tlsFailure(locked)?.code == 58, "CURLE_SSL_CERTPROBLEM: \(locked)")
    }
}
