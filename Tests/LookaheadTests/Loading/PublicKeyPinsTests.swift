// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — public-key pins: the SubjectPublicKeyInfo found in a certificate's DER hashes to what
// `openssl x509 -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64` prints.

import Foundation
import Testing

@testable import Lookahead

@Suite struct PublicKeyPinsTests {
    /// A self-signed P-256 certificate and an RSA-2048 one, made by `openssl req -x509` for these tests.
    private static let ecCertificate = """
        -----BEGIN CERTIFICATE-----
        MIIBhTCCASugAwIBAgIUd10QwBrPu9bmqf+gUImFgOGjr0EwCgYIKoZIzj0EAwIw
        FzEVMBMGA1UEAwwMcGlucy5leGFtcGxlMCAXDTI2MTIwMjIxNTczMVoYDzIxMjYx
        MTA4MjE1NzMxWjAXMRUwEwYDVQQDDAxwaW5zLmV4YW1wbGUwWTATBgcqhkjOPQIB
        BggqhkjOPQMBBwNCAARWZl3nNPpZJxOsJBKF8iJhz0gTdpMWr7nT6SkJaVYRrzYk
        5t9PHYB4YwPuM4sPZ/A6CCqr1na1YhLfoMQ5oMv9o1MwUTAdBgNVHQ4EFgQUMQ92
        evgPGligWAP1CQ4tlPYRl70wHwYDVR0jBBgwFoAUMQ92evgPGligWAP1CQ4tlPYR
        l70wDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNIADBFAiEA75gJTc739g2J
        6dNlX27FsBCb45GNCaCsQYQyT3csgFQCIB4gdMwbrpCm/cUVUVkEKInw+06v1Tcn
        P9JtZMKtBa8R
        -----END CERTIFICATE-----
        """
    private static let ecPin = "vscdmheqy/+VMUVGlKvuI1dvoWplCCXKFKmuUsXIXv4="
    private static let rsaCertificate = """
        -----BEGIN CERTIFICATE-----
        MIIDDzCCAfegAwIBAgIUZLX6KI+eExgZf3QUC89Fyy9ae/swDQYJKoZIhvcNAQEL
        BQAwFjEUMBIGA1UEAwwLcnNhLmV4YW1wbGUwIBcNMjYxMjAyMjE1NzM2WhgPMjEy
        NjExMDgyMTU3MzZaMBYxFDASBgNVBAMMC3JzYS5leGFtcGxlMIIBIjANBgkqhkiG
        9w0BAQEFAAOCAQ8AMIIBCgKCAQEA4+a+XfNLFm7LsmmZUx4IriBMhVOXp3avxBXC
        WUtksOgLVn4J950s1NRRqphvdFWOUmp5Hi8Tg6bvZkRhxkaCc2yPqr7iZCsVmzdE
        gZEKSEmUIKs6sdRsK1tnykjIM482hH+pIMcJD0NVxeTEt3BpxWGFmQIB7SIX8+ke
        Q6IbQqYfhhp3b3zqbA1lXzfQydCBsBqRJC3YCfQevOyvIojlf5fF76ZLmSiCsVHu
        hXN6AEecMyTkB4fo4z8tTYUeGGb8F7j2Y8+4hcVQR6/VEbMoXcGMOuivholueQ81
        Q3qIz36/IEuHdWTBQ6LSqMuh2JqUlSPvG5tEU0Ue+tC1nyuSbwIDAQABo1MwUTAd
        BgNVHQ4EFgQUSN6ZRRSZGJcHURid+o5rH0NGH9EwHwYDVR0jBBgwFoAUSN6ZRRSZ
        GJcHURid+o5rH0NGH9EwDwYDVR0TAQH/BAUwAwEB/zANBgkqhkiG9w0BAQsFAAOC
        AQEAhE6nb99dJiC2GttoGKnkCm0nB61y1dANzQLnGK/VRGnqkH0BNGGx1zmJUcGs
        2LU49d5PBsUZjZ6cCrvh4ThkpdhV+Ed4rtKtFGxEFDXpXslGKLgtl6dvk3siiJ94
        JGM+kQ0R5w/4JrdkXMN/q5mmJRGjxBbC9rcYrQp6XXY7rZUTPkvuPf73KVTIifW+
        WMsqxgsB4/4BBHGRGB9+Tcq1EMJi1du1/JJmu7HfzRo5aOD4X2UfY8qebCHl3Jv3
        4r1hkm2TznClsPDhmragxrrQRp+u6zi9oJAvMlLmmHc+ITmSg8TE3O7QsMGrhs0Q
        9PsQ9rK8/BpsNIk8uclX76IlGw==
        -----END CERTIFICATE-----
        """
    private static let rsaPin = "ZTSMCown/h83NqDiyumz4K3dK/XBfSYcVVaVlAzE0Dc="

    @Test func theKeyOfACertificateHashesToOpenSSLsPin() throws {
        for (pem, pin) in [(Self.ecCertificate, Self.ecPin), (Self.rsaCertificate, Self.rsaPin)] {
            let der = try #require(PublicKeyPins.certificates(pem: Data(pem.utf8)).first)
            #expect(PublicKeyPins.matches(certificate: der, pins: [pin, "backup"]))
            #expect(!PublicKeyPins.matches(certificate: der, pins: [Self.ecPin == pin ? Self.rsaPin : Self.ecPin]))
        }
    }

    @Test func bothCertificatesOfABundleAreRead() {
        let bundle = Data((Self.ecCertificate + "\n" + Self.rsaCertificate + "\n").utf8)
        #expect(PublicKeyPins.certificates(pem: bundle).count == 2)
    }

    @Test func cutOrDamagedCertificatesMatchNoPin() throws {
        let der = try #require(PublicKeyPins.certificates(pem: Data(Self.ecCertificate.utf8)).first)
        for length in 0..<der.count {
            #expect(!PublicKeyPins.matches(certificate: Array(der[..<length]), pins: [Self.ecPin]), "cut at \(length)")
        }
        var longLength = der
        longLength[1] = 0x85  // a five-byte length: not DER
        #expect(PublicKeyPins.subjectPublicKeyInfo(certificate: longLength) == nil)
    }

    @Test func libcurlGetsEveryPinInOneOption() {
        #expect(PublicKeyPins.curlOption(["b", "a"]) == "sha256//a;sha256//b")
    }
}
