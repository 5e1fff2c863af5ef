// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — the web benchmark's origin: Debian's nginx serving the photos over HTTPS, with a certificate
// made for the run.

import Foundation

/// An nginx process serving ``WebOriginFiles`` over HTTPS: HTTP/2 and HTTP/1.1 on one port (ALPN chooses), HTTP/1.1
/// alone on another. Below `/photos/` every request gets the JPEG; below `/negotiated/` the `Accept` header chooses
/// the AVIF, the WebP or the JPEG copy (`Vary: Accept`). The access log records, per request, the connection's
/// serial number and whether its TLS session was resumed, for the connection counts.
final class NginxOrigin: Sendable {
    /// The run's folder: configuration, certificate, key, logs.
    let folder: URL
    /// The certificate (PEM) the client trusts: made for this run, valid for `address`.
    let certificate: Data
    /// The address nginx listens on.
    let address: String
    /// The port serving HTTP/2 and HTTP/1.1, and the one serving HTTP/1.1 only.
    let http2Port: Int
    let http1Port: Int
    private let process: Process

    private init(folder: URL, certificate: Data, address: String, ports: (Int, Int), process: Process) {
        self.folder = folder
        self.certificate = certificate
        self.address = address
        (http2Port, http1Port) = ports
        self.process = process
    }

    /// The nginx executable, where Debian installs it.
    static var executable: String? {
        ["/usr/sbin/nginx", which("nginx")].compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The base URL of the origin for an HTTP version (`https://address:port`).
    func baseURL(http: WebHTTPVersion) -> String {
        "https://\(address):\(http == .http2 ? http2Port : http1Port)"
    }

    /// Makes a certificate and a configuration in `folder` and starts nginx, in the network namespace `namespace`
    /// when one is given; returns once it accepts connections.
    static func start(
        files: WebOriginFiles,
        folder: URL,
        address: String,
        ports: (Int, Int),
        namespace: String?
    ) async throws -> NginxOrigin {
        guard let nginx = executable else {
            throw BenchFailure(description: "nginx is not installed (scripts/bench installs Debian's nginx)")
        }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("temp"),
            withIntermediateDirectories: true
        )
        let certificate = try makeCertificate(in: folder, address: address)
        let configuration = configurationText(files: files, folder: folder, address: address, ports: ports)
        let configurationFile = folder.appendingPathComponent("nginx.conf")
        try configuration.write(to: configurationFile, atomically: true, encoding: .utf8)
        let process = Process()
        let arguments = [nginx, "-p", folder.path, "-c", configurationFile.path, "-e", folder.path + "/error.log"]
        if let namespace {
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
            process.arguments = ["netns", "exec", namespace] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: nginx)
            process.arguments = Array(arguments.dropFirst())
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let origin = NginxOrigin(
            folder: folder,
            certificate: certificate,
            address: address,
            ports: ports,
            process: process
        )
        try await origin.waitUntilListening(namespace: namespace)
        return origin
    }

    /// Waits until the error log says nothing failed and the pid file exists, for at most 5 s.
    private func waitUntilListening(namespace: String?) async throws {
        let pidFile = folder.appendingPathComponent("nginx.pid").path
        for _ in 0..<100 {
            if !process.isRunning {
                let log = (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
                throw BenchFailure(description: "nginx exited at start: \(log.suffix(600))")
            }
            if FileManager.default.fileExists(atPath: pidFile) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        stop()
        throw BenchFailure(description: "nginx did not start within 5 s; see \(folder.path)/error.log")
    }

    /// Stops nginx (a fast shutdown: SIGTERM to the master, which ends its workers) and waits for it.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    /// The access log's length now: ``connections(since:)`` reads what was logged after it.
    func logOffset() -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: accessLog.path)
        return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }

    private var accessLog: URL { folder.appendingPathComponent("access.log") }

