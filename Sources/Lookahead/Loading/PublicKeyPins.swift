// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Pins of ``DataLoaderOptions/pinnedPublicKeyHashes`` (HPKP's `pin-sha256`, libcurl's `sha256//`):
/// ``CurlDataLoader`` hands them to libcurl; ``URLSessionDataLoader`` reads the key from the certificate's DER here.
enum PublicKeyPins {
    /// libcurl's `CURLOPT_PINNEDPUBLICKEY` value: `sha256//A;sha256//B`, in a stable order.
    static func curlOption(_ pins: Set<String>) -> String {
        pins.sorted().map { "sha256//\($0)" }.joined(separator: ";")
    }

    /// Whether the certificate (DER) carries one of the pinned keys; `false` for a certificate that does not parse.
    static func matches(certificate der: [UInt8], pins: Set<String>) -> Bool {
        guard let key = subjectPublicKeyInfo(certificate: der) else { return false }
        let digest = der.withUnsafeBytes { SHA256Digest.hash(UnsafeRawBufferPointer(rebasing: $0[key])) }
        return pins.contains(Data(digest).base64EncodedString())
    }

    /// The DER of each `CERTIFICATE` block of a PEM file, in order; blocks that are not base64 are skipped.
    static func certificates(pem: Data) -> [[UInt8]] {
        let text = String(decoding: pem, as: UTF8.self)
        return text.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst().compactMap { block in
            guard let end = block.range(of: "-----END CERTIFICATE-----") else { return nil }
            let base64 = block[..<end.lowerBound].filter { !$0.isWhitespace }
            return Data(base64Encoded: String(base64)).map { [UInt8]($0) }
        }
    }

    /// Where the SubjectPublicKeyInfo lies in an X.509 certificate (RFC 5280 §4.1): the seventh field of
    /// `tbsCertificate`, after the optional `[0]` version, the serial number, the signature algorithm, the issuer,
    /// the validity and the subject. `nil` for bytes that are not DER of that shape.
    static func subjectPublicKeyInfo(certificate der: [UInt8]) -> Range<Int>? {
        guard let certificate = element(der, at: 0), der[certificate.start] == 0x30,
            let tbs = element(der, at: certificate.contents.lowerBound), der[tbs.start] == 0x30
        else { return nil }
        var offset = tbs.contents.lowerBound
        if offset < tbs.contents.upperBound, der[offset] == 0xA0 {
            guard let version = element(der, at: offset) else { return nil }
            offset = version.end
        }
        for _ in 0..<5 {  // serial number, signature, issuer, validity, subject
            guard let field = element(der, at: offset), field.end <= tbs.contents.upperBound else { return nil }
            offset = field.end
        }
        guard let key = element(der, at: offset), der[key.start] == 0x30, key.end <= tbs.contents.upperBound else {
            return nil
        }
        return key.start..<key.end
    }

    /// One DER element at `offset`: where it starts, its contents and where it ends; `nil` when it runs past the
    /// bytes or its length is not in DER's definite form of at most four bytes.
    private static func element(_ der: [UInt8], at offset: Int) -> (start: Int, contents: Range<Int>, end: Int)? {
        guard offset >= 0, offset + 2 <= der.count, der[offset] & 0x1F != 0x1F else { return nil }  // one-byte tags
        var length = Int(der[offset + 1])
        var contents = offset + 2
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard (1...4).contains(count), contents + count <= der.count else { return nil }
            length = der[contents..<contents + count].reduce(0) { $0 << 8 | Int($1) }
            contents += count
        }
        guard length <= der.count - contents else { return nil }
        return (offset, contents..<contents + length, contents + length)
    }
}
