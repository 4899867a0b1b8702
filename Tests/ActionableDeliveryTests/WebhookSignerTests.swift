import ActionableDelivery
import Foundation
import Testing

struct WebhookSignerTests {
    /// The test vector published with the Standard Webhooks reference libraries.
    @Test func theStandardWebhooksTestVector() throws {
        let signer = try WebhookSigner(secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        let signature = signer.signature(id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330,
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
