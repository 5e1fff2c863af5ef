// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — DiskCache on a full and on a read-only file system (small tmpfs mounts; needs root).

import Foundation
import Testing

@testable import Lookahead

#if canImport(Glibc)
import Glibc

/// A tmpfs of a few kilobytes mounted on a temporary folder, unmounted afterwards.
private final class TinyFileSystem {
    let folder = TemporaryDirectory("lookahead-tmpfs")
    private(set) var isMounted = false

    /// Whether this machine lets the tests mount (root, and a kernel that allows tmpfs here).
    static let isAvailable: Bool = {
        guard getuid() == 0 else { return false }
        let probe = TinyFileSystem(kilobytes: 16)
        return probe.isMounted
    }()

    init(kilobytes: Int, readOnly: Bool = false) {
        isMounted = Self.run(
            "/bin/mount",
            "-t",
            "tmpfs",
            "-o",
            "size=\(kilobytes)k\(readOnly ? ",ro" : "")",
            "tmpfs",
            folder.path
        )
    }

    func remountReadOnly() -> Bool {
        Self.run("/bin/mount", "-o", "remount,ro", folder.path)
    }

    deinit {
        if isMounted { _ = Self.run("/bin/umount", "-l", folder.path) }
    }

    private static func run(_ arguments: String...) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

@Suite(
    .enabled(if: TinyFileSystem.isAvailable, "needs root to mount a small tmpfs; the full-disk tests are skipped")
)
struct DiskCacheFileSystemTests {
    private func data(_ seed: Int, count: Int = 4000) -> Data {
        var generator = SplitMix64(seed: UInt64(seed))
        return Data((0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
    }

    @Test func aFullDiskStopsWritingOnceAndKeepsWhatWasStored() {
        let disk = TinyFileSystem(kilobytes: 64)
        let cache = DiskCache(directory: disk.folder.url.appendingPathComponent("cache"), sizeLimit: 10 << 20)
        var stored: [Int] = []
        for n in 0..<40 {
            cache.storeData(data(n), for: "key-\(n)")
            cache.flush()
            if cache.writeFailure != nil { break }
            stored.append(n)
        }
        #expect(cache.writeFailure != nil, "64 KiB cannot hold 40 entries of 4 KB")
        #expect(!stored.isEmpty)
        for n in stored { #expect(cache.cachedData(for: "key-\(n)") == data(n)) }
        // Later stores are ignored; nothing half-written is ever served.
        cache.storeData(data(99), for: "after")
        cache.flush()
        #expect(cache.cachedData(for: "after") == nil)
        #expect(cache.cachedData(for: "key-\(stored.count)") == nil)
    }

    @Test func writingResumesOnceSpaceIsFreedAndThePauseIsOver() {
        let disk = TinyFileSystem(kilobytes: 64)
        let folder = disk.folder.url.appendingPathComponent("cache")
        // No pause: the first store after the failure tries again.
        let cache = DiskCache(directory: folder, sizeLimit: 10 << 20, writeRetryInterval: .zero)
        var stored = 0
        while cache.writeFailure == nil, stored < 40 {
            cache.storeData(data(stored), for: "key-\(stored)")
            cache.flush()
            stored += 1
        }
        #expect(cache.writeFailure != nil, "64 KiB cannot hold 40 entries of 4 KB")
        // Still full: the next store fails too and writing stays stopped.
        cache.storeData(data(98), for: "still-full")
        cache.flush()
        #expect(cache.writeFailure != nil)
        #expect(cache.cachedData(for: "still-full") == nil)
        // Space freed (by the cache or by someone else): the next store is written and served.
        cache.removeData(for: "key-0")
        cache.removeData(for: "key-1")
        cache.flush()
        cache.storeData(data(99), for: "after")
        cache.flush()
        #expect(cache.writeFailure == nil)
        #expect(cache.cachedData(for: "after") == data(99))
        // Read from the disk by a cache opened later, not from memory.
        let reopened = DiskCache(directory: folder, sizeLimit: 10 << 20)
        #expect(reopened.cachedData(for: "after") == data(99))
    }

    @Test func aFileSystemRemountedReadOnlyStopsWriting() {
        let disk = TinyFileSystem(kilobytes: 256)
        let cache = DiskCache(directory: disk.folder.url, sizeLimit: 10 << 20)
        cache.storeData(data(1), for: "before")
        cache.flush()
        #expect(disk.remountReadOnly())
        cache.storeData(data(2), for: "after")
        cache.flush()
        #expect(cache.writeFailure?.contains("Read-only") == true)
        #expect(cache.cachedData(for: "before") == data(1))
        #expect(cache.cachedData(for: "after") == nil)
    }

    @Test func aPipelineOnAFullDiskStillLoadsFromTheNetwork() async throws {
        let disk = TinyFileSystem(kilobytes: 16)
        let cache = DiskCache(directory: disk.folder.url, sizeLimit: 10 << 20)
        let loader = GatedDataLoader(isGated: false) { url in
            .success(DataLoadResponse(data: TestImages.jpeg + Data(count: 8000)))  // padding after EOI is ignored
        }
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = cache
            $0.memoryCache = nil
        }
        for n in 0..<4 {
            let response = try await pipeline.image(for: URL(string: "https://example.com/\(n).jpg")!)
            #expect(response.image.pixelWidth == 64)
            await cache.flush()
        }
        #expect(cache.writeFailure != nil)
        #expect(loader.record.value.started.count == 4)
    }
}
#endif
