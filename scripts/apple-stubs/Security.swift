// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Interface stub of Security for scripts/apple-typecheck: only what Lookahead calls, from Apple's documented
// declarations (SecTrust, SecCertificate, SecIdentity, SecPKCS12Import), and the members FoundationNetworking lacks
// (`URLProtectionSpace.serverTrust`, `URLCredential(trust:)`, `URLCredential(identity:…)`), which Foundation declares
// on Apple platforms.
// Approximations: CoreGraphics' stub stands for CoreFoundation, which Security re-exports (CFData is its alias of
// NSData); CFArray and CFError are Foundation's bridged classes.
// Bodies never run.
@_exported public import CoreGraphics
public import Foundation
public import FoundationNetworking

public typealias CFArray = NSArray
public typealias CFError = NSError
public final class SecTrust {}
public final class SecCertificate {}

public func SecCertificateCreateWithData(_ allocator: AnyObject?, _ data: CFData) -> SecCertificate? { fatalError() }
public func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData { fatalError() }
public func SecTrustSetAnchorCertificates(_ trust: SecTrust, _ anchorCertificates: CFArray) -> Int32 { fatalError() }
public func SecTrustSetAnchorCertificatesOnly(_ trust: SecTrust, _ anchorCertificatesOnly: Bool) -> Int32 {
    fatalError()
}
public func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool {
    fatalError()
}
public func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray? { fatalError() }

extension URLProtectionSpace {
    public var serverTrust: SecTrust? { fatalError() }
}

extension URLCredential {
    public convenience init(trust: SecTrust) { fatalError() }
    public convenience init(identity: SecIdentity, certificates: [Any]?, persistence: URLCredential.Persistence) {
        fatalError()
    }
}

public typealias OSStatus = Int32
public typealias CFDictionary = NSDictionary
public typealias CFString = NSString
public final class SecIdentity {}
public let errSecSuccess: OSStatus = 0
public var kSecImportExportPassphrase: CFString { fatalError() }
public var kSecImportItemIdentity: CFString { fatalError() }
public func SecPKCS12Import(_ pkcs12Data: CFData, _ options: CFDictionary, _ items: UnsafeMutablePointer<CFArray?>)
    -> OSStatus
{ fatalError() }
