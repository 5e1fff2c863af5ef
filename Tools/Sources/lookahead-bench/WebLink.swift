// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — the web benchmark's link: network namespaces, veth pairs, a token bucket each way, and the
// relay that adds the round trip.

import CPacketSocket
import Foundation
import LookaheadFixtures
import Synchronization

/// A link between this process (the client, in the initial network namespace) and an origin in a namespace of its
/// own, through a third namespace where the link's rate and delay are applied:
///
///     client (here)        link namespace                                 origin namespace
///     lkweb<pid> ═══ veth ═══ toclient ⟵ relay (delay RTT/2 each way) ⟶ toorigin ═══ veth ═══ eth0 (nginx)
///
/// `tc qdisc … tbf` on `toclient` limits what goes to the client, on `toorigin` what goes to the origin. The relay
/// (`lookahead-bench link-relay`) copies every Ethernet frame between the two and holds each for half the round
/// trip, so TCP's and TLS's handshakes, slow start and acknowledgements all see the round trip. Offloads are off on
/// every veth, so frames are real ones of at most 1,514 bytes with their checksums filled in.
///
/// The addresses are from 198.18.0.0/15, the block set aside for benchmarking networks (RFC 2544), a /30 per
/// process; they exist only on these interfaces and namespaces, which ``tearDown()`` removes. Names carry the pid,
/// so a link left by a process that died is found and removed by the next run (``removeStale()``).
final class WebLink: Sendable {
    let profile: LinkProfile
    /// The origin's address, as the client reaches it.
    let originAddress: String
    /// The namespace nginx runs in.
    let originNamespace: String
    private let linkNamespace: String
    private let clientAddress: String
    private let clientInterface: String
    private let relay: Mutex<(Process, Pipe)?>
    private let tornDown = Atomic<Bool>(false)

    static let namePrefix = "lookahead-web-"

    private init(profile: LinkProfile, pid: Int32) {
        self.profile = profile
        let block = Int(pid) % 16384
        let base = (198 << 24) | (18 << 16) | (block * 4)
        func dotted(_ value: Int) -> String {
            [24, 16, 8, 0].map { String((value >> $0) & 255) }.joined(separator: ".")
        }
        clientAddress = dotted(base + 1)
        originAddress = dotted(base + 2)
        linkNamespace = "\(Self.namePrefix)\(pid)-link"
        originNamespace = "\(Self.namePrefix)\(pid)-origin"
        clientInterface = "lkweb\(pid)"
        relay = Mutex(nil)
    }

    /// Makes the namespaces, the veth pairs, the token buckets and the relay. Throws, with what to do, where
    /// network namespaces are not permitted; whatever was made is removed before it throws.
    /// `initialWindow`: the origin's TCP initial congestion window toward the client, in segments.
    static func make(profile: LinkProfile, initialWindow: Int) throws -> WebLink {
        guard let bucket = profile.tokenBucket else {
            throw BenchFailure(description: "the \(profile.rawValue) profile has no link")
        }
        let link = WebLink(profile: profile, pid: getpid())
        do {
            try ip(["netns", "add", link.linkNamespace])
        } catch {
            throw BenchFailure(
                description: "network namespaces are not permitted here (`ip netns add` failed: \(error)). The "
                    + "\(profile.rawValue) profile needs root on Linux with ip and tc (iproute2); "
                    + "--profile loopback runs without them."
            )
        }
        do {
            try link.build(bucket: bucket, initialWindow: initialWindow)
        } catch {
            link.tearDown()
            throw error
        }
        return link
    }

