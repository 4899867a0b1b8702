import ActionableAPNs
import ActionableAPNsTesting
import ActionableDelivery
import ActionableService
import ActionableStore
import ActionableWire
import Foundation
import JWTKit
import Logging
import NIOSSL
import Testing

/// A copy whose sends ended without an outcome three times (each stopped the process) is set
/// aside as failed with the reason, and never sent again; the stand-in receives nothing.
struct PoisonCopyTests {
    @Test(.timeLimit(.minutes(1)))
    func aPoisonCopyIsSetAsideUnsent() async throws {
        try await SendHarness.run { harness in
            let store = InMemoryActionStore()
            let device = String(repeating: "c3", count: 32)
            _ = try await store.register(token: device, user: "erin", environment: .production, at: Date(timeIntervalSince1970: 0))
            let notification = NewNotification(
                notificationID: "n-poison", user: "erin", category: "invite", payloadJSON: #"{"inviteId":"1"}"#,
                apnsPayload: #"{"aps":{"alert":"hi","category":"invite"},"inviteId":"1"}"#, createdAt: Date(timeIntervalSince1970: 0))
            _ = await store.recordNotification(notification, devices: await store.devices(of: "erin"))
            var time: TimeInterval = 1
            for _ in 0..<3 {
                #expect(try await store.claimDueSends(now: Date(timeIntervalSince1970: time), limit: 10, lease: 5, owner: "crashed").count == 1)
                time += 6  // no outcome: the lease runs out
            }
            let key = try ES256PrivateKey(pem: String(contentsOf: harness.directory.appendingPathComponent("AuthKey_KEY1.p8"), encoding: .utf8))
            let client = APNsClient(
                configuration: .init(
                    topic: "com.example.app", baseURL: "https://127.0.0.1:\(harness.standInPort)",
                    trustedCertificates: try NIOSSLCertificate.fromPEMFile(harness.directory.appendingPathComponent("stand-in.pem").path)),
                token: await ProviderToken(key: key, keyID: "KEY1", teamID: "TEAM"), logger: SendHarness.logger)
            let worker = APNsTransport(store: store, client: client, owner: "restarted", lease: 5, logger: SendHarness.logger)
            #expect(try await worker.sendDue(now: Date(timeIntervalSince1970: time)) == 1)
            try await client.shutdown()
            let copy = try #require(await store.notification(id: "n-poison")?.sends.first)
            #expect(copy.state == .failed)
            #expect(copy.reason == LeasePolicy.poisonReason(3))
            #expect(await harness.standIn.received.notifications.isEmpty)
        }
    }
}
