// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Reads local files for the default loaders when ``DataLoaderOptions/allowsLocalFiles`` is on: only a regular file
/// (a FIFO or a device would block a thread forever), in 1 MiB chunks on its own queue, up to the size limit.
enum FileDataReader {
    private static let queue = DispatchQueue(
        label: "Lookahead.FileDataReader",
        qos: .userInitiated,
        attributes: .concurrent
    )
    private static let chunkSize = 1 << 20

    static func load(_ request: DataLoadRequest) async throws -> DataLoadResponse {
        try Task.checkCancellation()
        let path = request.url.path
        let limit = request.maximumResponseSize
        let isCancelled = AtomicInt(0)
        let data = try await ResumeOnce<Data>.run { once in
            queue.async {
                once.resume(with: Result { try readFile(atPath: path, limit: limit) { isCancelled.load() != 0 } })
            }
        } onCancel: {
            isCancelled.store(1)
        }
        try Task.checkCancellation()
        request.progress(Int64(data.count), Int64(data.count))
        return DataLoadResponse(data: data)
    }

    /// Reads a regular file; throws `CancellationError` when cancelled part way, else ``DataLoadingError``.
    private static func readFile(atPath path: String, limit: Int?, isCancelled: () -> Bool) throws -> Data {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path, errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure(path, errno) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw DataLoadingError.fileUnreadable(path: path, reason: "not a regular file")
        }
        let size = Int(info.st_size)
        if let limit, size > limit { throw DataLoadingError.responseTooLarge(limit: limit) }
        // One byte past the limit tells a file that grew from one that fits.
        let ceiling = limit.map { $0 + 1 } ?? Int.max
        var data = Data(capacity: min(size, ceiling))
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while data.count < ceiling {
            if isCancelled() { throw CancellationError() }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(path, errno)
            }
            if count == 0 { break }
            data.append(contentsOf: chunk[0..<min(count, ceiling - data.count)])
        }
        if let limit, data.count > limit { throw DataLoadingError.responseTooLarge(limit: limit) }
        return data
    }

    private static func failure(_ path: String, _ code: Int32) -> DataLoadingError {
        .fileUnreadable(path: path, reason: String(cString: strerror(code)))
    }
}
