// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — one switch over an error's reason separates offline, broken image and server failure.

import Foundation
import Testing

@testable import Lookahead

@Suite struct ImagePipelineErrorReasonTests {
    private static func loading(_ error: any Error) -> ImagePipeline.Error { ImagePipeline.Error(loading: error) }

    @Test func transportFailuresAreUnreachableWithTheirKind() {
        for kind in TransportFailure.Kind.allCases where kind != .cancelledBySystem {
            let error = Self.loading(DataLoadingError.transportFailed(TransportFailure(kind: kind, message: "")))
            #expect(error.reason == .unreachable(kind))
        }
        #expect(Self.loading(DataLoadingError.timedOut(.idle(.seconds(1)))).reason == .unreachable(nil))
        #expect(Self.loading(DataLoadingError.truncated(received: 1, expected: 2)).reason == .unreachable(nil))
        let system = DataLoadingError.transportFailed(TransportFailure(kind: .cancelledBySystem, message: ""))
        #expect(Self.loading(system).reason == .cancelled)
    }

    @Test func statusesAreServerErrors() {
        #expect(Self.loading(DataLoadingError.statusCodeUnacceptable(503, nil)).reason == .serverError(statusCode: 503))
        #expect(ImagePipeline.Error.statusCodeUnacceptable(404).reason == .serverError(statusCode: 404))
    }

    @Test func badBytesAreInvalidImages() {
        #expect(ImagePipeline.Error.noDecoder(header: "3c21").reason == .invalidImage)
        #expect(ImagePipeline.Error.decodingFailed(codec: "JPEG", message: "").reason == .invalidImage)
        #expect(ImagePipeline.Error.imageTooLarge(width: 1, height: 1, limit: 0).reason == .invalidImage)
        #expect(ImagePipeline.Error.dataIsEmpty.reason == .invalidImage)
    }

    @Test func aBackoffHasTheReasonOfTheFailureBehindIt() {
        let offline = Self.loading(DataLoadingError.transportFailed(TransportFailure(kind: .offline, message: "")))
        #expect(
            ImagePipeline.Error.failureBackoff(lastError: offline, retryIn: .seconds(2)).reason
                == .unreachable(.offline)
        )
        let broken = ImagePipeline.Error.failureBackoff(lastError: .noDecoder(header: ""), retryIn: nil)
        #expect(broken.reason == .invalidImage)
    }

    @Test func whatCannotLoadHereIsNotLoadable() {
        #expect(ImagePipeline.Error.invalidURL(nil).reason == .notLoadable)
        #expect(ImagePipeline.Error.dataMissingInCache.reason == .notLoadable)
        #expect(
            Self.loading(DataLoadingError.insecureRedirect(URL(string: "http://a.example")!)).reason == .notLoadable
        )
        #expect(ImagePipeline.Error.cancelled.reason == .cancelled)
    }

    @Test func aURLErrorStaysReachable() {
        let failure = TransportFailure(URLError(.notConnectedToInternet))
        #expect(failure.kind == .offline)
        #expect(failure.urlError?.code == .notConnectedToInternet)
        #expect(TransportFailure(URLError(.serverCertificateUntrusted)).kind == .tls)
        #expect(TransportFailure(URLError(.cannotFindHost)).kind == .hostNotFound)
    }
}
