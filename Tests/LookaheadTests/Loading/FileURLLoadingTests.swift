// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — file URLs through the default data loader and the pipeline, when local files are allowed.

import Foundation
import Testing

@testable import Lookahead

@Suite struct FileURLLoadingTests {
    private static var localFiles: DataLoaderOptions {
        var options = DataLoaderOptions()
        options.allowsLocalFiles = true
        return options
    }

    private func pipeline(maximumResponseSize: Int? = 64 << 20) -> ImagePipeline {
        ImagePipeline {
            $0.diskCache = nil
            $0.dataLoader = DefaultDataLoader(options: Self.localFiles)
            $0.maximumResponseSize = maximumResponseSize
        }
    }

    @Test func aLocalJPEGLoadsThroughThePipeline() async throws {
        let folder = TemporaryDirectory()
        let url = folder.url.appendingPathComponent("photo.jpg")
        try TestImages.jpeg.write(to: url)
        let response = try await pipeline().image(for: ImageRequest(url: url))
        #expect(response.image.pixelWidth == 64 && response.image.pixelHeight == 48)
        #expect(response.cacheType == nil)
    }

    @Test func localFilesStayOutOfTheDiskCache() async throws {
        let folder = TemporaryDirectory()
        let url = folder.url.appendingPathComponent("photo.jpg")
        try TestImages.jpeg.write(to: url)
        let cacheFolder = TemporaryDirectory()
        let disk = DiskCache(directory: cacheFolder.url)
        let pipeline = ImagePipeline {
            $0.diskCache = disk
            $0.dataLoader = DefaultDataLoader(options: Self.localFiles)
            $0.memoryCache = nil
        }
        _ = try await pipeline.image(for: ImageRequest(url: url))
        await disk.flush()
        #expect(disk.cachedData(for: url.absoluteString) == nil)
        // A remote URL would have been stored: the same cache takes data as usual.
        disk.storeData(Data([1, 2, 3]), for: "https://example.com/a.jpg")
        #expect(disk.cachedData(for: "https://example.com/a.jpg") == Data([1, 2, 3]))
    }

    @Test func aMissingFileIsADataLoadingError() async {
        let folder = TemporaryDirectory()
        let url = folder.url.appendingPathComponent("missing.jpg")
        await #expect {
            _ = try await pipeline().image(for: ImageRequest(url: url))
        } throws: { error in
            guard case .dataLoadingFailed(let underlying) = error as? ImagePipeline.Error,
                case .fileUnreadable(let path, _) = underlying as? DataLoadingError
            else { return false }
            return path == url.path
        }
    }

    @Test func localFilesAreOffByDefault() async throws {
        let folder = TemporaryDirectory()
        let url = folder.url.appendingPathComponent("photo.jpg")
        try TestImages.jpeg.write(to: url)
        let pipeline = ImagePipeline { $0.diskCache = nil }
        await #expect {
            _ = try await pipeline.image(for: ImageRequest(url: url))
        } throws: { error in
            guard case .unsupportedScheme(let scheme) = error as? ImagePipeline.Error else { return false }
            return scheme == "file"
        }
    }

    @Test(arguments: ["fifo", "folder"])
    func onlyRegularFilesAreRead(kind: String) async throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/" + kind
        if kind == "fifo" {
            // Nobody ever writes to it: a blocking open or read would hang here forever.
            #expect(mkfifo(path, 0o600) == 0)
        } else {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
        await #expect {
            _ = try await pipeline().image(for: ImageRequest(url: URL(fileURLWithPath: path)))
        } throws: { error in
            guard case .dataLoadingFailed(let underlying) = error as? ImagePipeline.Error,
                case .fileUnreadable(_, let reason) = underlying as? DataLoadingError
            else { return false }
            return reason == "not a regular file"
        }
    }

    @Test func aFileOverTheSizeLimitIsRejectedBeforeDecoding() async throws {
        let folder = TemporaryDirectory()
        let url = folder.url.appendingPathComponent("photo.jpg")
        try TestImages.jpeg.write(to: url)
        let limit = TestImages.jpeg.count - 1
        await #expect {
            _ = try await pipeline(maximumResponseSize: limit).image(for: ImageRequest(url: url))
        } throws: { error in
            guard case .responseTooLarge(let reported) = error as? ImagePipeline.Error else { return false }
            return reported == limit
        }
    }

    @Test func anEmptyFileIsEmptyData() async throws {
        let folder = TemporaryDirectory()
        let url = folder.url.appendingPathComponent("empty.jpg")
        try Data().write(to: url)
        await #expect {
            _ = try await pipeline().image(for: ImageRequest(url: url))
        } throws: { error in
            guard case .dataIsEmpty = error as? ImagePipeline.Error else { return false }
            return true
        }
    }
}
