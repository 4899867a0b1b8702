public import ActionableCore
public import ActionableTokens

/// Builds APNs payloads that cannot be refused: the category is checked against the catalog,
/// the custom keys against the category's payload schema, and the size limit against the exact
/// bytes that will be sent.
///
/// The custom payload is any `Encodable` (as in APNSwift); `aps` is written over it. Given
/// `ActionTokens`, the builder also mints the notification's action token, bound to its user,
/// its id and — through the `pld` claim — its payload, so the server can tell the payload a tap
/// carries back is the one that was sent:
///
/// ```swift
/// struct Invite: Encodable { var inviteId: String; var eventName: String? }
/// let payload = try await PayloadBuilder(catalog: catalog, tokens: tokens).build(
///     category: "invite",
///     aps: APS(alert: .fields(.init(title: "Dinner?", body: "Sam invited you"))),
///     custom: Invite(inviteId: "42", eventName: "Dinner"),
///     user: "alice", notificationID: id)
/// try await apns.send(payload.bytes)
/// ```
public struct PayloadBuilder: Sendable {
    /// The catalog categories are checked against.
    public let catalog: Catalog
    /// The keys that mint action tokens, when the builder mints them.
    public let tokens: ActionTokens?

    /// A builder for `catalog`; with `tokens`, it can mint each notification's action token.
    public init(catalog: Catalog, tokens: ActionTokens? = nil) {
        self.catalog = catalog
        self.tokens = tokens
    }

    /// Builds a payload whose custom keys are `custom`'s encoded properties, with an action token
    /// minted elsewhere (give it the ``payloadDigest(category:fields:)`` of these keys).
    public func build<Custom: Encodable>(
        category: CategoryID, aps: APS = APS(), custom: Custom, actionToken: String? = nil, pushType: PushType = .alert
    ) throws(PayloadError) -> NotificationPayload {
        try build(category: category, aps: aps, fields: Self.fields(of: custom), actionToken: actionToken, pushType: pushType)
    }

    /// `custom`'s encoded properties as custom keys.
    static func fields<Custom: Encodable>(of custom: Custom) throws(PayloadError) -> [(String, JSONValue)] {
        let value: JSONValue
        do {
            value = try JSONValueEncoder.encode(custom)
        } catch {
            throw PayloadError(.customPayloadNotAnObject, ["the custom payload could not be encoded: \(error)"])
        }
        guard case .object(let fields) = value else {
            throw PayloadError(
                .customPayloadNotAnObject,
                ["the custom payload must encode as a JSON object (a struct or dictionary), not \(value.typeName)"])
        }
        return fields
    }

    /// Builds a payload from custom keys given as JSON values, with an action token minted
    /// elsewhere (give it the ``payloadDigest(category:fields:)`` of these keys).
    public func build(
        category: CategoryID, aps: APS = APS(), fields: [(String, JSONValue)] = [], actionToken: String? = nil,
        pushType: PushType = .alert
    ) throws(PayloadError) -> NotificationPayload {
        let declared = try self.category(category)
        guard !declared.retired else {
            throw PayloadError(
                .retiredCategory,
                [
                    "category \"\(category)\" is retired: apps no longer register it, so a new notification would "
                        + "show no buttons; send the category that replaces it (taps from older app versions are still accepted)"
                ])
        }
        let apsProblems = Self.problems(in: aps)
        guard apsProblems.isEmpty else { throw PayloadError(.invalidAPS, apsProblems) }
        let violations = declared.payload.violations(of: fields)
        guard violations.isEmpty else { throw PayloadError(.payloadMismatch, violations: violations) }

        var pairs: [(String, JSONValue)] = [("aps", aps.jsonValue(category: category))]
        pairs.reserveCapacity(fields.count + 2)
        pairs += fields
        if let actionToken { pairs.append(("actionToken", .string(actionToken))) }
        let bytes = Array(JSONValue.object(pairs).serialized().utf8)
        guard bytes.count <= pushType.maximumPayloadSize else {
            throw PayloadError(
                .tooLarge,
                [
                    "the payload is \(bytes.count) bytes; APNs accepts at most "
                        + "\(pushType.maximumPayloadSize) bytes for \(pushType.name) pushes, so shorten the alert or custom values"
                ])
        }
        return NotificationPayload(category: category, pushType: pushType, bytes: bytes)
    }

    /// The category `id` of the catalog, or ``PayloadError/Code/unknownCategory`` with a suggestion.
    func category(_ id: CategoryID) throws(PayloadError) -> NotificationCategory {
        guard let declared = catalog[id] else {
            let hint = catalog.suggestion(for: id).map { " (did you mean \"\($0)\"?)" } ?? ""
            throw PayloadError(.unknownCategory, ["category \"\(id)\" is not in the catalog\(hint)"])
        }
        return declared
    }

    /// `aps` values APNs refuses or ignores.
    static func problems(in aps: APS) -> [String] {
        var problems: [String] = []
        if let badge = aps.badge, badge < 0 { problems.append("badge must be 0 or more, found \(badge)") }
        if let score = aps.relevanceScore, !(0...1).contains(score) {
            problems.append("relevance-score must be between 0 and 1, found \(score)")
        }
        if case .critical(_, let volume) = aps.sound, !(0...1).contains(volume) {
            problems.append("a critical sound's volume must be between 0 and 1, found \(volume)")
        }
        if let level = aps.interruptionLevel, !APS.InterruptionLevel.known.contains(level) {
            problems.append("interruption-level must be passive, active, time-sensitive or critical, found \(level.rawValue)")
        }
        if aps.alert == nil && aps.sound == nil && aps.badge == nil && !aps.contentAvailable {
            problems.append("the notification shows nothing: give an alert, a sound or a badge, or set content-available")
        }
        return problems
    }
}
