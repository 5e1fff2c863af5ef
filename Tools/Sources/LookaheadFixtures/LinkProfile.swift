// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — LinkProfile: the links the web benchmark puts between a client and its origin, and the physical
// limits of loading over them.

/// A link between client and origin: a rate in each direction and a round-trip time.
///
/// The model is a token bucket at the rate (the same in both directions) and a constant delay of half the round
/// trip each way. It leaves out loss other than a full queue's, jitter, the radio's own scheduling and an uplink
/// slower than the downlink.
public enum LinkProfile: String, CaseIterable, Sendable {
    /// No link: the origin on the loopback interface, no rate limit, no added delay.
    case loopback
    /// 50 Mbit/s, 20 ms round trip.
    case wifi
    /// 12 Mbit/s, 60 ms round trip.
    case fourG = "4g"
    /// 1.6 Mbit/s, 300 ms round trip.
    case threeG = "3g"

    /// The rate in bits per second, `nil` for no limit.
    public var bitsPerSecond: Double? {
        switch self {
        case .loopback: nil
        case .wifi: 50e6
        case .fourG: 12e6
        case .threeG: 1.6e6
        }
    }

    /// The round-trip time the relay adds.
    public var roundTrip: Duration {
        switch self {
        case .loopback: .zero
        case .wifi: .milliseconds(20)
        case .fourG: .milliseconds(60)
        case .threeG: .milliseconds(300)
        }
    }

    /// The round-trip time, in seconds.
    public var roundTripSeconds: Double {
        Double(roundTrip.components.seconds) + Double(roundTrip.components.attoseconds) * 1e-18
    }

    /// Seconds to send `bytes` at the link's rate; 0 without a limit.
    public func transferSeconds(bytes: Int) -> Double {
        guard let bitsPerSecond else { return 0 }
        return Double(bytes) * 8 / bitsPerSecond
    }

    /// The round trips before the first byte of a response on a new connection: TCP's handshake, TLS 1.3's, then
    /// the request and its response.
    public static let roundTripsToFirstByte = 3

    /// The least time `bytes` of responses can take on a new connection: the round trips to the first byte, then
    /// every byte at the link's rate. Headers and the TCP, TLS and HTTP framing are not counted.
    public func limitSeconds(bytes: Int) -> Double {
        Double(Self.roundTripsToFirstByte) * roundTripSeconds + transferSeconds(bytes: bytes)
    }

    /// The payload of a full TCP segment on these links (1,500-byte frames, IPv4, timestamps on).
    public static let segmentBytes = 1448

    /// Linux's initial congestion window, in segments.
    public static let defaultInitialWindow = 10

    /// The least time `bytes` can take on a new connection whose sender starts in TCP's slow start: the round
    /// trips to the first byte, then a window of `initialWindow` full segments per round trip, doubling each
    /// round, until the window covers the bandwidth-delay product and the rest goes at the rate. The limit a real
    /// connection meets; ``limitSeconds(bytes:)`` leaves slow start out.
    public func slowStartLimitSeconds(bytes: Int, initialWindow: Int = defaultInitialWindow) -> Double {
        guard let bitsPerSecond else { return 0 }
        let rate = bitsPerSecond / 8
        let bandwidthDelay = rate * roundTripSeconds
        var remaining = Double(bytes)
        var window = Double(max(1, initialWindow) * Self.segmentBytes)
        var time = Double(Self.roundTripsToFirstByte) * roundTripSeconds
        while window < bandwidthDelay, remaining > window {
            remaining -= window
            time += roundTripSeconds
            window *= 2
        }
        return time + remaining / rate
    }

    /// The floor of a cold load: the larger of the transfer's limit and the decoding's own time on every core.
    public func floorSeconds(bytes: Int, decodingSeconds: Double) -> Double {
        max(limitSeconds(bytes: bytes), decodingSeconds)
    }

    /// The token bucket's settings for `tc qdisc … tbf`: its depth (`burst`, at least two full frames, else 4 ms at
    /// the rate) and its queue (`limit`, twice the bandwidth-delay product, at least 64 KiB), in bytes.
    public var tokenBucket: (rateBits: Int, burstBytes: Int, limitBytes: Int)? {
        guard let bitsPerSecond else { return nil }
        let bytesPerSecond = bitsPerSecond / 8
        let burst = max(2 * 1514, Int(bytesPerSecond * 0.004))
        let limit = max(64 << 10, Int(2 * bytesPerSecond * roundTripSeconds))
        return (Int(bitsPerSecond), burst, limit)
    }
}
