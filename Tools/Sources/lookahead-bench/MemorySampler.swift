// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — resident memory and the memory cache's cost, sampled on a thread of their own.

import Foundation
@_spi(Benchmarks) @_spi(Simulation) import Lookahead
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Reads a process's resident set size from `/proc/<pid>/statm`.
enum ResidentMemory {
    static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// The resident bytes of a process (`self` by default).
    static func bytes(ofProcess pid: Int32? = nil) -> Int? {
        statm(pid).map(\.resident)
    }

    /// The resident bytes not backed by a file (heap, stacks, anonymous maps): RSS less the shared, file-backed
    /// pages of the executable and its libraries, which are the same whatever the program does.
    static func anonymousBytes() -> Int? {
        statm(nil).map { $0.resident - $0.shared }
    }

    private static func statm(_ pid: Int32?) -> (resident: Int, shared: Int)? {
        let path = pid.map { "/proc/\($0)/statm" } ?? "/proc/self/statm"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 2, let resident = Int(fields[1]), let shared = Int(fields[2]) else { return nil }
        return (resident * pageSize, shared * pageSize)
    }

    /// Where this process's memory that is not file-backed lives, from `/proc/self/smaps`: resident bytes and
    /// mappings per kind, largest first.
    ///
    /// glibc's main heap is `[heap]`; the heaps of its other arenas are mappings that start at a multiple of their
    /// 64 MiB maximum; a thread's stack is a mapping of 8 MiB (the default size); anything else (an allocation
    /// above the `mmap` threshold, a library's zeroed data) is counted as other.
    static func anonymousRegions() -> [(kind: String, resident: Int, mappings: Int)] {
        guard let text = readWhole("/proc/self/smaps") else { return [] }
        var totals: [String: (resident: Int, mappings: Int)] = [:]
        var current: String?
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.contains("-"), fields.count >= 5, let range = Self.addressRange(first) {
                let inode = fields[4]
                let name = fields.count > 5 ? String(fields[5]) : ""
                guard inode == "0", name.isEmpty || name == "[heap]" || name == "[stack]" else {
                    current = nil
                    continue
                }
                let size = range.upperBound - range.lowerBound
                let kind =
                    if name == "[heap]" {
                        "main heap"
                    } else if name == "[stack]" || size == 8 << 20 {
                        "thread stacks"
                    } else if range.lowerBound % (64 << 20) == 0, size <= 64 << 20 {
                        "other arenas' heaps"
                    } else {
                        "other"
                    }
                current = kind
                totals[kind, default: (0, 0)].mappings += 1
            } else if first == "Rss:", let current, fields.count >= 2, let kilobytes = Int(fields[1]) {
                totals[current, default: (0, 0)].resident += kilobytes << 10
            }
        }
        return totals.map { ($0.key, $0.value.resident, $0.value.mappings) }.sorted { $0.resident > $1.resident }
    }

    /// A file of the proc file system, read to its end (its size says 0).
    private static func readWhole(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func addressRange(_ field: Substring) -> Range<Int>? {
        let bounds = field.split(separator: "-")
        guard bounds.count == 2, let lower = Int(bounds[0], radix: 16), let upper = Int(bounds[1], radix: 16),
            lower <= upper
        else { return nil }
        return lower..<upper
    }

    /// Gives free heap memory back to the kernel (glibc's `malloc_trim(0)`, looked up at run time: the Glibc
    /// module does not export `malloc.h`).
    static func trim() {
        _ = mallocTrim?(0)
    }

    /// What glibc's allocator holds, summed over its arenas (`malloc_info`, looked up at run time): bytes in use by
    /// the program (mapped chunks included), and bytes free in its heaps, which count in RSS once touched until
    /// they are trimmed. `nil` off glibc.
    static func allocator() -> (inUse: Int, free: Int, freeByHeap: [Int])? {
        #if canImport(Glibc)
        guard let mallocInfo else { return nil }
        var buffer: UnsafeMutablePointer<CChar>?
        var length = 0
        guard let stream = open_memstream(&buffer, &length) else { return nil }
        let status = mallocInfo(0, stream)
        fclose(stream)
        defer { Glibc.free(buffer) }
        guard status == 0, let buffer else { return nil }
        // Each arena is a <heap nr=…> element; the totals follow the last </heap>: <total type="fast|rest|mmap"
        // count= size=/>, <system type="current" size=/>.
        let text = String(cString: buffer)
        guard let tail = text.range(of: "</heap>", options: .backwards).map({ text[$0.upperBound...] }) else {
            return nil
        }
        func total(_ tag: String, in part: Substring) -> Int {
            guard let start = part.range(of: tag) else { return 0 }
            let rest = part[start.upperBound...]
            guard let quote = rest.range(of: "size=\""),
                let end = rest[quote.upperBound...].firstIndex(of: "\"")
            else { return 0 }
            return Int(rest[quote.upperBound..<end]) ?? 0
        }
        func freeBytes(in part: Substring) -> Int {
            total("<total type=\"fast\"", in: part) + total("<total type=\"rest\"", in: part)
        }
        let heaps = text[..<tail.startIndex].components(separatedBy: "<heap nr=").dropFirst()
        let freeByHeap = heaps.map { freeBytes(in: Substring($0)) }.sorted(by: >)
        let free = freeBytes(in: tail)
        let current = total("<system type=\"current\"", in: tail)
        return (current - free + total("<total type=\"mmap\"", in: tail), free, freeByHeap)
        #else
        return nil
        #endif
    }

    #if canImport(Glibc)
    private typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>) -> Int32

    private static let mallocInfo: MallocInfo? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_info") else { return nil }
        return unsafeBitCast(symbol, to: MallocInfo.self)
    }()
    #endif

    private typealias MallocTrim = @convention(c) (Int) -> Int32

    private static let mallocTrim: MallocTrim? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: MallocTrim.self)
        #else
        return nil
        #endif
    }()
}