    /// What the access log says about the requests logged after `offset`.
    func connections(since offset: Int) -> WebConnectionCount {
        guard let handle = try? FileHandle(forReadingFrom: accessLog) else { return WebConnectionCount() }
        defer { try? handle.close() }
        try? handle.seek(toOffset: UInt64(offset))
        let text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        return WebConnectionCount(logLines: text.split(separator: "\n"))
    }

    // MARK: - Set-up

    /// An ECDSA P-256 certificate for `address`, self-signed, valid for a day, made with openssl.
    private static func makeCertificate(in folder: URL, address: String) throws -> Data {
        guard let openssl = which("openssl") else { throw BenchFailure(description: "openssl is not installed") }
        let certificate = folder.appendingPathComponent("cert.pem")
        try runCommand(
            openssl,
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", folder.appendingPathComponent("key.pem").path, "-out", certificate.path, "-days", "1",
                "-subj", "/CN=lookahead-web-origin", "-addext", "subjectAltName=IP:\(address)",
            ]
        )
        return try Data(contentsOf: certificate)
    }

    /// nginx's configuration: one worker, TLS 1.2 and 1.3, the two ports, the plain and the negotiating paths.
    private static func configurationText(files: WebOriginFiles, folder: URL, address: String, ports: (Int, Int))
        -> String
    {
        let path = folder.path
        let temp = path + "/temp"
        let tls = """
                    ssl_certificate \(path)/cert.pem;
                    ssl_certificate_key \(path)/key.pem;
                    ssl_protocols TLSv1.2 TLSv1.3;
                    root \(files.root.path);
                    location /photos/ { }
                    location /negotiated/ {
                        alias \(files.root.path)/photos/;
                        add_header Vary Accept;
                        try_files $uri$variant $uri =404;
                    }
            """
        return """
            daemon off;
            worker_processes 1;
            pid \(path)/nginx.pid;
            error_log \(path)/error.log warn;
            events { worker_connections 1024; }
            http {
                types { image/jpeg jpg; image/webp webp; image/avif avif; }
                default_type application/octet-stream;
                client_body_temp_path \(temp); proxy_temp_path \(temp); fastcgi_temp_path \(temp);
                uwsgi_temp_path \(temp); scgi_temp_path \(temp);
                log_format web '$connection $connection_requests $ssl_session_reused $server_protocol $status '
                               '$body_bytes_sent $request_uri';
                access_log \(path)/access.log web;
                sendfile on;
                tcp_nopush on;
                keepalive_timeout 300s;
                keepalive_requests 100000;
                map $http_accept $variant {
                    ~image/avif .avif;
                    ~image/webp .webp;
                    default "";
                }
                server {
                    listen \(address):\(ports.0) ssl http2;
            \(tls)
                }
                server {
                    listen \(address):\(ports.1) ssl;
            \(tls)
                }
            }

            """
    }
}

/// The HTTP version a web benchmark's client is offered.
enum WebHTTPVersion: String, CaseIterable, Sendable {
    case http1 = "1.1"
    case http2 = "2"
}

/// Connections, TLS handshakes and requests, from nginx's access log.
struct WebConnectionCount: Equatable {
    var connections = 0
    /// Handshakes that resumed an earlier TLS session (abbreviated ones); the rest were full.
    var resumedHandshakes = 0
    var requests = 0
    /// The protocols the requests came over (`HTTP/2.0`, `HTTP/1.1`).
    var protocols: Set<String> = []

    init() {}

    /// From the lines of the `web` log format: connection, its request number, `r` or `.` (resumed), protocol, …
    init(logLines: [Substring]) {
        var seen: Set<Substring> = []
        for line in logLines {
            let fields = line.split(separator: " ")
            guard fields.count >= 4 else { continue }
            requests += 1
            protocols.insert(String(fields[3]))
            if seen.insert(fields[0]).inserted {
                connections += 1
                if fields[2] == "r" { resumedHandshakes += 1 }
            }
        }
    }
}
