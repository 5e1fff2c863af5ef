// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

/// Why a transfer failed before the server answered: a kind an app can switch on, and the transport's code and message.
public struct TransportFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as an app would act on it.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// No network, or no route to the host: worth retrying when the device is back online.
        case offline
        /// The host name does not resolve.
        case hostNotFound
        /// The host refused the connection: nothing listens there.
        case connectionRefused
        /// The connection broke during the transfer.
        case connectionReset
        /// The TLS handshake failed: an untrusted, expired or mismatched certificate, or no common protocol.
        case tls
        /// The server's answer is not HTTP: an HTTP/0.9 reply, a malformed status line or field.
        case invalidResponse
        /// The system cancelled the transfer (not the app).
        case cancelledBySystem
        /// Anything else the transport reports.
        case other
    }

    public var kind: Kind
    /// The transport's message.
    public var message: String
    /// The transport's own code (libcurl's `CURLcode`, or `URLError.Code`); 0 when there is none.
    public var code: Int
    /// The system's error number (`errno`) of the connection, as libcurl reports it; 0 when there is none.
    public var systemError: Int
    /// The error URLSession reported, when the transfer went through it.
    public var urlError: URLError?

    /// A failure of `kind`, with the transport's message, code, `errno` and `URLError` when it has them.
    public init(kind: Kind, message: String, code: Int = 0, systemError: Int = 0, urlError: URLError? = nil) {
        self.kind = kind
        self.message = message
        self.code = code
        self.systemError = systemError
        self.urlError = urlError
    }

    public var description: String { "\(kind.rawValue): \(message)" }

    /// A libcurl failure: its `CURLcode`, and the connection's `errno` to tell an unreachable network from a refusal.
    init(curlCode: Int, systemError: Int, message: String) {
        let kind: Kind =
            switch curlCode {
            case 5, 6: .hostNotFound  // CURLE_COULDNT_RESOLVE_PROXY, _HOST
            // CURLE_COULDNT_CONNECT: ENETDOWN, ENETUNREACH or EHOSTUNREACH is offline, anything else refused
            case 7: [100, 101, 113].contains(systemError) ? .offline : .connectionRefused
            case 35, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91: .tls  // CURLE_SSL_*, _PEER_FAILED_VERIFICATION
            // CURLE_RECV_ERROR carrying a TLS alert: under TLS 1.3 a server refuses a client certificate only after
            // the handshake, on the first read (OpenSSL: "tlsv13 alert certificate required", "alert unknown ca").
            case 56 where message.contains(" alert "): .tls
            case 18, 52, 55, 56: .connectionReset  // CURLE_PARTIAL_FILE, _GOT_NOTHING, _SEND_ERROR, _RECV_ERROR
            // CURLE_UNSUPPORTED_PROTOCOL (the scheme was checked before: an HTTP/0.9 reply), _WEIRD_SERVER_REPLY
            case 1, 8: .invalidResponse
            default: .other
            }
        self.init(kind: kind, message: message, code: curlCode, systemError: systemError)
    }

    /// A URLSession failure.
    init(_ urlError: URLError) {
        let kind: Kind =
            switch urlError.code {
            case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff, .callIsActive: .offline
            case .cannotFindHost, .dnsLookupFailed: .hostNotFound
            case .cannotConnectToHost: .connectionRefused
            case .networkConnectionLost: .connectionReset
            case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
                .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
                .clientCertificateRequired, .appTransportSecurityRequiresSecureConnection:
                .tls
            case .badServerResponse, .cannotParseResponse: .invalidResponse
            case .cancelled, .backgroundSessionWasDisconnected: .cancelledBySystem
            default: .other
            }
        self.init(kind: kind, message: urlError.localizedDescription, code: urlError.code.rawValue, urlError: urlError)
    }
}
