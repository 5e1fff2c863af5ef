// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — LoopbackSocket: a TCP socket bound to a free port of 127.0.0.1.

import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket bound to a free port of 127.0.0.1, not yet listening: a server listens on it; a test that keeps it
/// bound and never listens holds a port where every connection is refused.
public enum LoopbackSocket {
    /// Binds a new socket; the caller closes the descriptor.
    public static func bind() throws -> (descriptor: Int32, port: Int) {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw FixtureServer.Error.startFailed(reason: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let isBound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard isBound else {
            close(descriptor)
            throw FixtureServer.Error.startFailed(reason: "bind on 127.0.0.1: errno \(errno)")
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }
}
