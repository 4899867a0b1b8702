public import ActionableFCM
import CryptoExtras
import Foundation
import JWTKit

extension FCMStandIn {
    /// A new service account for the stand-in: an RSA key pair (2048 bits, PKCS #8 as Google
    /// writes it), the account that signs with it, and the public half the stand-in checks.
    public static func makeServiceAccount(
        projectID: String = "stand-in-project", clientEmail: String = "sender@stand-in-project.iam.gserviceaccount.com",
        keyID: String = "stand-in-key", tokenURI: String
    ) throws -> (account: ServiceAccount, publicKeyPEM: String) {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let account = ServiceAccount(
            projectID: projectID, privateKeyID: keyID, privateKey: key.pkcs8PEMRepresentation, clientEmail: clientEmail, tokenURI: tokenURI)
        return (account, key.publicKey.pemRepresentation)
    }

    /// `TOKEN=STATUS:CODE` (repeatable `--fail`): a registration token answered with that status
    /// and FCM error code, as in `abc=429:QUOTA_EXCEEDED`.
    public static func failure(_ text: String) throws(StandInScriptError) -> (token: String, failure: Failure) {
        let form = "--fail \(text): write TOKEN=STATUS:CODE, as in abc=429:QUOTA_EXCEEDED"
        let halves = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard halves.count == 2, !halves[0].isEmpty else { throw StandInScriptError(description: form) }
        let answer = halves[1].split(separator: ":", maxSplits: 1).map(String.init)
        guard answer.count == 2, let status = Int(answer[0]), (400...599).contains(status), !answer[1].isEmpty else {
            throw StandInScriptError(description: form)
        }
        return (halves[0], Failure(status: status, code: answer[1]))
    }
}

/// A stand-in script line that does not parse; the description names the form.
public struct StandInScriptError: Error, CustomStringConvertible, Sendable {
    public let description: String
}
