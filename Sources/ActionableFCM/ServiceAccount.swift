public import Foundation

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

    /// The account read from the JSON file Google issues, with what is missing or wrong named.
    public static func read(_ data: Data, from path: String = "the service account file") throws -> ServiceAccount {
        let account: ServiceAccount
        do {
            account = try JSONDecoder().decode(ServiceAccount.self, from: data)
        } catch {
            throw ServiceAccountError(
                "\(path) is not a service account's JSON key (project_id, private_key_id, private_key, client_email, token_uri): \(error)")
        }
        guard account.type == "service_account" else {
            throw ServiceAccountError("\(path): type is \"\(account.type)\", not \"service_account\" (download a key of a service account)")
        }
        for (name, value) in [("project_id", account.projectID), ("private_key_id", account.privateKeyID), ("client_email", account.clientEmail)]
        where value.isEmpty {
            throw ServiceAccountError("\(path): \(name) is empty")
        }
        guard let url = URL(string: account.tokenURI), url.scheme == "https", url.host != nil else {
            throw ServiceAccountError("\(path): token_uri \"\(account.tokenURI)\" is not an https URL")
        }
        return account
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

/// A service account file that cannot be used, and why.
public struct ServiceAccountError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
