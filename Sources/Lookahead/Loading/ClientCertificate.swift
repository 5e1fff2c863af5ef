// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// A certificate and its private key that identify the app to a server that asks for one (mutual TLS), as a PKCS #12
/// archive: a `.p12` file, as `openssl pkcs12 -export` or Keychain Access writes it.
public struct ClientCertificate: Sendable, Hashable {
    /// The archive: the certificate, its private key and any intermediate certificates.
    public var pkcs12: Data
    /// The archive's password.
    public var password: String

    /// Creates a client certificate from a PKCS #12 archive and its password.
    public init(pkcs12: Data, password: String) {
        self.pkcs12 = pkcs12
        self.password = password
    }

    /// The protection space's authentication method when a server asks for a client certificate: the value of
    /// Foundation's `NSURLAuthenticationMethodClientCertificate`, which FoundationNetworking does not offer.
    static let authenticationMethod = "NSURLAuthenticationMethodClientCertificate"
}
