import ActionableDelivery
import Foundation
import Testing

struct WebhookSignerTests {
    /// The test vector published with the Standard Webhooks reference libraries.
    @Test func theStandardWebhooksTestVector() throws {
        let signer = try WebhookSigner(secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        let signature = signer.signature(
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330,
            body: Array(#"{"test": 2432232314}"#.utf8))
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    @Test func thePrefixIsOptionalAndEveryInputCounts() throws {
        let body = Array(#"{"a":1}"#.utf8)
        let withPrefix = try WebhookSigner(secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        let without = try WebhookSigner(secret: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        let base = withPrefix.signature(id: "m", timestamp: 1, body: body)
        #expect(without.signature(id: "m", timestamp: 1, body: body) == base)
        #expect(withPrefix.signature(id: "n", timestamp: 1, body: body) != base)
        #expect(withPrefix.signature(id: "m", timestamp: 2, body: body) != base)
        #expect(withPrefix.signature(id: "m", timestamp: 1, body: Array(#"{"a":2}"#.utf8)) != base)
    }

    @Test(arguments: ["", "whsec_", "whsec_not base64!", "whsec_c2hvcnQ="])
    func badSecretsAreRefused(secret: String) {
        #expect(throws: WebhookSecretError.self) { try WebhookSigner(secret: secret) }
    }
}

struct WebhookVerificationTests {
    let signer = try! WebhookSigner(secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
    let body = Array(#"{"test": 2432232314}"#.utf8)
    let now = Date(timeIntervalSince1970: 1_614_265_330)

    @Test func theVectorVerifiesAmongOtherSignatures() {
        let good = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
        #expect(
            signer.verify(
                id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: "1614265330", body: body,
                signatures: "v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= \(good)", now: now))
    }

    @Test func forgedStaleOrFutureWebhooksAreRefused() {
        let good = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
        let id = "msg_p5jXN8AQM9LWM0D4loKWxJek"
        #expect(!signer.verify(id: id, timestamp: "1614265330", body: body, signatures: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OA=", now: now))
        #expect(!signer.verify(id: "other", timestamp: "1614265330", body: body, signatures: good, now: now))
        #expect(!signer.verify(id: id, timestamp: "1614265330", body: body, signatures: good, now: now.addingTimeInterval(301)))
        #expect(!signer.verify(id: id, timestamp: "1614265330", body: body, signatures: good, now: now.addingTimeInterval(-301)))
        #expect(!signer.verify(id: id, timestamp: "hello", body: body, signatures: good, now: now))
        #expect(!signer.verify(id: id, timestamp: "1614265330", body: body, signatures: "", now: now))
    }
}
