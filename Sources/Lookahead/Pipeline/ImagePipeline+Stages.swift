// Lookahead — the work of each stage: load data, decode, process.

import Foundation

extension ImagePipeline {
    /// Loads data with the configured loader, enforcing the size limit even if the loader does not.
    func load(_ request: ImageRequest, operation: Int) async -> Result<DataLoadResponse, Error> {
        guard let url = request.url else { return .failure(.invalidURL(nil)) }
        let limit = configuration.maximumResponseSize
        configuration.eventHandler?(.dataLoadStarted(url))
        let dataRequest = DataLoadRequest(url: url, maximumResponseSize: limit) { [weak self] completed, total in
            self?.operationProgressed(operation, completed: completed, total: total)
        }
        let result: Result<DataLoadResponse, Error>
        do {
            let response = try await configuration.dataLoader.loadData(for: dataRequest)
            if Task.isCancelled {
                result = .failure(.cancelled)
            } else if response.data.isEmpty {
                result = .failure(.dataIsEmpty)
            } else if let limit, response.data.count > limit {
                result = .failure(.responseTooLarge(limit: limit))
            } else {
                result = .success(response)
            }
        } catch {
            result = .failure(Error(loading: error))
        }
        switch result {
        case .success(let response):
            configuration.eventHandler?(.dataLoadFinished(url, byteCount: response.data.count))
        case .failure(let error):
            if !error.isCancellation { configuration.eventHandler?(.dataLoadFailed(url, error)) }
        }
        return result
    }

    /// Decodes data with the first decoder that recognises it. Runs on the decode queue.
    func decode(_ data: DataLoadResponse, for request: ImageRequest) -> Result<TaskGraph.Output, Error> {
        guard let decoder = ImageDecoders.decoder(for: data.data, in: configuration.decoders) else {
            return .failure(.noDecoder(header: ImageDecoders.hexHeader(data.data)))
        }
        let context = ImageDecodingContext(
            thumbnail: request.thumbnail,
            maximumPixelCount: configuration.maximumPixelCount
        )
        let start = ContinuousClock.now
        do {
            let image = try decoder.decode(data.data, context: context)
            configuration.eventHandler?(
                .imageDecoded(request.decodeKey, width: image.width, height: image.height, duration: .now - start)
            )
            return .success(TaskGraph.Output(image: image, response: data.response))
        } catch {
            return .failure(Error(decoding: error))
        }
    }

    /// Applies the request's processors in order. Runs on the decode queue.
    func process(_ input: TaskGraph.Output, for request: ImageRequest) -> Result<TaskGraph.Output, Error> {
        var image = input.image
        for processor in request.processors {
            do {
                image = try processor.process(image)
            } catch {
                return .failure(.processingFailed(identifier: processor.identifier, message: "\(error)"))
            }
        }
        return .success(TaskGraph.Output(image: image, response: input.response))
    }
}
