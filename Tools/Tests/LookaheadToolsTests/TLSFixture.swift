// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — an HTTPS server on loopback with a self-signed certificate made for the run.

import Foundation
import Hummingbird
import HummingbirdTLS
import Lookahead
import LookaheadFixtures
import Testing

/// A Hummingbird server over TLS on 127.0.0.1, whose certificate (for `127.0.0.1` and `localhost`) is made by
/// `openssl req` for this run only: no client trusts it unless told to.
///
/// Routes: `/image` answers `image` (a JPEG the test hands over); `/to?location=` redirects to any location. With
/// `clientRoot`, the handshake requires a client certificate issued by it (mutual TLS).
struct TLSFixture {
    let baseURL: URL
    /// The certificate, PEM: what a client trusts to load from this server.
    let certificate: Data
    private let task: Task<Void, any Error>

    static func start(image: Data, clientRoot: Data? = nil) async throws -> TLSFixture {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lookahead-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let certificatePath = folder.appendingPathComponent("cert.pem").path
        let keyPath = folder.appendingPathComponent("key.pem").path
        let openssl = try await runProgram(
            URL(fileURLWithPath: "/usr/bin/openssl"),
            arguments: [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
                "-keyout", keyPath, "-out", certificatePath,
            ]
        )
        guard openssl.status == 0 else { throw FixtureFailure(message: "openssl req failed: \(openssl.errors)") }
        var tls = try TLSConfiguration.makeServerConfiguration(
            certificateChain: NIOSSLCertificate.fromPEMFile(certificatePath).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: keyPath, format: .pem))
        )
        if let clientRoot {
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes([UInt8](clientRoot)))
        }
        let router = Router()
        router.get("/image") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "image/jpeg"],
                body: .init(byteBuffer: ByteBuffer(bytes: image))
            )
        }
        router.get("/to") { request, _ in
            Response(status: .found, headers: [.location: request.uri.queryParameters.get("location") ?? "/"])
        }
        let port = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router,
            server: try .tls(.http1(), tlsConfiguration: tls),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                port.continuation.yield(channel.localAddress?.port ?? 0)
                port.continuation.finish()
            }
        )
        let task = Task { try await app.runService() }
        var iterator = port.stream.makeAsyncIterator()
        guard let bound = await iterator.next(), bound > 0 else {
            task.cancel()
            throw FixtureFailure(message: "the TLS fixture did not start")
        }
        return TLSFixture(
            baseURL: URL(string: "https://127.0.0.1:\(bound)")!,
            certificate: try Data(contentsOf: URL(fileURLWithPath: certificatePath)),
            task: task
        )
    }

    func url(_ path: String) -> URL { URL(string: path, relativeTo: baseURL)!.absoluteURL }

    /// Loads `url` through a loader of `transport` with `options`: the body, or the error.
    static func load(_ url: URL, options: DataLoaderOptions, transport: Transport) async -> Result<Data, any Error> {
        let loader = transport.makeLoader(options: options)
        do {
            return .success(try await loader.loadData(for: DataLoadRequest(url: url)).data)
        } catch {
            return .failure(error)
        }
    }

    /// The failure of kind `tls` a load ended with, if it ended with one.
    static func tlsFailure(_ result: Result<Data, any Error>) -> TransportFailure? {
        guard case .failure(DataLoadingError.transportFailed(let failure)) = result, failure.kind == .tls else {
            return nil
        }
        return failure
    }

    func stop() async {
        task.cancel()
        _ = await task.result
    }
}

/// A client identity made by `openssl` for one run: its certificate (PEM), which a server trusts, and a PKCS #12
/// archive of it with its key, locked by `password`.
struct ClientIdentity {
    let certificate: Data
    let pkcs12: Data
    let password: String

    static func make(password: String) async throws -> ClientIdentity {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lookahead-id-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = """
            cd "$0" && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \\
              -subj /CN=lookahead-client -keyout key.pem -out cert.pem \\
            && openssl pkcs12 -export -inkey key.pem -in cert.pem -out id.p12 -passout "pass:$1"
            """
        let run = try await runProgram(
            URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", script, folder.path, password]
        )
        guard run.status == 0 else { throw FixtureFailure(message: "openssl failed: \(run.errors)") }
        return ClientIdentity(
            certificate: try Data(contentsOf: folder.appendingPathComponent("cert.pem")),
            pkcs12: try Data(contentsOf: folder.appendingPathComponent("id.p12")),
            password: password
        )
    }
}

struct FixtureFailure: Error {
    let message: String
}
