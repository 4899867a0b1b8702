import ActionableAPNsTesting
import ArgumentParser
import Foundation
import Hummingbird
import JWTKit
import Logging

/// `actionable apns-stand-in`: a stand-in APNs on this machine (HTTP/2 over TLS), for trying
/// `serve`'s sending and for tests.
struct APNsStandInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apns-stand-in",
        abstract: "Run a stand-in APNs (HTTP/2 over TLS) that checks requests as Apple does and lists what it took at GET /sent.",
        discussion: """
            Without --certificate and --key it makes a self-signed certificate for localhost and 127.0.0.1 and writes it \
            to DIR/certificate.pem (give it to serve as --apns-ca-file). Without --public-key it makes a provider key \
            pair and writes DIR/AuthKey_KID.p8 (give it to serve as --apns-key-file) and DIR/AuthKey_KID.pub.pem.
            """
    )

    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on; 0 picks a free one (the log names it).") var port = 8443
    @Option(help: "The PEM certificate to serve with (with --key).") var certificate: String?
    @Option(help: "The PEM private key of --certificate.") var key: String?
    @Option(name: .customLong("public-key"), help: "The PEM public key of the provider key (AuthKey.p8's).") var publicKey: String?
    @Option(name: .customLong("key-id"), help: "The provider key's id (the token's kid).") var keyID = "STANDIN01"
    @Option(name: .customLong("team-id"), help: "The team every token must name (iss); any team when left out.") var teamID: String?
    @Option(help: "A device answered 410 Unregistered: TOKEN or TOKEN@TIME (Unix ms or ISO 8601; repeatable).")
    var unregistered: [String] = []
    @Option(help: "A device answered with a status and reason: TOKEN=STATUS:REASON (repeatable).") var fail: [String] = []
    @Option(
        name: .customLong("goaway-after"),
        help: "Every N requests, send GOAWAY on the connection that carried the last (the client must resend what it had not started).")
    var goAwayAfter: Int?
    @Option(help: "A device whose streams get a 200 head and then nothing more (a stalled stream; repeatable).")
    var stall: [String] = []
    @Option(help: "Where made certificates and keys are written.") var directory = ".actionable/apns-stand-in"

    func validate() throws {
        if let goAwayAfter, goAwayAfter < 1 { throw ValidationError("--goaway-after must be at least 1") }
        if (certificate == nil) != (key == nil) { throw ValidationError("--certificate and --key go together: give both, or neither") }
        for text in unregistered {
            do { _ = try StandInScript.unregistered(text) } catch { throw ValidationError(error.description) }
        }
        for text in fail {
            do { _ = try StandInScript.failure(text) } catch { throw ValidationError(error.description) }
        }
        for token in stall where !StandInScript.isDeviceToken(token) {
            throw ValidationError("--stall \(token): give a hexadecimal device token")
        }
    }

    func run() async throws {
        let logger = Logger(label: "apns-stand-in")
        let folder = URL(fileURLWithPath: directory)
        let served = try StandInFiles.certificate(certificate, key: key, folder: folder, logger: logger)
        let providerKey: ES256PublicKey
        if let publicKey {
            do {
                providerKey = try ES256PublicKey(pem: try StandInFiles.read(publicKey))
            } catch {
                throw refuse("\(publicKey) is not a PEM ES256 public key: \(error)")
            }
        } else {
            let pair = ES256PrivateKey()
            try StandInFiles.write(
                Data(pair.pemRepresentation.utf8), to: folder.appendingPathComponent("AuthKey_\(keyID).p8"), secret: true, logger: logger)
            try StandInFiles.write(
                Data(pair.publicKey.pemRepresentation.utf8), to: folder.appendingPathComponent("AuthKey_\(keyID).pub.pem"), logger: logger)
            providerKey = pair.publicKey
        }
        var unregisteredTokens: [String: Date?] = [:]
        for text in unregistered {
            let (token, since) = try StandInScript.unregistered(text)
            unregisteredTokens[token] = since
        }
        var failures: [String: (status: Int, reason: String)] = [:]
        for text in fail {
            let (token, status, reason) = try StandInScript.failure(text)
            failures[token] = (status, reason)
        }
        let standIn = await APNsStandIn(
            configuration: .init(
                providerKeys: [keyID: providerKey], teamID: teamID, unregistered: unregisteredTokens, failures: failures,
                goAwayAfter: goAwayAfter, stalled: Set(stall)))
        let host = self.host
        let app = try standIn.application(host: host, port: port, certificate: served, logger: logger) { bound in
            logger.info("APNs stand-in on https://\(host):\(bound) (HTTP/2); GET /sent lists what it took")
        }
        try await app.runService()
    }
}
