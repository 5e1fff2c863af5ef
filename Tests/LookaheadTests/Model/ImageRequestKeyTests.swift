// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation
import Testing

@testable import Lookahead

/// The request keeps its fields and image key in one shared box, its priority and options beside it; every way of
/// building or changing a request must give the key and the fields a request built from scratch has.
@Suite struct ImageRequestKeyTests {
    private let url = URL(string: "https://example.com/images/1.jpg?w=200")!

    @Test func aPlainRequestsKeyIsTheURLsAbsoluteString() {
        let request = ImageRequest(url: url)
        #expect(request.imageKey == ImageCacheKey(imageID: url.absoluteString))
        #expect(request.imageKey.hashValue == ImageCacheKey(imageID: url.absoluteString).hashValue)
        #expect(request.identity == url.absoluteString)
    }

    @Test func aURLWithABaseIsKeyedByItsResolvedString() throws {
        let base = try #require(URL(string: "https://example.com/images/"))
        let relative = try #require(URL(string: "2.jpg?w=200", relativeTo: base))
        #expect(relative.relativeString == "2.jpg?w=200")
        let request = ImageRequest(url: relative)
        #expect(request.identity == "https://example.com/images/2.jpg?w=200")
        #expect(request.imageKey == ImageRequest(url: URL(string: "https://example.com/images/2.jpg?w=200")).imageKey)
    }

    @Test func bothInitializersAgree() {
        let short = ImageRequest(url: url)
        let long = ImageRequest(url: url, priority: .normal, options: [])
        #expect(short == long)
        #expect(short.hashValue == long.hashValue)
        #expect(ImageRequest(url: nil).imageKey == ImageCacheKey(imageID: ""))
    }

    @Test func theKeyFollowsEveryChangeOfAField() {
        let thumbnail = ThumbnailOptions(maximumPixelSize: 64)
        var changed = ImageRequest(url: URL(string: "https://example.com/other.jpg"))
        changed.url = url
        changed.thumbnail = thumbnail
        changed.isAnimated = true
        let built = ImageRequest(url: url, thumbnail: thumbnail, isAnimated: true)
        #expect(changed.imageKey == built.imageKey)
        #expect(changed.imageKey.hashValue == built.imageKey.hashValue)
        #expect(
            built.imageKey
                == ImageCacheKey(imageID: url.absoluteString, thumbnail: thumbnail, processors: [], isAnimated: true)
        )

        changed.imageID = "photo-1"
        #expect(changed.imageKey.imageID == "photo-1")
        #expect(changed.imageKey.thumbnail == thumbnail)
        changed.imageID = nil
        changed.thumbnail = nil
        changed.isAnimated = false
        #expect(changed.imageKey == ImageRequest(url: url).imageKey)
    }

    @Test func priorityAndOptionsKeepTheirValuesSideBySide() {
        let allOptions: ImageRequest.Options = [
            .reloadIgnoringCachedData, .returnCacheDataDontLoad, .disableMemoryCacheReads,
            .disableMemoryCacheWrites, .disableDiskCacheReads, .disableDiskCacheWrites, .skipFailureBackoff,
        ]
        for priority in ImageRequest.Priority.allCases {
            var request = ImageRequest(url: url, priority: priority, options: allOptions)
            #expect(request.priority == priority)
            #expect(request.options == allOptions)
            request.options = [.disableDiskCacheReads]
            #expect(request.priority == priority)
            request.priority = .veryLow
            #expect(request.options == [.disableDiskCacheReads])
            #expect(request.priority == .veryLow)
        }
        var request = ImageRequest(url: url)
        request.options = ImageRequest.Options(rawValue: .max)
        #expect(request.options.rawValue == .max)
        #expect(request.priority == .normal)
    }

    @Test func theKeyAndItsHashIgnorePriorityAndOptions() throws {
        let other = try #require(URL(string: "https://example.com/other.jpg"))
        var request = ImageRequest(url: url)
        let key = request.imageKey
        request.priority = .veryHigh
        request.options = ImageRequest.Options(rawValue: .max)
        #expect(request.imageKey == key)
        #expect(request.imageKey.hashValue == key.hashValue)

        request.url = other
        #expect(request.imageKey == ImageRequest(url: other).imageKey)
        #expect(request.imageKey.hashValue == ImageRequest(url: other).imageKey.hashValue)
        #expect(request.priority == .veryHigh)
        #expect(request.options.rawValue == .max)

        request.thumbnail = ThumbnailOptions(maximumPixelSize: 32)
        #expect(request.priority == .veryHigh)
        #expect(request.options.rawValue == .max)
        #expect(
            request.imageKey.hashValue
                == ImageCacheKey(imageID: other.absoluteString, thumbnail: ThumbnailOptions(maximumPixelSize: 32))
                .hashValue
        )

        request.url = nil
        #expect(request.url == nil)
        #expect(request.priority == .veryHigh)
        #expect(request.options.rawValue == .max)
        request.thumbnail = nil
        #expect(request.imageKey == ImageRequest(url: nil).imageKey)
        request.url = url
        #expect(request.url == url)
        #expect(request.imageKey == ImageRequest(url: url).imageKey)
        #expect(ImageRequest(url: nil, priority: .high, options: [.disableDiskCacheReads]).url == nil)
        #expect(ImageRequest(url: nil).url == nil)
    }

    @Test func eachPartOfAKeyChangesItsHash() {
        let plain = ImageCacheKey(imageID: "a")
        let others = [
            ImageCacheKey(imageID: "b"),
            ImageCacheKey(imageID: "a", thumbnail: ThumbnailOptions(maximumPixelSize: 64)),
            ImageCacheKey(imageID: "a", processors: ["blur"]),
            ImageCacheKey(imageID: "a", processors: [""]),
            ImageCacheKey(imageID: "a", isAnimated: true),
        ]
        for other in others {
            #expect(other != plain)
            #expect(other.hashValue != plain.hashValue, "\(other)")
        }
        #expect(Set(others.map(\.hashValue)).count == others.count)
    }

    @Test func copiesKeepTheirOwnFields() throws {
        let small = ThumbnailOptions(maximumPixelSize: 64)
        let first = ImageRequest(url: url, thumbnail: small)
        var set = ImageRequest(url: url)
        set.thumbnail = small
        #expect(set.imageKey == first.imageKey)
        #expect(set.imageKey.hashValue == first.imageKey.hashValue)

        // A copy that changes a field leaves the original as it was.
        var withHeader = first
        withHeader.headers = ["Authorization": "Bearer token"]
        #expect(first.headers.isEmpty)
        #expect(withHeader.thumbnail == small)
        #expect(withHeader.headers == ["Authorization": "Bearer token"])
        #expect(withHeader.imageKey == first.imageKey)
        #expect(withHeader != first)
        #expect(ImageRequest(url: url, thumbnail: small, isAnimated: true).isAnimated)
        #expect(!ImageRequest(url: url, thumbnail: small).isAnimated)
    }

    @Test func everyThumbnailSizeKeysItsImage() {
        for size in 1...40 {
            let options = ThumbnailOptions(maximumPixelSize: size * 10)
            let request = ImageRequest(url: url, thumbnail: options)
            let key = ImageCacheKey(imageID: url.absoluteString, thumbnail: options)
            #expect(request.thumbnail == options)
            #expect(request.imageKey == key)
            #expect(request.imageKey.hashValue == key.hashValue)
            #expect(request.imageKey != ImageRequest(url: url).imageKey)
            #expect(ImageRequest(url: url, thumbnail: options).imageKey == request.imageKey)
        }
    }
}
