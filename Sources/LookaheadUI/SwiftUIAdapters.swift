// LookaheadUI — SwiftUI: LazyImage over ImageSlot, and a modifier that feeds ForEach rows to the controller.
// Apple platforms only: this file is empty on Linux and cannot be built or tested there.

#if canImport(SwiftUI)
import Foundation
public import Lookahead
public import SwiftUI

/// An image loaded through an ``ImageSlot``: a memory hit shows in the first frame, no placeholder flash.
public struct LazyImage<Placeholder: View>: View {
    private let request: ImageRequest?
    private let pipeline: ImagePipeline
    private let placeholder: Placeholder
    @State private var model = Model()

    public init(request: ImageRequest?, pipeline: ImagePipeline = .shared, @ViewBuilder placeholder: () -> Placeholder)
    {
        self.request = request
        self.pipeline = pipeline
        self.placeholder = placeholder()
    }

    public var body: some View {
        Group {
            if let image = model.image {
                Image(decorative: image, scale: 1).resizable()
            } else {
                placeholder
            }
        }
        .onAppear { model.bind(pipeline: pipeline, request: request) }
        .onChange(of: request?.url) { _, _ in model.bind(pipeline: pipeline, request: request) }
        .onDisappear { model.slot?.prepareForReuse() }
    }

    @MainActor @Observable final class Model {
        var image: CGImage?
        var slot: ImageSlot?

        func bind(pipeline: ImagePipeline, request: ImageRequest?) {
            if slot == nil {
                slot = ImageSlot(pipeline: pipeline) { [weak self] state in
                    let image = state.image?.cgImage
                    DispatchQueue.main.async { self?.image = image }
                }
            }
            image = request.flatMap { pipeline.cachedImage(for: $0)?.cgImage }
            slot?.configure(with: request)
        }
    }
}

extension View {
    /// Reports this row's appearance to a prefetch coordinator (SwiftUI's `onAppear`/`onDisappear`).
    public func prefetching(row: Int, in coordinator: PrefetchCoordinator) -> some View {
        onAppear { coordinator.rowAppeared(row) }.onDisappear { coordinator.rowDisappeared(row) }
    }
}

/// Drives a ``ListImageLoader`` from a SwiftUI list: the rows on screen are those that appeared and have not
/// disappeared.
@MainActor @Observable public final class PrefetchCoordinator {
    /// The loader: its window and prefetcher.
    public let loader: ListImageLoader
    private let request: (Int) -> ImageRequest?
    private var appeared: Set<Int> = []

    public init(
        itemCount: Int,
        pipeline: ImagePipeline = .shared,
        configuration: ListImageLoader.Configuration = ListImageLoader.Configuration(),
        request: @escaping (Int) -> ImageRequest?
    ) {
        self.loader = ListImageLoader(pipeline: pipeline, itemCount: itemCount, configuration: configuration)
        self.request = request
    }

    public func rowAppeared(_ row: Int) {
        appeared.insert(row)
        visibleRowsChanged()
    }

    public func rowDisappeared(_ row: Int) {
        appeared.remove(row)
        visibleRowsChanged()
    }

    private func visibleRowsChanged() {
        guard let low = appeared.min(), let high = appeared.max() else { return }
        loader.visibleRowsChanged(low..<(high + 1), requests: request)
    }
}
#endif
