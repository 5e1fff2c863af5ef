// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(Security)
import Foundation
import Security

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How ``URLSessionDataLoader`` judges a server's certificate on Apple platforms: the system's evaluation with the
/// app's ``DataLoaderOptions/trustedCertificates`` added as anchors, then the pins (``PublicKeyPins``).
enum ServerTrust {
    /// `nil` when the server is trusted, else the failure to report.
    static func evaluate(_ trust: SecTrust, options: DataLoaderOptions) -> TransportFailure? {
        let anchors = options.trustedCertificates.flatMap(PublicKeyPins.certificates(pem:)).compactMap {
            SecCertificateCreateWithData(nil, Data($0) as CFData)
        }
        if !anchors.isEmpty {
            _ = SecTrustSetAnchorCertificates(trust, anchors as CFArray)
            _ = SecTrustSetAnchorCertificatesOnly(trust, false)  // the system's roots stay trusted
        }
        var error: CFError?
        guard SecTrustEvaluateWithError(trust, &error) else {
            return TransportFailure(kind: .tls, message: "untrusted certificate: \(error.map { "\($0)" } ?? "")")
        }
        guard !options.pinnedPublicKeyHashes.isEmpty else { return nil }
        let leaf = (SecTrustCopyCertificateChain(trust) as? [SecCertificate])?.first
        let der = leaf.map { [UInt8](SecCertificateCopyData($0) as Data) } ?? []
        guard PublicKeyPins.matches(certificate: der, pins: options.pinnedPublicKeyHashes) else {
            return TransportFailure(kind: .tls, message: "the server's certificate carries no pinned public key")
        }
        return nil
    }

    /// The credential that presents the app's client certificate: the archive's identity, or `nil` when the archive
    /// does not open with its password.
    static func credential(for client: ClientCertificate) -> URLCredential? {
        var items: CFArray?
        let options = [kSecImportExportPassphrase as String: client.password] as CFDictionary
        guard SecPKCS12Import(client.pkcs12 as CFData, options, &items) == errSecSuccess,
            let entry = (items as? [[String: Any]])?.first,
            let identity = entry[kSecImportItemIdentity as String]
        else { return nil }
        // Security documents the value of `kSecImportItemIdentity` as a SecIdentity.
        return URLCredential(identity: identity as! SecIdentity, certificates: nil, persistence: .forSession)
    }
}
#endif
