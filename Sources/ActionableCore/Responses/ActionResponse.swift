import Foundation

/// What an app sends when the user taps an action: the answer to one notification.
///
/// The app forwards `response.actionIdentifier` verbatim, so ``action`` is a declared action id
/// or one of Apple's ``ActionID/default`` (opened) and ``ActionID/dismiss`` (dismissed).
///
/// The custom payload has two forms: its keys and values (``payload``) and its compact JSON
/// text (``payloadJSON``), which the store keeps and the forwarded call embeds. A response keeps
/// whichever form it was made from and derives the other once, on first use: a response read
/// back from storage and forwarded is never parsed, one checked at the door is serialized once.
public struct ActionResponse: Hashable, Sendable {
    /// The notification's `aps.category`.
    public var category: CategoryID
    /// The action the user chose.
    public var action: ActionID
    /// The notification answered (the action token's `jti`).
    public var notificationID: String
    /// The user who answered (the action token's `sub`).
    public var user: String
    /// The text typed into a text-input action.
    public var userText: String?
    private var storage: PayloadStorage

    /// The notification's custom payload (keys outside `aps`), in the order written.
    public var payload: [(String, JSONValue)] {
        get { storage.pairs }
        set { storage = PayloadStorage(pairs: newValue) }
    }

    /// ``payload`` as compact JSON text (an object): what the store keeps and the forwarded call
    /// carries as its `payload`.
    public var payloadJSON: String { storage.text }

    /// Creates a response.
    public init(
        category: CategoryID, action: ActionID, notificationID: String, user: String, userText: String? = nil,
        payload: [(String, JSONValue)] = []
    ) {
        self.init(category, action, notificationID, user, userText, PayloadStorage(pairs: payload))
    }

    /// Creates a response whose payload is `payloadJSON`, compact JSON text of an object as
    /// ``payloadJSON`` wrote it (a store reading back what it kept). It is parsed only if
    /// ``payload`` is read; text that does not parse as an object reads as an empty payload.
    public init(
        category: CategoryID, action: ActionID, notificationID: String, user: String, userText: String? = nil,
        payloadJSON: String
    ) {
        self.init(category, action, notificationID, user, userText, PayloadStorage(text: payloadJSON))
    }

    private init(
        _ category: CategoryID, _ action: ActionID, _ notificationID: String, _ user: String, _ userText: String?,
        _ storage: PayloadStorage
    ) {
        self.category = category
        self.action = action
        self.notificationID = notificationID
        self.user = user
        self.userText = userText
        self.storage = storage
    }

    /// The value of a custom payload key.
    public subscript(payload key: String) -> JSONValue? {
        payload.first { $0.0 == key }?.1
    }

    /// Equal when every field is, the payloads compared as JSON text (so `2` and `2.0` agree).
    public static func == (lhs: ActionResponse, rhs: ActionResponse) -> Bool {
        lhs.category == rhs.category && lhs.action == rhs.action && lhs.notificationID == rhs.notificationID
            && lhs.user == rhs.user && lhs.userText == rhs.userText && lhs.payloadJSON == rhs.payloadJSON
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(category)
        hasher.combine(action)
        hasher.combine(notificationID)
        hasher.combine(user)
        hasher.combine(userText)
        hasher.combine(payloadJSON)
    }
}

/// A payload made from one form, the other derived once on first use. Never changed after it is
/// made (a new payload is a new storage), so copies of a response share it safely.
private final class PayloadStorage: @unchecked Sendable {
    private let lock = NSLock()
    private var knownPairs: [(String, JSONValue)]?
    private var knownText: String?

    init(pairs: [(String, JSONValue)]) { knownPairs = pairs }
    init(text: String) { knownText = text }

    var pairs: [(String, JSONValue)] {
        lock.lock()
        defer { lock.unlock() }
        if let knownPairs { return knownPairs }
        let parsed: [(String, JSONValue)]
        if let text = knownText, case .object(let members)? = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) {
            parsed = members
        } else {
            parsed = []
        }
        knownPairs = parsed
        return parsed
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        if let knownText { return knownText }
        let written = JSONValue.object(knownPairs ?? []).serialized()
        knownText = written
        return written
    }
}
