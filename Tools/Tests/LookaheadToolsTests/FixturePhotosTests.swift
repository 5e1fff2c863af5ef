// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — the fixture server's photo covers: a folder of JPEGs written at run time, served over real
// HTTP, resized server-side.

import Foundation
import Lookahead
import Testing

@testable import LookaheadFixtures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite(.timeLimit(.minutes(1)))
struct FixturePhotosTests {
    /// One photo written into the test folder: a solid colour, so a decoded cover shows which photo it is.
    struct TestPhoto: Sendable {
        var fileName: String
        var title: String
        /// The upright size (after the EXIF orientation).
        var width: Int
        var height: Int
        var color: (red: UInt8, green: UInt8, blue: UInt8)
        /// Stored with EXIF orientation 6 (rotated 90°): the stored pixels are `height` × `width`.
        var isRotated = false
    }

    /// In the order the server sorts them (by file name: upper case before lower case).
    static let photos = [
        TestPhoto(fileName: "GreenMeadow.jpg", title: "Green Meadow", width: 320, height: 200, color: (40, 200, 60)),
        TestPhoto(fileName: "Wood.jpg", title: "Wood", width: 400, height: 300, color: (150, 90, 30)),
        TestPhoto(fileName: "aqua-drops.JPEG", title: "Aqua Drops", width: 150, height: 200, color: (30, 80, 220)),
        TestPhoto(
            fileName: "rotated_leaf.jpg",
            title: "Rotated Leaf",
            width: 100,
            height: 200,
            color: (230, 220, 40),
            isRotated: true
        ),
    ]

    // MARK: - The media page

    @Test func pageTitlesAndAspectRatiosComeFromThePhotos() async throws {
        try await withPhotoServer(mediaCount: 9) { server, client, _ in
            #expect(server.photoCount == 4)
            let (data, response) = try await client.get(server.mediaPageURL(limit: 20))
            #expect(response.statusCode == 200)
            let items = try JSONDecoder().decode([MediaItem].self, from: data)
            let titles = Self.photos.map(\.title)
            #expect(items.map(\.title) == titles + titles.map { "\($0) 2" } + ["Green Meadow 3"])
            let ratios = Self.photos.map { Double($0.width) / Double($0.height) }
            #expect(items.map(\.thumbnail.aspectRatio) == ratios + ratios + [ratios[0]])
            // The rest of the item keeps its shape.
            #expect(items.map(\.id) == (1...9).map { "media-\($0)" })
            #expect(items.map(\.thumbnail.key) == (1...9).map { "cover-\($0).jpg" })
        }
    }

    // MARK: - Covers

    @Test func resizedCoversHaveTheRequestedWidthAndThePhotosProportionsAndColours() async throws {
        try await withPhotoServer { server, client, _ in
            for (index, photo) in Self.photos.enumerated() {
                let (data, response) = try await client.get(server.url("/media/240/cover-\(index + 1).jpg"))
                #expect(response.statusCode == 200)
                #expect(response.value(forHTTPHeaderField: "Content-Type") == "image/jpeg")
                let bitmap = try ImageDecoders.decode(data, context: .init()).get().image
                #expect(bitmap.width == 240)
                #expect(bitmap.height == Int((240 * Double(photo.height) / Double(photo.width)).rounded()))
                let center = bitmap[bitmap.width / 2, bitmap.height / 2]
                #expect(abs(Int(center.red) - Int(photo.color.red)) <= 12, "\(photo.fileName): \(center)")
                #expect(abs(Int(center.green) - Int(photo.color.green)) <= 12, "\(photo.fileName): \(center)")
                #expect(abs(Int(center.blue) - Int(photo.color.blue)) <= 12, "\(photo.fileName): \(center)")
            }
        }
    }

    @Test func qualityZeroServesThePhotoFileUnchanged() async throws {
        try await withPhotoServer { server, client, folder in
            for (index, photo) in Self.photos.enumerated() {
                let file = try Data(contentsOf: folder.appendingPathComponent(photo.fileName))
                let (data, response) = try await client.get(server.url("/media/0/cover-\(index + 1).jpg"))
                #expect(response.statusCode == 200)
                #expect(data == file, "\(photo.fileName)")
            }
        }
    }

    @Test func repeatedRequestsAndWrappedItemsReturnIdenticalBytes() async throws {
        try await withPhotoServer { server, client, _ in
            let firstURL = server.url("/media/240/cover-1.jpg")
            let (first, _) = try await client.get(firstURL)
            let (again, _) = try await client.get(firstURL)
            #expect(server.requestCount(forPath: firstURL.path) == 2)
            #expect(!first.isEmpty)
            #expect(again == first)
            // Item count + 1 shows the first photo again.
            let (wrapped, _) = try await client.get(server.coverURL(Self.photos.count + 1, width: 240))
            #expect(wrapped == first)
            let (wrappedOriginal, _) = try await client.get(server.url("/media/0/cover-\(Self.photos.count + 1).jpg"))
            let (original, _) = try await client.get(server.url("/media/0/cover-1.jpg"))
            #expect(wrappedOriginal == original)
            // A different photo gives different bytes.
            let (second, _) = try await client.get(server.coverURL(2, width: 240))
            #expect(second != first)
        }
    }

