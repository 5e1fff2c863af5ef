// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead fixtures — RawHTTPResponder: a TCP server on loopback that answers with bytes written verbatim, for the
// responses no HTTP server library will write (a CR inside a field, a reply with no status line).

import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Answers each request on 127.0.0.1 with the bytes of the first route whose path prefix matches the request's
/// target, then closes the connection (404 when none matches). Every socket call blocks on threads of the
/// responder's own, never on the cooperative pool; the request heads it read are kept for tests to inspect.
///
/// ```swift
/// let responder = try RawHTTPResponder.start(routes: [("/raw/http09", Array("no status line".utf8))])
/// defer { responder.stop() }
/// let url = responder.url("/raw/http09")
/// ```
public final class RawHTTPResponder: Sendable {
    /// The port it listens on.
    public let port: Int
    private let listener: Int32
    private let routes: [(prefix: String, response: [UInt8])]
    private let state = Mutex<(heads: [String], open: Set<Int32>, isStopped: Bool)>(([], [], false))

    private init(listener: Int32, port: Int, routes: [(prefix: String, response: [UInt8])]) {
        self.listener = listener
        self.port = port
        self.routes = routes
    }

    /// Starts listening on a free port of 127.0.0.1, answering with `routes`, first match first.
    public static func start(routes: [(prefix: String, response: [UInt8])]) throws -> RawHTTPResponder {
        let (descriptor, port) = try LoopbackSocket.bind()
        guard listen(descriptor, 64) == 0 else {
            close(descriptor)
            throw FixtureServer.Error.startFailed(reason: "listen on 127.0.0.1: errno \(errno)")
        }
        let responder = RawHTTPResponder(
            listener: descriptor,
            port: port,
            routes: routes
        )
        Thread { responder.acceptConnections() }.start()
        return responder
    }

    /// `http://127.0.0.1:PORT` and `path`.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// The heads of the requests read so far (request line and fields, CR LF as sent), in order of arrival.
    public var requestHeads: [String] { state.withLock { $0.heads } }

    /// Stops listening and ends every open connection.
    public func stop() {
        let open = state.withLock { state -> Set<Int32> in
            state.isStopped = true
            return state.open
        }
        shutdown(listener, Int32(SHUT_RDWR))
        for descriptor in open { shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    deinit { close(listener) }

    private func acceptConnections() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return  // shut down by stop()
            }
            let isStopped = state.withLock { state in
                if !state.isStopped { state.open.insert(connection) }
                return state.isStopped
            }
            if isStopped {
                close(connection)
                return
            }
            Thread { self.answer(connection) }.start()
        }
    }

    /// Reads one request head, writes the matching response, then closes once the client has.
    private func answer(_ connection: Int32) {
        defer {
            state.withLock { _ = $0.open.remove(connection) }
            close(connection)
        }
        guard let head = Self.readHead(connection) else { return }
        state.withLock { $0.heads.append(head) }
        let target = head.split(separator: " ", maxSplits: 2).dropFirst().first.map(String.init) ?? "/"
        let response =
            routes.first { target.hasPrefix($0.prefix) }?.response
            ?? Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
        Self.send(response, to: connection)
        // Half-close, then wait for the client to close: closing with its bytes unread would reset the connection
        // before it read the response.
        shutdown(connection, Int32(SHUT_WR))
        var scratch = [UInt8](repeating: 0, count: 4096)
        while scratch.withUnsafeMutableBytes({ recv(connection, $0.baseAddress, $0.count, 0) }) > 0 {}
    }

    /// The bytes up to the empty line ending a request head (at most 64 KiB); `nil` when the client leaves first.
    private static func readHead(_ connection: Int32) -> String? {
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while head.count < 64 << 10 {
            guard recv(connection, &byte, 1, 0) == 1 else { return nil }
            head.append(byte)
            if head.count >= 4, head.suffix(4).elementsEqual([13, 10, 13, 10]) { break }
        }
        return String(decoding: head, as: UTF8.self)
    }

    private static func send(_ bytes: [UInt8], to connection: Int32) {
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)  // a client gone must not raise SIGPIPE in the test process
        #else
        var on: Int32 = 1
        setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        let flags: Int32 = 0
        #endif
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Foundation.send(connection, $0.baseAddress! + offset, $0.count - offset, flags)
            }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { return }
            offset += sent
        }
    }
}
