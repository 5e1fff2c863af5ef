// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The redirects one request may follow, for both default loaders (`http` and `https`, no loop, no downgrade unless
/// allowed, at most ``DataLoaderOptions/maximumRedirects``), and the header fields each hop may carry.
struct RedirectRules: Sendable {
    let maximumRedirects: Int
    let allowsInsecureRedirects: Bool
    /// The lowercased names of the fields never sent to another origin: ``credentialFields`` and the app's own.
    let sensitiveFields: Set<String>
    /// The redirects accepted so far.
    private(set) var count = 0
    private var visited: Set<String>
    private let origin: URL
    private var current: URL

    /// The rules of `options` for a request to `url`, which counts as visited.
    init(from url: URL, options: DataLoaderOptions) {
        self.maximumRedirects = options.maximumRedirects
        self.allowsInsecureRedirects = options.allowsInsecureRedirects
        self.sensitiveFields = Self.credentialFields.union(options.sensitiveHeaderFields.map { $0.lowercased() })
        self.visited = [url.absoluteString]
        self.origin = url
        self.current = url
    }

    /// Records a redirect to `target`: `nil` when it may be followed, else the error that ends the transfer.
    mutating func accept(_ target: URL) -> DataLoadingError? {
        let scheme = target.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else { return .unsupportedScheme(scheme) }
        if !allowsInsecureRedirects, current.scheme?.lowercased() == "https", scheme == "http" {
            return .insecureRedirect(target)
        }
        count += 1
        guard count <= maximumRedirects else { return .tooManyRedirects(limit: maximumRedirects) }
        guard visited.insert(target.absoluteString).inserted else { return .redirectLoop(target) }
        current = target
        return nil
    }

    /// Whether `target` is on another origin (scheme, host or port) than the request.
    func leavesOrigin(_ target: URL) -> Bool {
        target.scheme?.lowercased() != origin.scheme?.lowercased()
            || target.host?.lowercased() != origin.host?.lowercased()
            || Self.port(of: target) != Self.port(of: origin)
    }

    /// Whether the field `name` may be sent to `target`: any field to the request's origin, only those not sensitive
    /// to another.
    func mayForward(_ name: String, to target: URL) -> Bool {
        !leavesOrigin(target) || !sensitiveFields.contains(name.lowercased())
    }

    /// The fields of `fields` that may be sent to `target` (see ``mayForward(_:to:)``).
    func fields(_ fields: [String: String], forwardedTo target: URL) -> [String: String] {
        fields.filter { mayForward($0.key, to: target) }
    }

    /// The port, the scheme's default when the URL names none: `http://a` and `http://a:80` are one origin.
    private static func port(of url: URL) -> Int? {
        if let port = url.port { return port }
        switch url.scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }

    /// The header fields never sent to another origin.
    static let credentialFields: Set<String> = ["authorization", "cookie", "proxy-authorization"]
}
