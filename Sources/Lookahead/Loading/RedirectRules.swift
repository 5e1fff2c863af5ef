// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The redirects one request may follow, as both default loaders check them before following one: `http` and
/// `https` only, never from `https` to `http` unless allowed, at most ``DataLoaderOptions/maximumRedirects``, and
/// never to a URL the request already visited.
struct RedirectRules: Sendable {
    /// The most redirects followed.
    let maximumRedirects: Int
    let allowsInsecureRedirects: Bool
    /// The redirects accepted so far.
    private(set) var count = 0
    private var visited: Set<String>
    private let origin: URL
    private var current: URL

    /// The rules of `options` for a request to `url`, which counts as visited.
    init(from url: URL, options: DataLoaderOptions) {
        self.init(
            from: url,
            maximumRedirects: options.maximumRedirects,
            allowsInsecureRedirects: options.allowsInsecureRedirects
        )
    }

    init(from url: URL, maximumRedirects: Int, allowsInsecureRedirects: Bool = false) {
        self.maximumRedirects = maximumRedirects
        self.allowsInsecureRedirects = allowsInsecureRedirects
        self.visited = [url.absoluteString]
        self.origin = url
        self.current = url
    }

    /// Records a redirect to `target` and returns `nil` when it may be followed, else the error that ends the
    /// transfer.
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

    /// Whether `target` is on another origin (scheme, host or port) than the request: its credentials
    /// (`Authorization`, `Cookie`) must not follow it there.
    func leavesOrigin(_ target: URL) -> Bool {
        target.scheme?.lowercased() != origin.scheme?.lowercased()
            || target.host?.lowercased() != origin.host?.lowercased()
            || target.port != origin.port
    }

    /// The header fields never sent to another origin.
    static let credentialFields: Set<String> = ["authorization", "cookie", "proxy-authorization"]
}