    @Test func faultInjectionStillAppliesToPhotoCovers() async throws {
        try await withPhotoServer(faults: .init(truncationRate: 1)) { server, client, folder in
            let file = try Data(contentsOf: folder.appendingPathComponent(Self.photos[1].fileName))
            let (data, response) = try await client.get(server.url("/media/0/cover-2.jpg"))
            #expect(response.statusCode == 200)
            #expect(data == file.prefix(file.count / 2))
            #expect(server.injectedFaults.truncations == 1)
        }
    }

    @Test func generatedPicturesWithoutAPhotosFolder() async throws {
        try await withFixtureServer(.init { $0.mediaCount = 3 }) { server, client in
            #expect(server.photoCount == 0)
            let (data, _) = try await client.get(server.mediaPageURL())
            let items = try JSONDecoder().decode([MediaItem].self, from: data)
            #expect(items.map(\.title) == ["Hello 1", "Hello 2", "Hello 3"])
        }
    }

    // MARK: - Folders

    @Test func aFolderWithoutJPEGsOrAMissingFolderFailsToStart() async throws {
        let folder = try Self.makeFolder(photos: [])
        defer { try? FileManager.default.removeItem(at: folder) }
        for candidate in [folder, folder.appendingPathComponent("missing")] {
            await #expect(throws: FixtureServer.Error.self) {
                let server = try await FixtureServer.start(configuration: .init { $0.photosFolder = candidate })
                await server.stop()
            }
        }
    }

    @Test func titlesAreReadableFileNames() {
        #expect(PhotoLibrary.title(fileName: "GreenMeadow.jpg") == "Green Meadow")
        #expect(PhotoLibrary.title(fileName: "rain_drops.jpeg") == "Rain Drops")
        #expect(PhotoLibrary.title(fileName: "Dune.jpg") == "Dune")
        #expect(PhotoLibrary.title(fileName: "two-wings 2.JPG") == "Two Wings 2")
    }

    @Test func programsDefaultToTheSystemPhotosUnlessToldOtherwise() {
        #expect(FixtureServer.photosFolder(option: "none") == nil)
        #expect(FixtureServer.photosFolder(option: "/tmp/x")?.path == "/tmp/x")
        let systemExists = FileManager.default.fileExists(atPath: FixtureServer.systemPhotosFolder.path)
        #expect(FixtureServer.photosFolder(option: nil) == (systemExists ? FixtureServer.systemPhotosFolder : nil))
    }

    // MARK: - Helpers

    /// Writes ``photos`` (and a file that is not a JPEG) into a fresh folder, starts a server showing them, runs
    /// `body`, and cleans up.
    private func withPhotoServer(
        mediaCount: Int = 20,
        faults: FixtureServer.FaultInjection = .none,
        _ body: (FixtureServer, FixtureClient, URL) async throws -> Void
    ) async throws {
        let folder = try Self.makeFolder(photos: Self.photos)
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = FixtureServer.Configuration {
            $0.mediaCount = mediaCount
            $0.faults = faults
            $0.photosFolder = folder
        }
        try await withFixtureServer(configuration) { server, client in
            try await body(server, client, folder)
        }
    }

    private static func makeFolder(photos: [TestPhoto]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("lookahead-photos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("not a photo\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        for photo in photos {
            try Data(jpeg(photo)).write(to: folder.appendingPathComponent(photo.fileName))
        }
        return folder
    }

    /// A solid-colour JPEG of `photo`'s stored size, with an EXIF orientation 6 segment when it is rotated.
    private static func jpeg(_ photo: TestPhoto) throws -> [UInt8] {
        let (width, height) = photo.isRotated ? (photo.height, photo.width) : (photo.width, photo.height)
        let pixel = [photo.color.red, photo.color.green, photo.color.blue]
        let rgb = [[UInt8]](repeating: pixel, count: width * height).flatMap { $0 }
        var jpeg = try TurboJPEGEncoder.encode(rgb: rgb, width: width, height: height, quality: 90)
        if photo.isRotated {
            // APP1: "Exif\0\0", a big-endian TIFF header, IFD0 with one SHORT entry: orientation (0x0112) = 6.
            let tiff: [UInt8] = [
                0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0,
            ]
            let payload = Array("Exif".utf8) + [0, 0] + tiff
            let length = payload.count + 2
            jpeg.insert(contentsOf: [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload, at: 2)
        }
        return jpeg
    }
}
