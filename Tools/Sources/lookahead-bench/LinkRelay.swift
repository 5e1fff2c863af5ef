// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — `lookahead-bench link-relay`: the web benchmark's round trip, a bridge between two interfaces
// that holds every frame for a fixed time.

import ArgumentParser
import CPacketSocket
import Foundation
import LookaheadFixtures

/// Copies every Ethernet frame that arrives on one interface out of the other, `--delay-us` later, both ways: a
/// round trip of twice the delay for everything that crosses, handshakes and acknowledgements included. The
/// kernel's `tbf` queues on the two interfaces, where the relay's frames leave, set the rate; a frame they refuse
/// is lost, as at a full queue on a real link.
///
/// Not listed in the help: the web benchmark starts it. Its sockets are opened in the namespace `--namespace`
/// names; the process itself stays where it was started, so when its standard input closes (the benchmark ended,
/// however it ended) it can remove `--remove-on-exit`'s namespaces and whatever runs in them before it exits.
struct LinkRelayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link-relay",
        abstract: "Bridges two interfaces of a network namespace, holding each frame for a delay.",
        shouldDisplay: false
    )

    @Option(help: "The network namespace of the two interfaces (a name under /run/netns).")
    var namespace: String

    @Option(help: "The first interface.")
    var first: String

    @Option(help: "The second interface.")
    var second: String

    @Option(help: "How long each frame is held, in microseconds.")
    var delayUs: Int

    @Option(help: "Namespaces to remove, with what runs in them, once standard input closes.")
    var removeOnExit: [String] = []

    func run() throws {
        // The namespace is entered by this thread only, which opens the sockets and runs the loop.
        guard lookahead_enter_network_namespace("/run/netns/\(namespace)") == 0 else {
            throw BenchFailure(
                description: "link-relay: cannot enter \(namespace): \(String(cString: strerror(errno)))"
            )
        }
        let sockets = try [first, second].map { name in
            let fd = lookahead_packet_open(name)
            guard fd >= 0 else {
                throw BenchFailure(description: "link-relay: cannot open \(name): \(String(cString: strerror(errno)))")
            }
            return fd
        }
        var relay = FrameRelay(sockets: (sockets[0], sockets[1]), delay: .microseconds(delayUs))
        relay.run()
        for fd in sockets { close(fd) }
        WebLink.removeNamespaces(removeOnExit)
    }
}

/// The relay's loop: reads what is waiting, sends what is due, sleeps until the next frame is due or one arrives.
struct FrameRelay {
    private let sockets: (Int32, Int32)
    /// Frames read from the first socket, to be sent on the second, and the other way.
    private var towardsSecond: DelayLine<[UInt8]>
    private var towardsFirst: DelayLine<[UInt8]>
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var buffer = [UInt8](repeating: 0, count: 65_536)

    init(sockets: (Int32, Int32), delay: Duration) {
        self.sockets = sockets
        // Far more than a link's queue holds: the relay never drops a frame itself.
        towardsSecond = DelayLine(delay: delay, capacity: 1 << 16)
        towardsFirst = DelayLine(delay: delay, capacity: 1 << 16)
        start = clock.now
    }

    private var now: Duration { clock.now - start }

    /// Runs until standard input closes.
    mutating func run() {
        var descriptors = [
            pollfd(fd: sockets.0, events: Int16(POLLIN), revents: 0),
            pollfd(fd: sockets.1, events: Int16(POLLIN), revents: 0),
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            flushDue()
            let next = [towardsSecond.nextDue, towardsFirst.nextDue].compactMap { $0 }.min()
            let timeout = next.map { max(0, nanoseconds($0 - now)) } ?? -1
            for index in descriptors.indices { descriptors[index].revents = 0 }
            let ready = lookahead_poll(&descriptors, nfds_t(descriptors.count), timeout)
            guard ready >= 0 || errno == EINTR else { return }
            if descriptors[2].revents != 0 {
                var byte: UInt8 = 0
                if read(STDIN_FILENO, &byte, 1) <= 0 { return }
            }
            if descriptors[0].revents & Int16(POLLIN) != 0 { receive(fromFirst: true) }
            if descriptors[1].revents & Int16(POLLIN) != 0 { receive(fromFirst: false) }
        }
    }

    /// Reads every frame waiting on the first socket (or the second), to be sent on the other.
    private mutating func receive(fromFirst: Bool) {
        let fd = fromFirst ? sockets.0 : sockets.1
        while true {
            let count = buffer.withUnsafeMutableBytes { lookahead_packet_receive(fd, $0.baseAddress, $0.count) }
            if count < 0 { return }  // EAGAIN: nothing more waiting
            if count == 0 { continue }  // a frame this relay sent
            let frame = Array(buffer[0..<count])
            let arrival = now
            if fromFirst {
                towardsSecond.push(frame, at: arrival)
            } else {
                towardsFirst.push(frame, at: arrival)
            }
        }
    }

    /// Sends every frame that is due, both ways; a frame the interface's queue refuses is dropped.
    private mutating func flushDue() {
        let time = now
        for frame in towardsSecond.popDue(at: time) { Self.send(frame, on: sockets.1) }
        for frame in towardsFirst.popDue(at: time) { Self.send(frame, on: sockets.0) }
    }

    private static func send(_ frame: [UInt8], on fd: Int32) {
        _ = frame.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
    }

    private func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
}
