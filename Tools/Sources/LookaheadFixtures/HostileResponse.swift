// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead fixtures — HostileResponse: malformed responses that attack the client, for ``RawHTTPResponder``.

/// A response written byte for byte to attack the client that reads it. Each carries a real image, so a client
/// that shrugs the attack off still gets something to decode.
public enum HostileResponse: String, CaseIterable, Sendable, CustomStringConvertible {
    /// A bare CR inside a field value, followed by what would pass for a field of its own.
    case carriageReturnInValue = "cr-in-value"
    /// A NUL inside a field value.
    case nulInValue = "nul-in-value"
    /// A redirect whose `Location` holds a bare CR and a field to inject into the next request.
    case carriageReturnInLocation = "cr-in-location"
    /// A redirect whose `Location` holds an encoded CR LF and a field to inject into the next request.
    case encodedLineBreakInLocation = "crlf-in-location"
    /// 2,000 `100 Continue` and 500 `103 Early Hints` before the real response.
    case interimFlood = "interim-flood"
    /// An HTTP/0.9 reply: the body alone, no status line and no fields.
    case http09 = "http09"
    /// A `Set-Cookie` of 80 KiB.
    case oversizedSetCookie = "huge-set-cookie"
    /// A `Vary` of 80 KiB.
    case oversizedVary = "huge-vary"

    /// The path it is served at.
    public var path: String { "/raw/\(rawValue)" }

    public var description: String { rawValue }

    /// The field an attack tries to pass off as the server's own, or inject into the next request.
    public static let injectedField = "X-Injected"

    /// The path of the plain image a redirect points at.
    public static let imagePath = "/raw/image"

    /// Every attack, and ``imagePath``, as ``RawHTTPResponder`` routes.
    public static func routes(image: [UInt8]) -> [(prefix: String, response: [UInt8])] {
        allCases.map { ($0.path, $0.response(image: image)) } + [(imagePath, ok(image: image))]
    }

    /// The bytes written.
    public func response(image: [UInt8]) -> [UInt8] {
        let huge = String(repeating: "a", count: 80 << 10)
        switch self {
        case .carriageReturnInValue:
            return Self.ok(image: image, fields: "X-Attack: a\r\(Self.injectedField): 1\r\n")
        case .nulInValue:
            return Self.ok(image: image, fields: "X-Attack: a\u{0}\(Self.injectedField): 1\r\n")
        case .carriageReturnInLocation:
            return Self.redirect(to: "\(Self.imagePath)\r\(Self.injectedField): 1")
        case .encodedLineBreakInLocation:
            return Self.redirect(to: "\(Self.imagePath)%0D%0A\(Self.injectedField):%201")
        case .interimFlood:
            let interim =
                String(repeating: "HTTP/1.1 100 Continue\r\n\r\n", count: 2_000)
                + String(repeating: "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n", count: 500)
            return Array(interim.utf8) + Self.ok(image: image)
        case .http09:
            return image
        case .oversizedSetCookie:
            return Self.ok(image: image, fields: "Set-Cookie: session=\(huge)\r\n")
        case .oversizedVary:
            return Self.ok(image: image, fields: "Vary: \(huge)\r\n")
        }
    }

    /// A `200` carrying `image`, with `fields` (each ending in CR LF) among its own.
    static func ok(image: [UInt8], fields: String = "") -> [UInt8] {
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\n\(fields)Content-Length: \(image.count)\r\n"
            + "Cache-Control: max-age=3600\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + image
    }

    private static func redirect(to location: String) -> [UInt8] {
        Array("HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
    }
}
