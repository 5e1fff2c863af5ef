// Lookahead fuzzing — the GIF decoder: any input is an image or a typed error, never a crash or a hang.

import Foundation
import Lookahead

private let decoder = ImageDecoders.GIF()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    // A small pixel limit keeps each run fast; thumbnails exercise the scaled paths too.
    let thumbnail: ThumbnailOptions? = count % 2 == 0 ? nil : ThumbnailOptions(maximumPixelSize: 32)
    let context = ImageDecodingContext(thumbnail: thumbnail, maximumPixelCount: 4_000_000)
    if let image = try? decoder.decode(data, context: context) {
        precondition(image.pixels.count == image.height * image.bytesPerRow, "bitmap geometry is inconsistent")
    }
    _ = ImageDecoders.decode(data, context: context)
    return 0
}
