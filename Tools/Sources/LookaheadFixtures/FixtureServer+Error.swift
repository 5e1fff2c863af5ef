// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureServer.Error: the fixtures module's error type.

extension FixtureServer {
    /// Errors thrown by the fixture server and the fixture image generator.
    public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// The server could not start, for example because the port is already taken.
        case startFailed(reason: String)
        /// libjpeg-turbo could not encode a generated image.
        case encodingFailed(reason: String)
        /// A photo of ``FixtureServer/Configuration/photosFolder`` could not be decoded and resized.
        case photoFailed(reason: String)

        /// A one-line explanation of the failure.
        public var description: String {
            switch self {
            case .startFailed(let reason):
                "fixture server failed to start: \(reason)"
            case .encodingFailed(let reason):
                "fixture JPEG encoding failed: \(reason)"
            case .photoFailed(let reason):
                "fixture photo failed: \(reason)"
            }
        }
    }
}