/// Samples this process's RSS and a memory cache's total cost every interval, from a dedicated thread, until
/// stopped; can also call `malloc_trim(0)` at its own interval, as an experiment.
final class MemorySampler: Sendable {
    /// What the samples showed.
    struct Figures: Sendable {
        var samples = 0
        var maximumResident = 0
        /// The largest RSS less file-backed pages.
        var maximumAnonymous = 0
        var maximumCost = 0
        /// Samples whose cache cost was over the cache's limit.
        var overLimit = 0
        /// Every sample's RSS, in order.
        var resident: [Int] = []
        /// The most bytes the disk cache held waiting to be written, and what it held at the sample of
        /// ``maximumAnonymous``.
        var maximumWaiting = 0
        var waitingAtMaximumAnonymous = 0
        /// What else held image memory at the sample of ``maximumAnonymous``: the cache's cost, the evicted
        /// pixels kept for reuse, and the decodes running.
        var costAtMaximumAnonymous = 0
        var keptAtMaximumAnonymous = 0
        var decodingAtMaximumAnonymous = 0
        /// glibc's bytes in use and free in its heaps at the sample of ``maximumAnonymous``.
        var allocatorAtMaximumAnonymous: (inUse: Int, free: Int, freeByHeap: [Int])?
        /// Rows on screen whose image the cache evicted, and their cost, at the sample of ``maximumAnonymous``.
        var shownButEvictedAtMaximumAnonymous = (count: 0, cost: 0)
        var maximumShownButEvicted = 0
        /// The most glibc had in use beyond the cache's cost and the pixels kept for reuse, with the sample's index,
        /// the decodes then running and the bytes waiting for the disk cache.
        var maximumUnexplained = (bytes: 0, sample: 0, decoding: 0, waiting: 0)
        /// The most bytes kept for reuse and decodes running in any sample.
        var maximumKept = 0
        var maximumDecoding = 0
    }

