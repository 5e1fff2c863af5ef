// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — the web benchmark's set-up: the link and the origin, made for one run and removed after it,
// on an error and on SIGINT or SIGTERM as well.

import ArgumentParser
import Dispatch
import Foundation
import LookaheadFixtures
import Synchronization

extension LinkProfile: ExpressibleByArgument {}
extension WebHTTPVersion: ExpressibleByArgument {}

/// The origin and, but for `loopback`, the link to it.
final class WebSession: Sendable {
    let profile: LinkProfile
    let origin: NginxOrigin
    private let link: WebLink?
    private let folder: URL
    private let stopped = Atomic<Bool>(false)

    private init(profile: LinkProfile, origin: NginxOrigin, link: WebLink?, folder: URL) {
        self.profile = profile
        self.origin = origin
        self.link = link
        self.folder = folder
    }

    /// The prefix of a run's folder in the temporary directory; the pid follows.
    static let folderPrefix = "lookahead-web-run-"

    /// Removes what earlier runs that died left, makes the link and starts nginx.
    static func start(profile: LinkProfile, initialWindow: Int, files: WebOriginFiles) async throws -> WebSession {
        removeStale()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(folderPrefix)\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let link = profile == .loopback ? nil : try WebLink.make(profile: profile, initialWindow: initialWindow)
        do {
            let origin: NginxOrigin
            if let link {
                origin = try await NginxOrigin.start(
                    files: files,
                    folder: folder,
                    address: link.originAddress,
                    ports: (443, 8443),
                    namespace: link.originNamespace
                )
            } else {
                origin = try await NginxOrigin.start(
                    files: files,
                    folder: folder,
                    address: "127.0.0.1",
                    ports: (try freeLoopbackPort(), try freeLoopbackPort()),
                    namespace: nil
                )
            }
            return WebSession(profile: profile, origin: origin, link: link, folder: folder)
        } catch {
            link?.tearDown()
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// Stops nginx, removes the link and the run's folder. Idempotent.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        origin.stop()
        link?.tearDown()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `body`, stopping the session after it, when it throws, and on SIGINT or SIGTERM (then the process exits
    /// with 128 + the signal's number).
    func run<T>(_ body: () async throws -> T) async throws -> T {
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                print("\nweb: stopping nginx and removing the link (signal \(number))")
                stop()
                exit(128 + number)
            }
            source.resume()
            return source
        }
        defer {
            for source in sources { source.cancel() }
            for number in [SIGINT, SIGTERM] { signal(number, SIG_DFL) }
        }
        do {
            let result = try await body()
            stop()
            return result
        } catch {
            stop()
            throw error
        }
    }

    /// Stops the nginx of runs whose process died, removes their folders and links.
    private static func removeStale() {
        WebLink.removeStale()
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(folderPrefix) {
            guard let pid = Int32(name.dropFirst(folderPrefix.count)), pid != getpid(), kill(pid, 0) != 0 else {
                continue
            }
            let folder = temporary.appendingPathComponent(name)
            let pidText = try? String(contentsOf: folder.appendingPathComponent("nginx.pid"), encoding: .utf8)
            if let nginx = pidText.flatMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }),
                let command = try? String(contentsOfFile: "/proc/\(nginx)/cmdline", encoding: .utf8),
                command.contains(folder.path)
            {
                print("web: stopping the nginx of process \(pid), which died")
                kill(nginx, SIGTERM)
            }
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now.
    private static func freeLoopbackPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchFailure(description: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw BenchFailure(description: "no free port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
