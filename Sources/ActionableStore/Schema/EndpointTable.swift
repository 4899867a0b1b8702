public import Foundation

/// The `endpoints` and `endpoint_deliveries` tables as every SQL driver stores them, and the
/// statements whose text does not depend on the driver.
///
/// A response handed to its endpoints (`fanned_out = 1`, `status = 'routed'`) takes its state from
/// its deliveries when operators read it (`ResponseStates`): a finished attempt writes only its
/// delivery's row.
package enum EndpointTable {

    /// The columns an ``Endpoint`` is decoded from.
    package static let columns =
        "id, url, filter, secret, previous_secret, rate_limit, paused, seeded, failure_streak, open_until, next_slot_at, created_at"

    /// Every endpoint, by id.
    package static let selectAll = "SELECT \(columns) FROM endpoints ORDER BY id"

    /// Every endpoint, by id, with `due` (1 or 0): whether a delivery of it is due at parameter 1
    /// as `QueueTable/claim(_:lock:)` would take it (pending, due, its lease free or run out).
    package static func selectAllWithDue(_ dialect: SQLDialect) -> String {
        let now = dialect.parameter(1)
        return """
            SELECT \(columns), CASE WHEN EXISTS (
                SELECT 1 FROM endpoint_deliveries d
                WHERE d.endpoint_id = endpoints.id AND d.status = 'pending' AND d.next_attempt_at <= \(now)
                    AND (d.lease_until IS NULL OR d.lease_until < \(now))) THEN 1 ELSE 0 END AS due
            FROM endpoints ORDER BY id
            """
    }

    /// One endpoint; parameter 1 is its id; `lock` is appended (`FOR UPDATE` on PostgreSQL).
    package static func selectOne(_ dialect: SQLDialect, lock: String = "") -> String {
        "SELECT \(columns) FROM endpoints WHERE id = \(dialect.parameter(1)) \(lock)"
    }

    /// Inserts an endpoint unless its id is taken; parameters: the 12 ``columns`` in order.
    package static func insert(_ dialect: SQLDialect) -> String {
        let p = (1...12).map(dialect.parameter).joined(separator: ", ")
        return "INSERT INTO endpoints (\(columns)) VALUES (\(p)) ON CONFLICT (id) DO NOTHING"
    }

    /// Writes every column of an endpoint but its id and creation time; parameters: url, filter,
    /// secret, previous secret, rate limit, paused, seeded, failure streak, open until, next slot
    /// at, id.
    package static func update(_ dialect: SQLDialect) -> String {
        let p = (1...11).map(dialect.parameter)
        return """
            UPDATE endpoints SET url = \(p[0]), filter = \(p[1]), secret = \(p[2]), previous_secret = \(p[3]), rate_limit = \(p[4]),
                paused = \(p[5]), seeded = \(p[6]), failure_streak = \(p[7]), open_until = \(p[8]), next_slot_at = \(p[9])
            WHERE id = \(p[10])
            """
    }

    /// The values of ``update(_:)`` for `endpoint`, in order.
    package static func updateValues(_ endpoint: Endpoint) -> [SQLValue] {
        Array(insertValues(endpoint)[1...10]) + [.text(endpoint.id)]
    }

    /// The values of ``insert(_:)`` for `endpoint`, in order.
    package static func insertValues(_ endpoint: Endpoint) -> [SQLValue] {
        [
            .text(endpoint.id), .text(endpoint.url), .text(encode(endpoint.filter)), .optionalText(endpoint.secret),
            .optionalText(endpoint.previousSecret), .optionalReal(endpoint.rateLimit), .integer(endpoint.paused ? 1 : 0),
            .integer(endpoint.seeded ? 1 : 0), .integer(endpoint.failureStreak), .optionalReal(endpoint.openUntil?.timeIntervalSince1970),
            .optionalReal(endpoint.nextSlotAt?.timeIntervalSince1970), .real(endpoint.createdAt.timeIntervalSince1970),
        ]
    }

    /// Marks a claimed response handed to its endpoints, if `owner` still holds it; parameters: id,
    /// owner. Returns the id when it did.
    package static func markFannedOut(_ dialect: SQLDialect) -> String {
        """
        UPDATE action_responses SET fanned_out = 1, status = 'routed', attempts = 0, lease_owner = NULL, lease_until = NULL,
            last_error = NULL
        WHERE id = \(dialect.parameter(1)) AND lease_owner = \(dialect.parameter(2)) AND status = 'pending' AND fanned_out = 0
        RETURNING id
        """
    }

    /// Sets a claimed response that no handler or endpoint takes aside as held, if `owner` still
    /// holds it, giving back the attempt its claim counted; parameters: reason, id, owner.
    package static func hold(_ dialect: SQLDialect) -> String {
        """
        UPDATE action_responses SET status = 'held', last_error = \(dialect.parameter(1)),
            attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END, lease_owner = NULL, lease_until = NULL
        WHERE id = \(dialect.parameter(2)) AND lease_owner = \(dialect.parameter(3)) AND status = 'pending' AND fanned_out = 0
        """
    }

    /// Gives a claimed response back, due at once, with the attempt its claim counted (an endpoint
    /// that takes it appeared meanwhile: the next round fans it out); parameters: id, owner.
    package static func giveBack(_ dialect: SQLDialect) -> String {
        """
        UPDATE action_responses SET attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END,
            lease_owner = NULL, lease_until = NULL
        WHERE id = \(dialect.parameter(1)) AND lease_owner = \(dialect.parameter(2)) AND status = 'pending' AND fanned_out = 0
        """
    }

    /// Resumes an endpoint that only a start without its flag had paused; parameter 1 is its id.
    package static func resumePausedByMissingFlag(_ dialect: SQLDialect) -> String {
        "UPDATE endpoints SET paused = 0, paused_by_missing_flag = 0 WHERE id = \(dialect.parameter(1)) AND paused_by_missing_flag = 1"
    }

    /// Forgets why an endpoint was paused (an operator paused or resumed it); parameter 1 is its id.
    package static func clearPausedByMissingFlag(_ dialect: SQLDialect) -> String {
        "UPDATE endpoints SET paused_by_missing_flag = 0 WHERE id = \(dialect.parameter(1))"
    }

    /// Lets every held response go, due at once (an endpoint was created or changed: the next
    /// round fans out what it takes and holds the rest again); parameter: now.
    package static func releaseHeld(_ dialect: SQLDialect) -> String {
        """
        UPDATE action_responses SET status = 'pending', next_attempt_at = \(dialect.parameter(1)), last_error = NULL
        WHERE status = 'held'
        """
    }

    /// A pending delivery; parameters: response id, endpoint id, due (and queued) at.
    package static func insertDelivery(_ dialect: SQLDialect) -> String {
        let p = (1...3).map(dialect.parameter)
        return """
            INSERT INTO endpoint_deliveries (response_id, endpoint_id, next_attempt_at, queued_at)
            VALUES (\(p[0]), \(p[1]), \(p[2]), \(p[2])) ON CONFLICT (response_id, endpoint_id) DO NOTHING
            """
    }

    /// The columns an ``EndpointDelivery`` is decoded from.
    package static let deliveryColumns =
        "response_id, endpoint_id, status, attempts, next_attempt_at, queued_at, last_error, delivered_at, lease_owner, expired_leases"

    /// A response's deliveries; parameter 1 is the response id.
    package static func selectDeliveries(_ dialect: SQLDialect) -> String {
        "SELECT \(deliveryColumns) FROM endpoint_deliveries WHERE response_id = \(dialect.parameter(1)) ORDER BY endpoint_id"
    }

    /// Writes an attempt's outcome on a delivery `owner` still holds, pending, and frees its lease,
    /// in one statement: no read of the row first (the outcome needs none of it but its attempts,
    /// which a held outcome gives back in place). `changes` tells whether it applied. Parameters:
    /// status, give back an attempt (1 or 0), next attempt at (`NULL`: unchanged), last error,
    /// delivered at, response id, endpoint id, owner.
    package static func finishLeased(_ dialect: SQLDialect) -> String {
        let p = (1...5).map(dialect.parameter)
        return QueueTable.deliveries.finish(
            dialect,
            set: """
                status = \(p[0]), attempts = CASE WHEN \(p[1]) = 1 AND attempts > 0 THEN attempts - 1 ELSE attempts END,
                    next_attempt_at = COALESCE(\(p[2]), next_attempt_at), last_error = \(p[3]), delivered_at = \(p[4])
                """, setting: 5)
    }

    /// The values of ``finishLeased(_:)``: what ``finishValues(_:fate:error:now:)`` writes, from the
    /// fate alone.
    package static func finishLeasedValues(
        responseID: String, endpointID: String, owner: String, fate: EndpointGate.Fate, error: String?, now: Date
    ) -> [SQLValue] {
        let written = Written(fate, error: error, now: now)
        return [
            .text(written.status.rawValue), .integer(written.givesBackAttempt ? 1 : 0), .optionalReal(written.next?.timeIntervalSince1970),
            .optionalText(written.lastError), .optionalReal(written.deliveredAt?.timeIntervalSince1970), .text(responseID),
            .text(endpointID), .text(owner),
        ]
    }

    /// What a delivery's row gets after `fate` at `now` (PostgreSQL writes a batch of these in one
    /// statement): status, attempts, next attempt at, last error, delivered at, response id,
    /// endpoint id.
    package static func finishValues(_ delivery: EndpointDelivery, fate: EndpointGate.Fate, error: String?, now: Date) -> [SQLValue] {
        let written = Written(fate, error: error, now: now)
        return [
            .text(written.status.rawValue), .integer(written.givesBackAttempt ? max(0, delivery.attempts - 1) : delivery.attempts),
            .real((written.next ?? delivery.nextAttemptAt).timeIntervalSince1970), .optionalText(written.lastError),
            .optionalReal(written.deliveredAt?.timeIntervalSince1970), .text(delivery.responseID), .text(delivery.endpointID),
        ]
    }

    /// What a delivery's row gets after an attempt's `fate` at `now`, whichever statement writes it.
    struct Written {
        var status = ResponseStatus.pending
        /// Held deliveries do not burn retries: the attempt the claim counted is given back.
        var givesBackAttempt = false
        /// The next attempt; `nil`: unchanged.
        var next: Date?
        var lastError: String?
        var deliveredAt: Date?

        init(_ fate: EndpointGate.Fate, error: String?, now: Date) {
            lastError = error
            switch fate {
            case .delivered:
                status = .delivered
                lastError = nil
                deliveredAt = now
            case .retry(let at):
                next = at
            case .held:
                givesBackAttempt = true
                next = now
            case .dead(let reason):
                status = .dead
                lastError = reason
            }
        }
    }

    /// Lets an endpoint's held deliveries go: due now, with a fresh retry window; parameters: now,
    /// endpoint id.
    package static func release(_ dialect: SQLDialect) -> String {
        """
        UPDATE endpoint_deliveries SET next_attempt_at = \(dialect.parameter(1)), queued_at = \(dialect.parameter(1))
        WHERE endpoint_id = \(dialect.parameter(2)) AND status = 'pending'
        """
    }

    /// Decodes a row of ``columns``.
    package static func decode(_ row: some ActionRow) throws -> Endpoint {
        Endpoint(
            id: try row.string("id"), url: try row.string("url"), filter: decodeFilter(try row.string("filter")),
            secret: try row.optionalString("secret"), previousSecret: try row.optionalString("previous_secret"),
            rateLimit: try row.optionalDouble("rate_limit"), paused: try row.int("paused") != 0, seeded: try row.int("seeded") != 0,
            failureStreak: try row.int("failure_streak"), openUntil: try row.optionalDouble("open_until").map(Date.init(timeIntervalSince1970:)),
            nextSlotAt: try row.optionalDouble("next_slot_at").map(Date.init(timeIntervalSince1970:)),
            createdAt: Date(timeIntervalSince1970: try row.double("created_at")))
    }

    /// Decodes a row of ``deliveryColumns``.
    package static func decodeDelivery(_ row: some ActionRow) throws -> EndpointDelivery {
        EndpointDelivery(
            responseID: try row.string("response_id"), endpointID: try row.string("endpoint_id"),
            status: ResponseStatus(rawValue: try row.string("status")) ?? .pending, attempts: try row.int("attempts"),
            nextAttemptAt: Date(timeIntervalSince1970: try row.double("next_attempt_at")),
            queuedAt: Date(timeIntervalSince1970: try row.double("queued_at")), lastError: try row.optionalString("last_error"),
            deliveredAt: try row.optionalDouble("delivered_at").map(Date.init(timeIntervalSince1970:)),
            expiredLeases: try row.optionalInt("expired_leases") ?? 0)
    }

    /// The claimed `deliveries` (in their order, each at its slot of `plan`) with their
    /// `responses`, read in one statement (`ActionTable/selectByIDs(_:count:)`); a delivery
    /// whose response is gone is left out (its lease runs out).
    package static func claimed(_ deliveries: [EndpointDelivery], responses: [AcceptedResponse], plan: EndpointGate.Plan) -> [ClaimedDelivery] {
        let byID = Dictionary(responses.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var claimed: [ClaimedDelivery] = []
        for (index, delivery) in deliveries.enumerated() {
            guard let response = byID[delivery.responseID] else { continue }
            claimed.append(Self.claimed(response, delivery: delivery, sendAt: plan.slot(index)))
        }
        return claimed
    }

    /// The response as its claimed delivery sees it: attempts, window and error of the delivery.
    package static func claimed(_ response: AcceptedResponse, delivery: EndpointDelivery, sendAt: Date) -> ClaimedDelivery {
        var action = response
        action.status = delivery.status
        action.attempts = delivery.attempts
        action.nextAttemptAt = delivery.nextAttemptAt
        action.queuedAt = delivery.queuedAt
        action.lastError = delivery.lastError
        action.expiredLeases = delivery.expiredLeases
        return ClaimedDelivery(action: action, endpointID: delivery.endpointID, sendAt: sendAt)
    }

    static func encode(_ filter: [String]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: filter, options: [.withoutEscapingSlashes])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    static func decodeFilter(_ text: String) -> [String] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String] ?? []
    }
}
