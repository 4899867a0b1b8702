import Crypto
public import Foundation
public import NIOSSL
import SwiftASN1
import X509

/// A self-signed certificate for a stand-in on loopback (`localhost`, `127.0.0.1` and `::1`),
/// made in memory: the stand-in serves with it, and the sender trusts it (`--apns-ca-file`).
public struct StandInCertificate: Sendable {
    /// The certificate, PEM.
    public let certificatePEM: String
    /// Its private key, PEM.
    public let privateKeyPEM: String

    /// A new certificate valid from an hour ago for a year.
    public init(now: Date = Date()) throws {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("Actionable APNs stand-in") }
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
            SubjectAlternativeNames([
                .dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                .ipAddress(ASN1OctetString(contentBytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])),
            ])
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(365 * 86400), issuer: name,
            subject: name, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions, issuerPrivateKey: .init(key))
        certificatePEM = try certificate.serializeAsPEM().pemString
        privateKeyPEM = key.pemRepresentation
    }

    /// A TLS configuration for a stand-in serving with this certificate (TLS 1.2 at least).
    public func serverConfiguration() throws -> TLSConfiguration {
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8)).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)))
        tls.minimumTLSVersion = .tlsv12
        return tls
    }

    /// A certificate read from PEM files.
    public init(certificatePEM: String, privateKeyPEM: String) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
    }
}
