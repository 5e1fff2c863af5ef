// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The redirects one request may follow, as both default loaders check them before following one: `http` and
/// `https` only, at most ``DataLoaderOptions/maximumRedirects``, and never to a URL the request already visited.
struct RedirectRules: Sendable {
    /// The most redirects followed.
    let maximumRedirects: Int
    /// The redirects accepted so far.
    private(set) var count = 0
    private var visited: Set<String>

    /// The rules for a request to `url`, which counts as visited.
    init(from url: URL, maximumRedirects: Int) {
        self.maximumRedirects = maximumRedirects
        self.visited = [url.absoluteString]
    }

    /// Records a redirect to `target` and returns `nil` when it may be followed, else the error that ends the
    /// transfer.
    mutating func accept(_ target: URL) -> DataLoadingError? {
        let scheme = target.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else { return .unsupportedScheme(scheme) }
        count += 1
        guard count <= maximumRedirects else { return .tooManyRedirects(limit: maximumRedirects) }
        guard visited.insert(target.absoluteString).inserted else { return .redirectLoop(target) }
        return nil
    }
}