    private let figures = Mutex(Figures())
    private let isStopped = Atomic<Bool>(false)
    private let finished = Mutex<CheckedContinuation<Void, Never>?>(nil)
    private let didFinish = Atomic<Bool>(false)

    /// Starts sampling `cache` (and what `diskCache` holds waiting to be written) every `interval`; with a
    /// `trimInterval`, also calls `malloc_trim(0)` that often.
    init(
        cache: MemoryCache,
        diskCache: DiskCache? = nil,
        pipeline: ImagePipeline? = nil,
        slots: ListImageSlots<Int>? = nil,
        interval: Duration,
        trimInterval: Duration?
    ) {
        let thread = Thread { [self] in
            let clock = ContinuousClock()
            var nextTrim = trimInterval.map { clock.now + $0 }
            while !isStopped.load(ordering: .acquiring) {
                sample(cache, diskCache, pipeline, slots)
                if let trim = nextTrim, clock.now >= trim, let trimInterval {
                    ResidentMemory.trim()
                    nextTrim = clock.now + trimInterval
                }
                Thread.sleep(forTimeInterval: interval.seconds)
            }
            sample(cache, diskCache, pipeline, slots)
            let continuation = finished.withLock { continuation in
                didFinish.store(true, ordering: .releasing)
                return continuation.take()
            }
            continuation?.resume()
        }
        thread.name = "memory-sampler"
        thread.start()
    }

    private func sample(
        _ cache: MemoryCache,
        _ diskCache: DiskCache?,
        _ pipeline: ImagePipeline?,
        _ slots: ListImageSlots<Int>?
    ) {
        let shownButEvicted = slots?.shownButEvicted ?? (count: 0, cost: 0)
        let resident = ResidentMemory.bytes() ?? 0
        let anonymous = ResidentMemory.anonymousBytes() ?? 0
        let cost = cache.totalCost
        let limit = cache.costLimit
        let waiting = diskCache?.bytesWaitingToBeWritten ?? 0
        let kept = MemoryCache.bytesKeptForReuse
        let decoding = pipeline?.decodesRunning ?? 0
        let allocator = ResidentMemory.allocator()
        figures.withLock { figures in
            figures.samples += 1
            figures.maximumResident = max(figures.maximumResident, resident)
            if anonymous > figures.maximumAnonymous {
                figures.maximumAnonymous = anonymous
                figures.waitingAtMaximumAnonymous = waiting
                figures.costAtMaximumAnonymous = cost
                figures.keptAtMaximumAnonymous = kept
                figures.decodingAtMaximumAnonymous = decoding
                figures.allocatorAtMaximumAnonymous = allocator
                figures.shownButEvictedAtMaximumAnonymous = shownButEvicted
            }
            figures.maximumKept = max(figures.maximumKept, kept)
            figures.maximumShownButEvicted = max(figures.maximumShownButEvicted, shownButEvicted.cost)
            if let allocator, allocator.inUse - cost - kept > figures.maximumUnexplained.bytes {
                figures.maximumUnexplained = (allocator.inUse - cost - kept, figures.samples, decoding, waiting)
            }
            figures.maximumDecoding = max(figures.maximumDecoding, decoding)
            figures.maximumWaiting = max(figures.maximumWaiting, waiting)
            figures.maximumCost = max(figures.maximumCost, cost)
            if cost > limit { figures.overLimit += 1 }
            figures.resident.append(resident)
        }
    }

    /// Stops sampling after one last sample; returns the figures.
    func stop() async -> Figures {
        isStopped.store(true, ordering: .releasing)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isDone = finished.withLock { stored -> Bool in
                if didFinish.load(ordering: .acquiring) { return true }
                stored = continuation
                return false
            }
            if isDone { continuation.resume() }
        }
        return figures.withLock { $0 }
    }
}
