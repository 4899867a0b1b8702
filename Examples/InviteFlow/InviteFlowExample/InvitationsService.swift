/// Stands in for the invitations server a backend reports RSVPs to. It de-duplicates by
/// idempotency key, as a real upstream should: a retried report is recorded once.
public actor InvitationsService {
    /// An answer to an invitation.
    public enum Answer: String, Sendable, Hashable {
        case accepted, declined, maybe
    }

    /// One recorded RSVP.
    public struct RSVP: Sendable, Hashable {
        public let inviteID: String
        public let user: String
        public let answer: Answer
        public let note: String?

        public init(inviteID: String, user: String, answer: Answer, note: String?) {
            self.inviteID = inviteID
            self.user = user
            self.answer = answer
            self.note = note
        }
    }

    /// Every RSVP recorded, in order.
    public private(set) var rsvps: [RSVP] = []
    private var seenKeys = Set<String>()

    public init() {}

    /// Records an RSVP once per idempotency key; returns whether it was new.
    @discardableResult
    public func report(_ rsvp: RSVP, idempotencyKey: String) -> Bool {
        guard seenKeys.insert(idempotencyKey).inserted else { return false }
        rsvps.append(rsvp)
        return true
    }
}
