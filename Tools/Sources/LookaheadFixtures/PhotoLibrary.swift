// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — PhotoLibrary: the camera photos the fixture server serves as media covers.

import Dispatch
import Foundation
import Hummingbird
import Lookahead

/// The JPEG files of one folder, sorted by file name, read once when the server starts.
///
/// Media item n shows photo `(n - 1) mod count`. Resized copies are made the way an image CDN makes them:
/// decoded with Lookahead's own decoders (DCT-scaled to the smallest size still covering the target), resampled
/// to the exact size, and re-encoded as JPEG.
struct PhotoLibrary: Sendable {
    /// One photo file.
    struct Photo: Sendable {
        /// The file name, e.g. `GreenMeadow.jpg`.
        var fileName: String
        /// A readable name made from the file name, e.g. `Green Meadow`.
        var title: String
        /// The file's bytes.
        var data: Data
        /// The file's bytes, as served for the original quality.
        var original: ByteBuffer
        /// The upright width in pixels (after the EXIF orientation).
        var width: Int
        /// The upright height in pixels (after the EXIF orientation).
        var height: Int
    }

    /// The folder the photos were read from.
    let folder: URL
    /// The photos, sorted by file name; never empty.
    let photos: [Photo]

    /// The photo of media item `number` (1-based): photo `(number - 1) mod count`.
    func photo(number: Int) -> Photo {
        photos[index(number: number)]
    }

    /// The index in ``photos`` of media item `number` (1-based).
    func index(number: Int) -> Int {
        (max(number, 1) - 1) % photos.count
    }

    /// The title of media item `number`: the photo's title, followed by 2, 3, … on the second, third, … pass
    /// through the folder ("Dune", later "Dune 2").
    func title(number: Int) -> String {
        let pass = (max(number, 1) - 1) / photos.count
        let title = photo(number: number).title
        return pass == 0 ? title : "\(title) \(pass + 1)"
    }

    /// The size of media item `number`'s picture at `width`: as tall as the photo's aspect ratio makes it, rounded,
    /// clamped to `1...FixtureImages.maximumDimension`.
    func size(number: Int, width: Int) -> FixtureServer.ImageSize {
        let photo = photo(number: number)
        let height = (Double(width) * Double(photo.height) / Double(photo.width)).rounded()
        return .init(width: width, height: FixtureImages.clampedDimension(Int(height)))
    }

    /// Photo `index` resized to exactly `width` × `height` and encoded as a JPEG at `quality`. Blocks: call it off
    /// the concurrency pool.
    func encoded(
        index: Int,
        width: Int,
        height: Int,
        quality: Int,
        format: EncodedImageCache.Key.Format
    ) throws(FixtureServer.Error) -> [UInt8] {
        let photo = photos[index]
        let header = photo.data.prefix(32)
        guard let decoder = ImageDecoders.default.first(where: { $0.canDecode(header) }) else {
            throw .photoFailed(reason: "\(photo.fileName): no decoder recognises it")
        }
        let context = ImageDecodingContext(
            thumbnail: ThumbnailOptions(width: width, height: height, contentMode: .aspectFill)
        )
        let decoded: Bitmap
        do {
            decoded = try decoder.decode(photo.data, context: context)
        } catch {
            throw .photoFailed(reason: "\(photo.fileName): \(error.description)")
        }
        let resized = Resampler.resize(decoded, width: width, height: height)
        if format == .webp {
            return try WebPEncoder.encode(
                resized.pixels,
                width: resized.width,
                height: resized.height,
                bytesPerRow: resized.bytesPerRow,
                hasAlpha: true,
                quality: quality
            )
        }
        return try TurboJPEGEncoder.encode(
            rgba: resized.pixels,
            width: resized.width,
            height: resized.height,
            bytesPerRow: resized.bytesPerRow,
            quality: quality
        )
    }

    // MARK: - Loading

    /// Reads the photos of `folder` on a Dispatch queue, off the concurrency pool.
    static func load(folder: URL) async throws(FixtureServer.Error) -> PhotoLibrary {
        let result = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    returning: Result { () throws(FixtureServer.Error) -> PhotoLibrary in try read(folder: folder) }
                )
            }
        }
        return try result.get()
    }

    /// Reads every `.jpg` or `.jpeg` file of `folder` (any case), sorted by file name. Blocks.
    ///
    /// - Throws: ``FixtureServer/Error/startFailed(reason:)`` if the folder cannot be listed, holds no JPEG, or a
    ///   file cannot be read or has no readable JPEG header.
    static func read(folder: URL) throws(FixtureServer.Error) -> PhotoLibrary {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw .startFailed(reason: "cannot list the photos folder \(folder.path): \(error.localizedDescription)")
        }
        let jpegNames = names.filter { ["jpg", "jpeg"].contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }
            .sorted()
        var photos: [Photo] = []
        for name in jpegNames {
            let url = folder.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw .startFailed(reason: "cannot read the photo \(url.path): \(error.localizedDescription)")
            }
            guard let stored = TurboJPEGEncoder.size(ofJPEG: data) else {
                throw .startFailed(reason: "\(url.path) has no JPEG header libjpeg-turbo can read")
            }
            let isTurned = ExifOrientation.jpeg(data).swapsDimensions
            photos.append(
                Photo(
                    fileName: name,
                    title: title(fileName: name),
                    data: data,
                    original: ByteBuffer(bytes: data),
                    width: isTurned ? stored.height : stored.width,
                    height: isTurned ? stored.width : stored.height
                )
            )
        }
        guard !photos.isEmpty else {
            throw .startFailed(reason: "the photos folder \(folder.path) holds no .jpg or .jpeg file")
        }
        return PhotoLibrary(folder: folder, photos: photos)
    }

    /// A readable title for a file name: the extension dropped, words split at `_`, `-`, spaces and lower-to-upper
    /// case changes, each word capitalised ("GreenMeadow.jpg" → "Green Meadow", "rain_drops.jpeg" → "Rain Drops").
    static func title(fileName: String) -> String {
        let stem = URL(fileURLWithPath: fileName).deletingPathExtension().lastPathComponent
        var words: [String] = []
        var current = ""
        var previous: Character?
        for character in stem {
            if character == "_" || character == "-" || character == " " {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                if character.isUppercase, let previous, previous.isLowercase || previous.isNumber, !current.isEmpty {
                    words.append(current)
                    current = ""
                }
                current.append(character)
            }
            previous = character
        }
        if !current.isEmpty { words.append(current) }
        let title = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
        return title.isEmpty ? fileName : title
    }
}
