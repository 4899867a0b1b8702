public import Foundation
public import JWTKit

/// The provider token of one APNs signing key (an ES256 JWT: `kid` header, `iss` the team,
/// `iat` the time it was made), shared by every concurrent send.
///
/// Apple accepts a token for an hour and refuses one refreshed more often than every 20
/// minutes (`TooManyProviderTokenUpdates`), so a token is made once, reused by everyone, and made
/// again after ``refreshAfter`` (50 minutes); a `403 ExpiredProviderToken` asks for a new one
/// through ``refresh(replacing:)``, which makes one only if the refused token is still the
/// current one and at least ``minimumAge`` old.
///
/// Several instances (or one restarted) signing with the same key would each make their own
/// token, and APNs counts those as updates too; given ``share(through:onFailure:)``, a new token is offered
/// to storage, which hands every instance the same one.
public actor ProviderToken {
    /// Offers `candidate` (issued at `issuedAt`) as the key's shared token: answers the shared
    /// token when it was issued after `reuseIfIssuedAfter`, otherwise stores and answers the candidate.
    public typealias Sharing =
        @Sendable (_ candidate: String, _ issuedAt: Date, _ reuseIfIssuedAfter: Date) async throws -> (token: String, issuedAt: Date)

    /// A token older than this is made again before it is used (Apple's limit is one hour).
    public static let refreshAfter: Duration = .seconds(50 * 60)
    /// A token younger than this is never replaced (Apple's lower limit is 20 minutes).
    public static let minimumAge: Duration = .seconds(20 * 60)

    private let keys: JWTKeyCollection
    private let keyID: String
    private let teamID: String
    private let now: @Sendable () -> Date
    private var current: (token: String, madeAt: Date)?
    /// The token being made: concurrent callers wait for it instead of making their own.
    private var making: Task<String, any Error>?
    /// How many tokens were made so far (for tests and the log).
    public private(set) var made = 0
    private var sharing: Sharing?
    private var onSharingFailure: (@Sendable (any Error) -> Void)?

    /// The tokens of `key` (the `.p8` file's PEM), identified by `keyID`, for `teamID`; `now`
    /// is injectable for tests.
    public init(key: ES256PrivateKey, keyID: String, teamID: String, now: @escaping @Sendable () -> Date = { Date() }) async {
        keys = JWTKeyCollection()
        await keys.add(ecdsa: key, kid: JWKIdentifier(string: keyID))
        self.keyID = keyID
        self.teamID = teamID
        self.now = now
    }

    /// Shares tokens through `sharing` from now on; `onFailure` learns when it failed (the token
    /// made here is used then).
    public func share(through sharing: @escaping Sharing, onFailure: (@Sendable (any Error) -> Void)? = nil) {
        self.sharing = sharing
        self.onSharingFailure = onFailure
    }

    /// The token to send now: the current one, or a new one when there is none or it is
    /// older than ``refreshAfter``.
    public func token() async throws -> String {
        let time = now()
        if let current, time.timeIntervalSince(current.madeAt) < Self.refreshAfter.timeInterval { return current.token }
        return try await make(at: time, reuseIfIssuedAfter: time.addingTimeInterval(-Self.refreshAfter.timeInterval))
    }

    /// A new token after APNs refused `refused` as expired, unless another send replaced it
    /// already (then the newer one) or it is younger than ``minimumAge`` (then `nil`: making a
    /// new one would be refused as too many updates, so the send fails instead).
    public func refresh(replacing refused: String) async throws -> String? {
        guard let current, current.token == refused else { return try await token() }
        guard now().timeIntervalSince(current.madeAt) >= Self.minimumAge.timeInterval else { return nil }
        // Another instance's newer token is taken rather than replaced.
        return try await make(at: now(), reuseIfIssuedAfter: current.madeAt)
    }

    private func make(at time: Date, reuseIfIssuedAfter: Date) async throws -> String {
        if let making { return try await making.value }
        // IssuedAtClaim keeps whole seconds: the time shared is the one in the token.
        let issued = Date(timeIntervalSince1970: time.timeIntervalSince1970.rounded(.down))
        let claims = ProviderClaims(iss: IssuerClaim(value: teamID), iat: IssuedAtClaim(value: issued))
        let task = Task { [keys, keyID, sharing, onSharingFailure] in
            let made = try await keys.sign(claims, kid: JWKIdentifier(string: keyID))
            guard let sharing else { return (token: made, issuedAt: issued) }
            do {
                return try await sharing(made, issued, reuseIfIssuedAfter)
            } catch {
                onSharingFailure?(error)
                return (token: made, issuedAt: issued)
            }
        }
        let signing = Task { try await task.value.token }
        making = signing
        defer { making = nil }
        let (token, issuedAt) = try await task.value
        current = (token, issuedAt)
        made += 1
        return token
    }
}

/// The claims of a provider token: who signs (`iss`, the team) and when (`iat`).
struct ProviderClaims: JWTPayload {
    var iss: IssuerClaim
    var iat: IssuedAtClaim

    func verify(using algorithm: some JWTAlgorithm) throws {}
}

extension Duration {
    fileprivate var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
