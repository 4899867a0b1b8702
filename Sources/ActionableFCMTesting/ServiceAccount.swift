import Foundation

/// A Google service account, as the JSON file Google issues for one (the fields FCM's sender
/// reads): the project, the signing key and its id, the account's address and where access
/// tokens are asked for.
public struct ServiceAccount: Codable, Hashable, Sendable {
    /// `service_account`.
    public var type: String
    /// The Firebase project messages are sent for: `projects/{project_id}/messages:send`.
    public var projectID: String
    /// The id of `privateKey`: the assertion's `kid`.
    public var privateKeyID: String
    /// The RSA key the assertions are signed with, PEM (PKCS #8, as Google writes it).
    public var privateKey: String
    /// The account's address: the assertion's `iss`.
    public var clientEmail: String
    /// Where the assertion is exchanged for an access token: the assertion's `aud`.
    public var tokenURI: String

    public init(projectID: String, privateKeyID: String, privateKey: String, clientEmail: String, tokenURI: String) {
        type = "service_account"
        self.projectID = projectID
        self.privateKeyID = privateKeyID
        self.privateKey = privateKey
        self.clientEmail = clientEmail
        self.tokenURI = tokenURI
    }

    enum CodingKeys: String, CodingKey {
        case type
        case projectID = "project_id"
        case privateKeyID = "private_key_id"
        case privateKey = "private_key"
        case clientEmail = "client_email"
        case tokenURI = "token_uri"
    }
}