    private func build(bucket: (rateBits: Int, burstBytes: Int, limitBytes: Int), initialWindow: Int) throws {
        let (link, origin) = (linkNamespace, originNamespace)
        try Self.ip(["netns", "add", origin])
        try Self.ip(["link", "add", clientInterface, "type", "veth", "peer", "name", "toclient", "netns", link])
        try Self.ip(["-n", link, "link", "add", "toorigin", "type", "veth", "peer", "name", "eth0", "netns", origin])
        // No IPv6 (its autoconfiguration would chatter on the link), no offloads (the relay copies real frames).
        try Self.run("/usr/sbin/sysctl", ["-qw", "net.ipv6.conf.\(clientInterface).disable_ipv6=1"])
        for namespace in [link, origin] {
            try Self.ip(["netns", "exec", namespace, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1"])
        }
        let offloads = ["tx", "off", "tso", "off", "gso", "off", "gro", "off"]
        try Self.run(Self.ethtool, ["-K", clientInterface] + offloads)
        for (namespace, device) in [(link, "toclient"), (link, "toorigin"), (origin, "eth0")] {
            try Self.ip(["netns", "exec", namespace, Self.ethtool, "-K", device] + offloads)
        }
        try Self.ip(["addr", "add", "\(clientAddress)/30", "dev", clientInterface])
        try Self.ip(["-n", origin, "addr", "add", "\(originAddress)/30", "dev", "eth0"])
        try Self.ip(["link", "set", clientInterface, "up"])
        for device in ["toclient", "toorigin"] { try Self.ip(["-n", link, "link", "set", device, "up"]) }
        try Self.ip(["-n", origin, "link", "set", "eth0", "up"])
        try Self.ip(["-n", origin, "link", "set", "lo", "up"])
        try Self.ip([
            "-n", origin, "route", "replace", "\(clientAddress)/32", "dev", "eth0", "initcwnd", "\(initialWindow)",
        ])
        for device in ["toclient", "toorigin"] {
            try Self.ip([
                "netns", "exec", link, "tc", "qdisc", "add", "dev", device, "root", "tbf",
                "rate", "\(bucket.rateBits)bit", "burst", "\(bucket.burstBytes)", "limit", "\(bucket.limitBytes)",
            ])
        }
        try startRelay()
    }

    /// Starts the relay in the link namespace; it stops when its standard input closes, that is when this
    /// process ends, however it ends.
    private func startRelay() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        let halfTrip = Int(profile.roundTripSeconds * 1e6 / 2)
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = [
            "link-relay", "--namespace", linkNamespace, "--first", "toclient", "--second", "toorigin",
            "--delay-us", "\(halfTrip)", "--remove-on-exit", originNamespace, "--remove-on-exit", linkNamespace,
        ]
        let input = Pipe()
        process.standardInput = input
        try process.run()
        relay.withLock { $0 = (process, input) }
    }

    /// Stops the relay, which removes the namespaces with what runs in them (and so the veth pairs and their
    /// queues), waits for it, and removes whatever is left. Idempotent; safe from a signal handler's queue.
    func tearDown() {
        guard !tornDown.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if let (process, input) = relay.withLock({ $0 }) {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        Self.removeNamespaces([originNamespace, linkNamespace])
    }

    /// Kills what runs in each namespace (but this process), then deletes it: system calls only, no child
    /// process, so the relay can do it as it exits.
    static func removeNamespaces(_ names: [String]) {
        for name in names {
            let path = "/run/netns/\(name)"
            var namespace = stat()
            guard stat(path, &namespace) == 0 else { continue }
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            for pid in entries.compactMap({ Int32($0) }) where pid != getpid() {
                var other = stat()
                guard stat("/proc/\(pid)/ns/net", &other) == 0 else { continue }
                if other.st_ino == namespace.st_ino, other.st_dev == namespace.st_dev { kill(pid, SIGKILL) }
            }
            _ = lookahead_remove_network_namespace(path)
        }
    }

    /// Removes the links of earlier runs whose process no longer exists.
    static func removeStale() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/run/netns")) ?? []
        for name in names where name.hasPrefix(namePrefix) {
            let pid = name.dropFirst(namePrefix.count).split(separator: "-").first.flatMap { Int32($0) }
            guard let pid, pid != getpid(), kill(pid, 0) != 0 else { continue }
            print("web: removing \(name), left by process \(pid)")
            removeNamespaces([name])
        }
    }

    private static var ethtool: String { which("ethtool") ?? "/usr/sbin/ethtool" }

    private static func ip(_ arguments: [String]) throws {
        try run("/usr/sbin/ip", arguments)
    }

    /// Runs a command; throws with its standard error when it fails.
    private static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw BenchFailure(description: "\(([executable] + arguments).joined(separator: " ")): \(text)")
        }
    }
}
