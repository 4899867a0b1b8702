public import ActionableCore
public import Foundation

/// An action response to store: its id (the idempotency key of every delivery attempt), the
/// response, and when the server received it.
public struct NewResponse: Hashable, Sendable {
    /// The response id.
    public var id: String
    /// What the app sent, validated.
    public var response: ActionResponse
    /// When the server received it.
    public var receivedAt: Date
    /// Until when another answer to its notification could still pass (its action token's
    /// expiry plus the allowed clock skew); `nil` when no token bound it. Retention keeps the
    /// row at least this long, so that a replayed token meets the stored answer.
    public var answerableUntil: Date?
    /// The trace context of its accept (``TraceParent``), which its delivery attempts continue;
    /// `nil` when tracing is off.
    public var traceParent: String?

    /// Creates a record to store.
    public init(
        id: String = NewResponse.makeID(), response: ActionResponse, receivedAt: Date = Date(), answerableUntil: Date? = nil,
        traceParent: String? = nil
    ) {
        self.id = id
        self.response = response
        self.receivedAt = receivedAt
        self.answerableUntil = answerableUntil
        self.traceParent = traceParent
    }
}

extension NewResponse {
    /// A new time-ordered UUID (version 7, RFC 9562), lowercased: 48 bits of Unix milliseconds,
    /// then 74 random bits from the system generator (`getrandom`; Foundation's `UUID()` opens
    /// and reads `/dev/urandom` on every call).
    ///
    /// Ids made later sort later, so the storage's id index grows at its end instead of at a
    /// random page for every insert: fewer pages written per commit.
    public static func makeID(now: Date = Date()) -> String {
        var generator = SystemRandomNumberGenerator()
        let milliseconds = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        let randomA: UInt64 = generator.next()
        let randomB: UInt64 = generator.next()
        let high = (milliseconds << 16) | 0x7000 | (randomA & 0x0FFF)  // version 7
        let low = (randomB & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // variant 10
        let bytes = withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { Array($0) }
        let uuid = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
        return uuid.uuidString.lowercased()
    }
}

/// A stored action response with its delivery state.
public struct AcceptedResponse: Hashable, Sendable {
    /// The response id.
    public var id: String
    /// What the app sent.
    public var response: ActionResponse
    /// When the server received it.
    public var receivedAt: Date
    /// Where its delivery stands.
    public var status: ResponseStatus
    /// Delivery attempts started so far.
    public var attempts: Int
    /// When the next attempt is due (pending responses).
    public var nextAttemptAt: Date
    /// Why the last attempt failed, if it did.
    public var lastError: String?
    /// When its current round of delivery began: when it was received, or when an operator
    /// queued it again. The retry window counts from here.
    public var queuedAt: Date
    /// The trace context of its accept (``TraceParent``); `nil` when tracing was off.
    public var traceParent: String?
    /// Leases of it that ran out without an outcome (a worker stopped mid-attempt), counted when
    /// it is claimed again; at ``LeasePolicy/poisonAfter`` it is set aside as dead, unattempted.
    public var expiredLeases: Int = 0

    /// Creates a stored record.
    public init(
        id: String, response: ActionResponse, receivedAt: Date, status: ResponseStatus, attempts: Int,
        nextAttemptAt: Date, lastError: String?, queuedAt: Date? = nil, traceParent: String? = nil, expiredLeases: Int = 0
    ) {
        self.expiredLeases = expiredLeases
        self.queuedAt = queuedAt ?? receivedAt
        self.traceParent = traceParent
        self.id = id
        self.response = response
        self.receivedAt = receivedAt
        self.status = status
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastError = lastError
    }
}

/// How leases end: a delivery, handler call or send whose lease ran out without an outcome
/// ``poisonAfter`` times is set aside as dead (failed, for a send) with a reason, not attempted
/// again — should an attempt stop the process, it does not stop it again on every restart.
public enum LeasePolicy {
    /// Expired leases after which work is set aside.
    public static let poisonAfter = 3

    /// The reason recorded for work set aside after `expired` leases ran out.
    public static func poisonReason(_ expired: Int) -> String {
        "set aside: \(expired) leases expired without an outcome (each attempt may have stopped the process); "
            + "queue it again from /admin or POST /v1/deliveries/retry once the cause is fixed"
    }
}

/// Where a stored response stands, and one of its deliveries (``EndpointDelivery/status``: the
/// same states but ``ResponseStatus/held``). A response handed to its endpoints shows its
/// deliveries' state: pending while one is, dead when one is, delivered when all are.
public enum ResponseStatus: String, Hashable, Sendable, CaseIterable {
    /// Waiting for its (next) attempt.
    case pending
    /// Its handler said done, or its endpoint has it.
    case delivered
    /// Final: its handler or endpoint refused it for good, the attempts ran out, or it was set
    /// aside as poison.
    case dead
    /// Accepted, but no handler or endpoint takes it yet: it waits, with the reason as its last
    /// error, until an endpoint whose filter takes it is created (or changed to take it), and is
    /// then delivered. It spends no attempt and no retry window while it waits, and retention
    /// never deletes it.
    case held
}

/// What storing a response did. A notification is answered once: the same answer again is a
/// duplicate of the first; any other answer conflicts with it.
public enum AcceptResult: Hashable, Sendable {
    /// Stored now (and committed).
    case accepted(id: String)
    /// The same notification, action and text were stored before, under `id`.
    case duplicate(id: String)
    /// Another action or text was stored for this notification, under `existingID`.
    case conflict(existingID: String, existingAction: ActionID)

    /// The id of the response stored for the notification: the new one, or the one stored before.
    public var responseID: String {
        switch self {
        case .accepted(let id), .duplicate(let id): id
        case .conflict(let id, _): id
        }
    }

    /// `accepted`, `duplicate` or `conflict`: the result's name in logs and traces.
    public var name: String {
        switch self {
        case .accepted: "accepted"
        case .duplicate: "duplicate"
        case .conflict: "conflict"
        }
    }

    /// The result for `response` when its notification was already answered, under
    /// `existingID`, with `existingAction` and `existingText`: a duplicate when they match the
    /// response's own, a conflict otherwise. Every store decides it here.
    public static func answered(
        _ response: ActionResponse, byID existingID: String, action existingAction: ActionID,
        text existingText: String?
    ) -> AcceptResult {
        if existingAction == response.action && existingText == response.userText { return .duplicate(id: existingID) }
        return .conflict(existingID: existingID, existingAction: existingAction)
    }
}

/// The name ``NewResponse`` had before it said what it holds.
@available(*, deprecated, renamed: "NewResponse")
public typealias NewAction = NewResponse

/// The name ``AcceptedResponse`` had before it said what it holds.
@available(*, deprecated, renamed: "AcceptedResponse")
public typealias StoredAction = AcceptedResponse
