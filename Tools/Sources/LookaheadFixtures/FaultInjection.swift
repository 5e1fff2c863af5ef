// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FaultInjection: seeded, reproducible failures on the fixture server's image routes.

extension FixtureServer {
    /// How often the image routes (`/images/{n}.jpg` and `/media/{quality}/{key}`) misbehave.
    ///
    /// Each rate is a probability in `0...1`; together they must not exceed 1. A request gets at
    /// most one fault, drawn from the seed, its path and how many requests for that path came
    /// before it (the attempt index): the rates split `0..<1` into consecutive ranges, in the
    /// order failure, reset, truncation, slow, and the draw picks one range or none. So the same
    /// seed gives the same faults in every run, and a retry of a failed image is a fresh draw.
    ///
    /// ```swift
    /// let server = try await FixtureServer.start(configuration: .init { configuration in
    ///     configuration.seed = 7
    ///     configuration.faults = .init(failureRate: 0.1, resetRate: 0.05, truncationRate: 0.05)
    /// })
    /// ```
    public struct FaultInjection: Sendable, Hashable {
        /// A way a response can be broken on purpose.
        public enum Kind: Sendable, Hashable, CaseIterable {
            /// HTTP 500 with a short text body.
            case failure
            /// The connection is closed before any part of the response is written.
            ///
            /// HTTP clients such as URLSession silently retry a request whose reused keep-alive
            /// connection closes without a response. The retry is the next attempt, a fresh draw,
            /// so such a client sees the reset only when the next draw is a reset too, or when
            /// the request went out on a new connection.
            case reset
            /// 200 with the first half of the real JPEG and a `Content-Length` matching the half.
            case truncation
            /// The real response, after an extra ``FixtureServer/FaultInjection/slowDelay`` before
            /// the headers.
            case slow
        }

        /// How many faults of each kind a server injected.
        public struct Counts: Sendable, Hashable {
            /// Responses answered with HTTP 500.
            public var failures: Int
            /// Connections closed without a response.
            public var resets: Int
            /// Responses cut to half of the JPEG.
            public var truncations: Int
            /// Responses held back by the extra delay.
            public var slowResponses: Int

            /// Creates counts; every parameter defaults to zero.
            public init(failures: Int = 0, resets: Int = 0, truncations: Int = 0, slowResponses: Int = 0) {
                self.failures = failures
                self.resets = resets
                self.truncations = truncations
                self.slowResponses = slowResponses
            }

            /// The number of faults of all kinds.
            public var total: Int {
                failures + resets + truncations + slowResponses
            }

            /// The count for one kind of fault.
            public subscript(kind: Kind) -> Int {
                get {
                    switch kind {
                    case .failure: failures
                    case .reset: resets
                    case .truncation: truncations
                    case .slow: slowResponses
                    }
                }
                set {
                    switch kind {
                    case .failure: failures = newValue
                    case .reset: resets = newValue
                    case .truncation: truncations = newValue
                    case .slow: slowResponses = newValue
                    }
                }
            }
        }

        /// No faults at all: the default.
        public static let none = FaultInjection()

        /// The share of image requests answered with HTTP 500.
        public var failureRate: Double
        /// The share of image requests whose connection is closed before any response.
        public var resetRate: Double
        /// The share of image requests answered with the first half of the JPEG.
        public var truncationRate: Double
        /// The share of image requests delayed by ``slowDelay`` before the headers.
        public var slowRate: Double
        /// The extra delay of a slow response, on top of the configured latency.
        public var slowDelay: Duration

        /// Creates fault settings; by default nothing is injected and slow responses wait 2 s.
        public init(
            failureRate: Double = 0,
            resetRate: Double = 0,
            truncationRate: Double = 0,
            slowRate: Double = 0,
            slowDelay: Duration = .seconds(2)
        ) {
            self.failureRate = failureRate
            self.resetRate = resetRate
            self.truncationRate = truncationRate
            self.slowRate = slowRate
            self.slowDelay = slowDelay
        }

        /// Whether any fault can happen.
        public var isEnabled: Bool {
            rates.contains { $0.rate > 0 }
        }

        /// Why these settings are unusable, or `nil` if they are fine: every rate must be in
        /// `0...1`, their sum at most 1, and ``slowDelay`` not negative.
        public var validationFailure: String? {
            for (kind, rate) in rates where !(0...1).contains(rate) {
                return "the \(kind) rate must be in 0...1, not \(rate)"
            }
            let sum = rates.reduce(0) { $0 + $1.rate }
            if sum > 1 + Self.sumTolerance {
                return "the fault rates add up to \(sum), more than 1"
            }
            if slowDelay < .zero {
                return "the slow delay must not be negative"
            }
            return nil
        }

        /// The fault for the `attempt`th request (counting from zero) to `path`, or `nil` for a
        /// normal response. A pure function of its arguments and the rates.
        public func fault(seed: UInt64, path: String, attempt: Int) -> Kind? {
            guard isEnabled else { return nil }
            let pathKey = SplitMix64.stableHash(path)
            let attemptKey = SplitMix64.mix(UInt64(truncatingIfNeeded: attempt) &+ 0x2545_F491_4F6C_DD1D)
            // The salt keeps this draw independent of the latency jitter, which hashes the same inputs.
            var generator = SplitMix64(seed: seed ^ pathKey ^ attemptKey ^ 0xFA01_7FA0_17FA_017F)
            let draw = generator.nextUnitInterval()
            var upperBound = 0.0
            for (kind, rate) in rates {
                upperBound += rate
                if draw < upperBound { return kind }
            }
            return nil
        }

        /// The rates in the order they partition `0..<1`.
        private var rates: [(kind: Kind, rate: Double)] {
            [(.failure, failureRate), (.reset, resetRate), (.truncation, truncationRate), (.slow, slowRate)]
        }

        /// Rounding slack for the sum check, so that rates such as 0.1, 0.2, 0.3 and 0.4 pass.
        private static let sumTolerance = 1e-9
    }
}
