// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — the web origin's files: the photos as JPEG at one width, with WebP and AVIF copies beside them
// for the origin that negotiates formats.

import Foundation
import Lookahead
import LookaheadFixtures

/// The folder nginx serves: `photos/N.jpg` for N = 1…count, and `photos/N.jpg.webp` and `photos/N.jpg.avif` where
/// the encoders are installed.
///
/// The JPEGs are the camera photos resized the way the fixture server resizes them (quality 85, as image CDNs
/// serve); the WebP (`cwebp -q 80`, from Debian's `webp`) and AVIF (`avifenc --min 20 --max 30 -s 6`, from
/// Debian's `libavif-bin`) copies are encoded from those JPEGs. Items repeat the photos in turn, so each distinct
/// picture is encoded once and the repeats are hard links. The folder is kept between runs, keyed by width and
/// count, and made again when incomplete.
struct WebOriginFiles {
    /// The document root.
    let root: URL
    /// Photos served.
    let count: Int
    /// Which variants exist beside the JPEGs.
    let hasWebP: Bool
    let hasAVIF: Bool

    /// The path of item `n` (1-based) below the root, e.g. `/photos/7.jpg`.
    static func path(_ n: Int) -> String { "/photos/\(n).jpg" }

    /// Makes the files, or finds them made by an earlier run.
    static func prepare(count: Int, width: Int, photos: String?) async throws -> WebOriginFiles {
        let photosFolder = FixtureServer.photosFolder(option: photos)
        let kind = photosFolder == nil ? "generated" : "photos"
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("lookahead-web-origin-\(kind)-w\(width)-n\(count)")
        let marker = root.appendingPathComponent("complete")
        let cwebp = which("cwebp")
        let avifenc = which("avifenc")
        if let text = try? String(contentsOf: marker, encoding: .utf8) {
            return WebOriginFiles(
                root: root,
                count: count,
                hasWebP: text.contains("webp"),
                hasAVIF: text.contains("avif")
            )
        }
        try? FileManager.default.removeItem(at: root)
        let folder = root.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        print("web: making the origin's files in \(root.path) (once; kept for later runs)…")
        let jpegs = try await fetchJPEGs(count: count, width: width, photosFolder: photosFolder)
        var firstOfContent: [Data: Int] = [:]
        for (index, data) in jpegs.enumerated() {
            let n = index + 1
            let file = folder.appendingPathComponent("\(n).jpg")
            if let first = firstOfContent[data] {
                for suffix in ["", ".webp", ".avif"] {
                    let source = folder.appendingPathComponent("\(first).jpg\(suffix)")
                    guard FileManager.default.fileExists(atPath: source.path) else { continue }
                    try FileManager.default.linkItem(at: source, to: file.appendingPathExtensionLiteral(suffix))
                }
                continue
            }
            firstOfContent[data] = n
            try data.write(to: file)
            if let cwebp { try runCommand(cwebp, ["-quiet", "-q", "80", file.path, "-o", file.path + ".webp"]) }
            if let avifenc {
                try runCommand(
                    avifenc,
                    ["-s", "6", "-j", "all", "--min", "20", "--max", "30", file.path, file.path + ".avif"]
                )
            }
        }
        if cwebp == nil { print("web: cwebp (Debian's webp) is not installed: the origin has no WebP copies") }
        if avifenc == nil {
            print("web: avifenc (Debian's libavif-bin) is not installed: the origin has no AVIF copies")
        }
        let variants = [cwebp == nil ? nil : "webp", avifenc == nil ? nil : "avif"].compactMap { $0 }
        try variants.joined(separator: " ").write(to: marker, atomically: true, encoding: .utf8)
        return WebOriginFiles(root: root, count: count, hasWebP: cwebp != nil, hasAVIF: avifenc != nil)
    }

    /// The fixture server's covers at `width`, quality 85, fetched over loopback HTTP.
    private static func fetchJPEGs(count: Int, width: Int, photosFolder: URL?) async throws -> [Data] {
        let server = try await FixtureServer.start(
            configuration: .init {
                $0.mediaCount = max(240, count)
                $0.photosFolder = photosFolder
                $0.jpegQuality = photosFolder == nil ? 100 : 85
            }
        )
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.advertisesDecodableFormats = false
        }
        var bodies: [Data] = []
        do {
            for n in 1...count {
                bodies.append(try await pipeline.data(for: ImageRequest(url: server.coverURL(n, width: width))).data)
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        return bodies
    }
}

extension URL {
    /// The URL with `suffix` appended to its last path component as it is (`a.jpg` + `.webp` = `a.jpg.webp`).
    fileprivate func appendingPathExtensionLiteral(_ suffix: String) -> URL {
        suffix.isEmpty ? self : URL(fileURLWithPath: path + suffix)
    }
}
