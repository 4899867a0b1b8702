import ActionableAPNs
import ActionableCore
import ActionableDelivery
import ActionableFCM
import ActionableStore
import Foundation
import JWTKit
import Logging
import NIOSSL

extension ActionableService {
    /// The APNs client of `settings`: its provider key and trusted certificates read now, so a
    /// missing or unreadable file stops start-up with a ``ConfigurationError`` naming it.
    static func apnsClient(
        _ settings: ActionableConfiguration.APNsSettings, connections: Int, timeout: Duration = .seconds(10), logger: Logger
    ) async throws(ConfigurationError) -> APNsClient {
        let key: ES256PrivateKey
        do {
            key = try ES256PrivateKey(pem: String(contentsOfFile: settings.keyFile, encoding: .utf8))
        } catch {
            throw ConfigurationError(
                "--apns-key-file \(settings.keyFile): not a readable PEM ES256 private key (the AuthKey_KID.p8 Apple issues): \(error)")
        }
        var trusted: [NIOSSLCertificate]?
        if let caFile = settings.caFile {
            do {
                trusted = try NIOSSLCertificate.fromPEMFile(caFile)
            } catch {
                throw ConfigurationError("--apns-ca-file \(caFile): not a readable PEM certificate file: \(error)")
            }
        }
        let token = await ProviderToken(key: key, keyID: settings.keyID, teamID: settings.teamID)
        let configuration = APNsClient.Configuration(
            topic: settings.topic, baseURL: settings.url, trustedCertificates: trusted, connections: connections, timeout: timeout)
        logger.info(
            "sending notifications for \(settings.topic) to \(settings.url ?? "Apple's hosts") over \(connections) HTTP/2 connections per host")
        return APNsClient(configuration: configuration, token: token, logger: logger)
    }

    /// The FCM client of `settings`: its service account and trusted certificates read now, so a
    /// missing or unreadable file stops start-up with a ``ConfigurationError`` naming it.
    static func fcmClient(
        _ settings: ActionableConfiguration.FCMSettings, timeout: Duration = .seconds(10), logger: Logger
    ) async throws(ConfigurationError) -> FCMClient {
        let account: ServiceAccount
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: settings.serviceAccountFile))
            account = try ServiceAccount.read(data, from: "--fcm-service-account \(settings.serviceAccountFile)")
        } catch let error as ServiceAccountError {
            throw ConfigurationError("\(error)")
        } catch {
            throw ConfigurationError("--fcm-service-account \(settings.serviceAccountFile): cannot be read: \(error)")
        }
        var trusted: [NIOSSLCertificate]?
        if let caFile = settings.caFile {
            do {
                trusted = try NIOSSLCertificate.fromPEMFile(caFile)
            } catch {
                throw ConfigurationError("--fcm-ca-file \(caFile): not a readable PEM certificate file: \(error)")
            }
        }
        let configuration = FCMClient.Configuration(
            baseURL: settings.url ?? "https://fcm.googleapis.com", trustedCertificates: trusted, timeout: timeout)
        do {
            let client = try await FCMClient(configuration: configuration, account: account, logger: logger)
            logger.info("sending notifications to Android devices of \(account.projectID) through FCM at \(configuration.baseURL)")
            return client
        } catch {
            throw ConfigurationError("--fcm-service-account \(settings.serviceAccountFile): \(error)")
        }
    }

    /// The FCM transport over the opened `store`.
    func fcmTransport(over store: any ActionStore, client: FCMClient) -> FCMTransport {
        var settings = OutboxSettings(
            policy: configuration.retryPolicy, owner: "fcm-\(UUID().uuidString.prefix(8))", lease: configuration.deliveryLease.timeInterval,
            concurrency: 256, jitter: { Double.random(in: 0..<1) }, logger: logger)
        settings.metricsFactory = metricsFactory
        settings.activity = activity
        return FCMTransport(store: store, client: client, settings: settings)
    }

    /// The APNs transport over the opened `store`.
    func apnsTransport(over store: any ActionStore, client: APNsClient) -> APNsTransport {
        var transport = APNsTransport(
            store: store, client: client, policy: configuration.retryPolicy, lease: configuration.deliveryLease.timeInterval,
            logger: logger)
        transport.metricsFactory = metricsFactory
        transport.activity = activity
        return transport
    }
}

extension Optional {
    /// `transform` of the value, awaited, when there is one.
    func asyncMap<T, E: Error>(_ transform: (Wrapped) async throws(E) -> T) async throws(E) -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
