import ActionableAPNsTesting
import ActionableFCM
import ActionableFCMTesting
import ArgumentParser
import Foundation
import Hummingbird
import JWTKit
import Logging

/// `actionable fcm-stand-in`: a stand-in FCM HTTP v1 on this machine (HTTPS), with its own token
/// endpoint, for trying `serve`'s sending to Android devices and for tests.
struct FCMStandInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fcm-stand-in",
        abstract: "Run a stand-in FCM HTTP v1 (HTTPS) that checks grants and messages as Google does and lists what it took at GET /sent.",
        discussion: """
            Without --certificate and --key it makes a self-signed certificate for localhost and 127.0.0.1 and writes it \
            to DIR/certificate.pem (give it to serve as --fcm-ca-file). Without --service-account-public-key it makes a \
            service account whose token endpoint is this stand-in and writes DIR/service-account.json (give it to serve as \
            --fcm-service-account, with --fcm-url https://HOST:PORT) and DIR/service-account.pub.pem.
            """
    )

    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on; 0 picks a free one (the log names it).") var port = 8444
    @Option(help: "The PEM certificate to serve with (with --key).") var certificate: String?
    @Option(help: "The PEM private key of --certificate.") var key: String?
    @Option(
        name: .customLong("service-account-public-key"),
        help: "The PEM public key of the service account whose grants it takes (with --key-id).")
    var serviceAccountPublicKey: String?
    @Option(name: .customLong("key-id"), help: "The service account key's id (private_key_id, the assertion's kid).")
    var keyID = "stand-in-key"
    @Option(name: .customLong("client-email"), help: "The account every assertion must name (iss); any when left out.")
    var clientEmail: String?
    @Option(name: .customLong("project-id"), help: "The project messages may be sent for; any when left out.") var projectID: String?
    @Option(help: "A registration token answered 404 UNREGISTERED (repeatable).") var unregistered: [String] = []
    @Option(help: "A registration token answered with a status and FCM error code: TOKEN=STATUS:CODE (repeatable).")
    var fail: [String] = []
    @Option(help: "Where made certificates and keys are written.") var directory = ".actionable/fcm-stand-in"

    func validate() throws {
        if (certificate == nil) != (key == nil) { throw ValidationError("--certificate and --key go together: give both, or neither") }
        for text in fail {
            do { _ = try FCMStandIn.failure(text) } catch { throw ValidationError(error.description) }
        }
        if unregistered.contains(where: \.isEmpty) { throw ValidationError("--unregistered needs a registration token") }
        if !(0...65535).contains(port) { throw ValidationError("--port \(port): give a port from 0 to 65535") }
    }

    func run() async throws {
        let logger = Logger(label: "fcm-stand-in")
        let folder = URL(fileURLWithPath: directory)
        let served = try StandInFiles.certificate(certificate, key: key, folder: folder, logger: logger)
        // A made account's token endpoint is this stand-in: its file is written once the port is known.
        var made: ServiceAccount?
        let publicKey: Insecure.RSA.PublicKey
        if let serviceAccountPublicKey {
            do {
                publicKey = try Insecure.RSA.PublicKey(pem: try StandInFiles.read(serviceAccountPublicKey))
            } catch {
                throw refuse("\(serviceAccountPublicKey) is not a PEM RSA public key: \(error)")
            }
        } else {
            let (account, publicPEM) = try FCMStandIn.makeServiceAccount(
                projectID: projectID ?? "stand-in-project", clientEmail: clientEmail ?? "sender@stand-in-project.iam.gserviceaccount.com",
                keyID: keyID, tokenURI: "")
            made = account
            publicKey = try Insecure.RSA.PublicKey(pem: publicPEM)
            try StandInFiles.write(Data(publicPEM.utf8), to: folder.appendingPathComponent("service-account.pub.pem"), logger: logger)
        }
        var failures: [String: FCMStandIn.Failure] = [:]
        for text in fail {
            let (token, failure) = try FCMStandIn.failure(text)
            failures[token] = failure
        }
        let standIn = await FCMStandIn(
            configuration: .init(
                serviceAccountKey: publicKey, keyID: keyID, clientEmail: clientEmail ?? made?.clientEmail, projectID: projectID,
                unregistered: Set(unregistered), failures: failures))
        let host = self.host
        let accountFile = folder.appendingPathComponent("service-account.json")
        let madeAccount = made
        let app = try standIn.application(host: host, port: port, certificate: served, logger: logger) { bound in
            if var account = madeAccount {
                let authority = host.contains(":") ? "[\(host)]" : host  // an IPv6 address goes in brackets
                account.tokenURI = "https://\(authority):\(bound)/token"
                do {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                    try StandInFiles.write(try encoder.encode(account), to: accountFile, secret: true, logger: logger)
                } catch {
                    logger.error("could not write \(accountFile.path): \(error)")
                }
            }
            logger.info("FCM stand-in on https://\(host):\(bound) (give serve --fcm-url https://\(host):\(bound)); GET /sent lists what it took")
        }
        try await app.runService()
    }
}
