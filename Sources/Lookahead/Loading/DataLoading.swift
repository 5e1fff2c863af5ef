// Lookahead — DataLoading: where image data comes from.

public import Foundation

/// Loads the bytes of an image. The default is ``URLSessionDataLoader``; tests and apps can supply their own.
///
/// - Important: Implementations must be thread safe. Cancelling the calling Swift task must stop the
///   transfer and make the method throw `CancellationError` promptly.
public protocol DataLoading: Sendable {
    /// Loads the data for a request, reporting progress as bytes arrive.
    ///
    /// Throw ``DataLoadingError`` for failures the pipeline should report precisely (status codes, size
    /// limits); any other error is reported as ``ImagePipeline/Error/dataLoadingFailed(_:)``.
    func loadData(for request: DataLoadRequest) async throws -> DataLoadResponse
}

/// What a ``DataLoading`` implementation is asked to load.
public struct DataLoadRequest: Sendable {
    /// The location of the data.
    public var url: URL
    /// The largest body to accept; a loader must fail with ``DataLoadingError/responseTooLarge(limit:)``
    /// beyond it, whether or not the response declared its length.
    public var maximumResponseSize: Int?
    /// Called as bytes arrive with the bytes received so far and the expected total, when known.
    public var progress: @Sendable (_ completed: Int64, _ total: Int64?) -> Void

    /// Creates a data request.
    public init(
        url: URL,
        maximumResponseSize: Int? = nil,
        progress: @escaping @Sendable (_ completed: Int64, _ total: Int64?) -> Void = { _, _ in }
    ) {
        self.url = url
        self.maximumResponseSize = maximumResponseSize
        self.progress = progress
    }
}

/// Loaded data and, for HTTP, the response that carried it.
public struct DataLoadResponse: Sendable {
    /// The body.
    public var data: Data
    /// The HTTP response, if the data came over HTTP.
    public var response: HTTPResponseInfo?

    /// Creates a data response.
    public init(data: Data, response: HTTPResponseInfo? = nil) {
        self.data = data
        self.response = response
    }
}

/// Failures a data loader reports so the pipeline can name them precisely.
public enum DataLoadingError: Error, Sendable, CustomStringConvertible {
    /// The server answered with a status code outside 200–299.
    case statusCodeUnacceptable(Int, HTTPResponseInfo?)
    /// The body is, or was declared to be, larger than the limit in bytes.
    case responseTooLarge(limit: Int)
    /// The loader cannot load this kind of URL.
    case unsupportedURL(URL)

    public var description: String {
        switch self {
        case .statusCodeUnacceptable(let code, _): "Status code \(code) is not acceptable"
        case .responseTooLarge(let limit): "Response is larger than the limit of \(limit) bytes"
        case .unsupportedURL(let url): "Unsupported URL: \(url.absoluteString)"
        }
    }
}
