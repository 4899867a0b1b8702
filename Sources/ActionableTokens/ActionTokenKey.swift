/// One HMAC key for action tokens: an id (the JWT `kid`) and a secret.
///
/// Written `ID=SECRET` on the command line and in configuration; the UTF-8 bytes of SECRET are
/// the HMAC key. HS256 needs at least 32 bytes of key: shorter secrets are refused.
public struct ActionTokenKey: Hashable, Sendable, CustomStringConvertible {
    /// The key id, sent as the token's `kid` header.
    public let id: String
    let secret: [UInt8]

    /// The shortest secret accepted, in bytes (the size of an HS256 MAC).
    public static let minimumSecretLength = 32

    /// A key with `id` and the given secret bytes.
    public init(id: String, secret: [UInt8]) throws(ActionTokenKeyError) {
        guard !id.isEmpty, id.utf8.count <= 64, id.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "=" }) else {
            throw ActionTokenKeyError("key id \"\(id)\" must be 1 to 64 printable ASCII characters without '='")
        }
        guard secret.count >= Self.minimumSecretLength else {
            throw ActionTokenKeyError(
                "the secret of key \"\(id)\" is \(secret.count) bytes; HS256 needs at least "
                    + "\(Self.minimumSecretLength) (generate one with: openssl rand -base64 32)")
        }
        self.id = id
        self.secret = secret
    }

    /// Parses `ID=SECRET`; the UTF-8 bytes of SECRET are the key.
    public init(parsing text: String) throws(ActionTokenKeyError) {
        guard let equals = text.firstIndex(of: "=") else {
            throw ActionTokenKeyError("a token key is written ID=SECRET, e.g. k1=$(openssl rand -base64 32)")
        }
        try self.init(id: String(text[..<equals]), secret: Array(text[text.index(after: equals)...].utf8))
    }

    /// Whether `other` has the same secret (whatever the ids): one secret must not serve two
    /// purposes, such as action tokens and app JWTs.
    public func hasSameSecret(as other: ActionTokenKey) -> Bool { secret == other.secret }

    /// The id only: secrets are never printed or logged.
    public var description: String { "ActionTokenKey(\(id))" }
}

/// A token key that cannot be used, with the reason and the fix.
public struct ActionTokenKeyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let description: String
    init(_ description: String) { self.description = description }
}
