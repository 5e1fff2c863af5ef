// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureServer+Photos: where the programs find camera photos, and the URLs of the covers.

public import Foundation

extension FixtureServer {
    /// The camera photos `scripts/photos` installs: the `nature` folder of Debian's
    /// `mate-backgrounds` (GPL-2+, photographers named in `/usr/share/doc/mate-backgrounds/copyright`).
    public static let systemPhotosFolder = URL(fileURLWithPath: "/usr/share/backgrounds/mate/nature")

    /// The photos folder a `--photos` option names: ``systemPhotosFolder`` when the option is not
    /// given and that folder exists, `nil` (generated pictures) for `none`, else the path given.
    public static func photosFolder(option: String?) -> URL? {
        switch option {
        case nil:
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: systemPhotosFolder.path, isDirectory: &isDirectory)
            return exists && isDirectory.boolValue ? systemPhotosFolder : nil
        case "none"?:
            return nil
        case let path?:
            return URL(fileURLWithPath: path)
        }
    }

    /// The URL of media item `n`'s cover at `width` pixels (see ``MediaThumbnail``), behind
    /// ``Configuration/redirectHops`` redirects like ``imageURL(_:width:height:)``.
    public func coverURL(_ n: Int, width: Int) -> URL {
        let hops = configuration.redirectHops > 0 ? "?hops=\(min(configuration.redirectHops, 5))" : ""
        return url("/\(MediaCatalog.basePath)/\(width)/\(MediaCatalog.key(number: n))" + hops)
    }
}
