// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Interface stub of CryptoKit for scripts/apple-typecheck: only what Lookahead calls, from Apple's documented
// declarations (SHA256, SHA256Digest). Bodies never run.
public import Foundation

public struct SHA256Digest: Sequence, Hashable, Sendable {
    public func makeIterator() -> Array<UInt8>.Iterator { fatalError() }
}

public struct SHA256: Sendable {
    public static func hash<D: DataProtocol>(data: D) -> SHA256Digest { fatalError() }
}
