import ActionableCore
public import Foundation

/// An `ActionStore` in memory, for tests: the same rules as the durable drivers (it passes the
/// same conformance suite), nothing written to disk.
public actor InMemoryActionStore: ActionStore {
    struct Row {
        var action: AcceptedResponse
        /// Handed to its endpoints: its state is read from their deliveries (`ResponseStates`).
        var fannedOut = false
        var leaseOwner: String?
        var leaseUntil: Date?
        var deliveredAt: Date?
        var answerableUntil: Date?
    }

    private struct BadgeEntry {
        var user: String
        var sentAt: Date
        var readAt: Date?
    }

    var rows: [String: Row] = [:]
    /// The endpoints and each response's deliveries to them (`InMemoryActionStore+Endpoints.swift`).
    var endpointTable: [String: Endpoint] = [:]
    /// The admin sessions signed out, with when each record may be forgotten.
    var signOuts: [String: Date] = [:]
    /// The counts per minute (`InMemoryActionStore+Activity.swift`).
    var activityTable: [ActivityKey: Int64] = [:]
    var endpointDeliveries: [String: [String: EndpointDeliveryRow]] = [:]
    private var badgeEntries: [String: BadgeEntry] = [:]
    /// The devices by token (`InMemoryActionStore+Devices.swift`).
    var deviceTable: [String: Device] = [:]
    /// How accepted responses are handed to their endpoints at once (`fanOutAtAccept`).
    var acceptFanOut: AcceptFanOut?
    /// When each unregistered device was unregistered (for retention).
    var deviceUnregisteredAt: [String: Date] = [:]
    /// The notifications sent, and each device's copy (`InMemoryActionStore+Sends.swift`).
    var notificationTable: [String: NewNotification] = [:]
    var sendTable: [String: [String: SendRow]] = [:]
    var providerTokens: [String: SharedProviderToken] = [:]
    private var byNotification: [String: String] = [:]
    private var order: [String] = []

    /// An empty store.
    public init() {}

    public func accept(_ action: NewResponse) throws -> AcceptResult {
        let response = action.response
        if let existingID = byNotification[response.notificationID], let existing = rows[existingID] {
            let stored = existing.action.response
            return .answered(response, byID: existingID, action: stored.action, text: stored.userText)
        }
        rows[action.id] = Row(
            action: AcceptedResponse(
                id: action.id, response: response, receivedAt: action.receivedAt,
                status: .pending, attempts: 0, nextAttemptAt: action.receivedAt, lastError: nil, traceParent: action.traceParent),
            answerableUntil: action.answerableUntil)
        byNotification[response.notificationID] = action.id
        order.append(action.id)
        if let acceptFanOut {
            let endpointIDs = acceptFanOut.plan(
                [(response.category.rawValue, response.action.rawValue)], endpoints: Array(endpointTable.values))[0]
            if !endpointIDs.isEmpty {
                rows[action.id]?.fannedOut = true
                for endpointID in endpointIDs.sorted() {
                    endpointDeliveries[action.id, default: [:]][endpointID] = EndpointDeliveryRow(
                        delivery: EndpointDelivery(
                            responseID: action.id, endpointID: endpointID, status: .pending, attempts: 0, nextAttemptAt: action.receivedAt,
                            queuedAt: action.receivedAt))
                }
            }
        }
        if badgeEntries[response.notificationID] == nil {
            badgeEntries[response.notificationID] = BadgeEntry(user: response.user, sentAt: action.receivedAt, readAt: action.receivedAt)
        } else if badgeEntries[response.notificationID]?.readAt == nil {
            badgeEntries[response.notificationID]?.readAt = action.receivedAt
        }
        return .accepted(id: action.id)
    }

    public func response(id: String) -> AcceptedResponse? { rows[id].map { summarized($0).response } }

    public func claimDue(now: Date, limit: Int, lease: TimeInterval, owner: String) -> [AcceptedResponse] {
        let due = order.compactMap { rows[$0] }.filter { row in
            row.action.status == .pending && !row.fannedOut && row.action.nextAttemptAt <= now
                && (row.leaseUntil.map { $0 < now } ?? true)
        }.sorted { $0.action.nextAttemptAt < $1.action.nextAttemptAt }.prefix(limit)
        return due.map { row in
            var row = row
            if row.leaseOwner != nil { row.action.expiredLeases += 1 }  // its lease ran out without an outcome
            row.leaseOwner = owner
            row.leaseUntil = now.addingTimeInterval(lease)
            row.action.attempts += 1
            rows[row.action.id] = row
            return row.action
        }
    }

    public func markDelivered(id: String, owner: String, at: Date) {
        update(id, owner: owner) {
            $0.action.status = .delivered
            $0.action.lastError = nil
            $0.deliveredAt = at
        }
    }

    public func reschedule(id: String, owner: String, at: Date, error: String) {
        update(id, owner: owner) {
            $0.action.nextAttemptAt = at
            $0.action.lastError = error
        }
    }

    public func markDead(id: String, owner: String, reason: String) {
        update(id, owner: owner) {
            $0.action.status = .dead
            $0.action.lastError = reason
        }
    }

    public func pendingCount() -> Int {
        rows.values.count { $0.action.status == .pending && !$0.fannedOut }
            + endpointDeliveries.values.reduce(0) { $0 + $1.values.count { $0.delivery.status == .pending } }
    }

    public func oldestDue(now: Date) -> Date? {
        let responses = rows.values.filter { $0.action.status == .pending && !$0.fannedOut }.map(\.action.nextAttemptAt)
        let deliveries = endpointDeliveries.values.flatMap(\.values).map(\.delivery).filter { delivery in
            guard delivery.status == .pending, let endpoint = endpointTable[delivery.endpointID] else { return false }
            return !endpoint.paused && (endpoint.openUntil.map { $0 <= now } ?? true)
        }.map(\.nextAttemptAt)
        let copies = sendTable.values.flatMap(\.values).filter { $0.send.state == .pending }.map(\.nextAttemptAt)
        return (responses + deliveries + copies).filter { $0 <= now }.min()
    }

    public func checkReachable() {}

    public func responses(matching filter: ResponseFilter, after cursor: ResponseCursor?, limit: Int) -> ResponsePage {
        let sorted = rows.values.map { summarized($0).response }.filter { Self.matches($0, filter) }.filter { action in
            guard let cursor else { return true }
            return action.receivedAt < cursor.receivedAt || (action.receivedAt == cursor.receivedAt && action.id < cursor.id)
        }.sorted { ($0.receivedAt, $0.id) > ($1.receivedAt, $1.id) }
        let items = Array(sorted.prefix(limit))
        let next = sorted.count > limit ? items.last.map { ResponseCursor(receivedAt: $0.receivedAt, id: $0.id) } : nil
        return ResponsePage(items: items, next: next)
    }

    public func requeue(id: String, at: Date) -> RequeueResult {
        guard let row = rows[id] else { return .notFound }
        guard summarized(row).response.status != .pending else { return .alreadyPending }
        queueAgain(id, at: at)
        return .queued
    }

    public func requeue(matching filter: ResponseFilter, at: Date) -> Int {
        let ids = rows.values.map { summarized($0).response }.filter { $0.status != .pending && Self.matches($0, filter) }.map(\.id)
        for id in ids { queueAgain(id, at: at) }
        return ids.count
    }

    public func responseCounts() -> [ResponseStatus: Int] {
        var counts: [ResponseStatus: Int] = [:]
        for row in rows.values { counts[summarized(row).response.status, default: 0] += 1 }
        return counts
    }

    private func queueAgain(_ id: String, at: Date) {
        requeueDeliveries(of: id, at: at)
        rows[id]?.action.status = .pending
        rows[id]?.action.attempts = 0
        rows[id]?.action.expiredLeases = 0
        rows[id]?.action.nextAttemptAt = at
        rows[id]?.action.queuedAt = at
        rows[id]?.leaseOwner = nil
        rows[id]?.leaseUntil = nil
        rows[id]?.deliveredAt = nil
    }

    public func purge(_ cutoff: PurgeCutoff, limit: Int) -> PurgeCount {
        let responses = order.filter { id in
            guard let row = rows[id] else { return false }
            let (response, deliveredAt) = summarized(row)
            return cutoff.deletes(
                status: response.status, nextAttemptAt: response.nextAttemptAt, deliveredAt: deliveredAt,
                answerableUntil: row.answerableUntil)
        }.prefix(limit)
        for id in responses {
            if let notification = rows[id]?.action.response.notificationID { byNotification[notification] = nil }
            rows[id] = nil
            endpointDeliveries[id] = nil
        }
        order.removeAll { rows[$0] == nil }
        let entries = badgeEntries.filter { cutoff.deletes(sentAt: $0.value.sentAt, readAt: $0.value.readAt) }.keys.sorted().prefix(limit)
        for id in entries { badgeEntries[id] = nil }
        let devices = deviceUnregisteredAt.filter { token, at in
            deviceTable[token]?.state == .unregistered && at < cutoff.responsesBefore
        }.keys.sorted().prefix(limit)
        for token in devices {
            deviceTable[token] = nil
            deviceUnregisteredAt[token] = nil
        }
        let notifications = notificationTable.values.filter { notification in
            notification.createdAt < cutoff.notificationsBefore
                && !(sendTable[notification.notificationID] ?? [:]).values.contains { $0.send.state == .pending }
        }.map(\.notificationID).sorted().prefix(limit)
        for id in notifications {
            notificationTable[id] = nil
            sendTable[id] = nil
        }
        return PurgeCount(responses: responses.count, badgeEntries: entries.count, devices: devices.count, notifications: notifications.count)
    }

    private static func matches(_ action: AcceptedResponse, _ filter: ResponseFilter) -> Bool {
        if let status = filter.status, action.status != status { return false }
        if let category = filter.category, action.response.category.rawValue != category { return false }
        if let since = filter.since, action.receivedAt < since { return false }
        if let until = filter.until, action.receivedAt >= until { return false }
        return true
    }

    public func recordSent(_ notification: SentNotification, countingSince: Date) -> BadgeRecordResult {
        if let entry = badgeEntries[notification.notificationID] {
            guard entry.user == notification.user else { return .otherUser }
            return .recordedBefore(badge: badge(user: notification.user, countingSince: countingSince))
        }
        badgeEntries[notification.notificationID] = BadgeEntry(user: notification.user, sentAt: notification.sentAt)
        return .recorded(badge: badge(user: notification.user, countingSince: countingSince))
    }

    public func markRead(user: String, notificationIDs: [String], at: Date, countingSince: Date) -> Int {
        for id in notificationIDs where badgeEntries[id]?.user == user && badgeEntries[id]?.readAt == nil {
            badgeEntries[id]?.readAt = at
        }
        return badge(user: user, countingSince: countingSince)
    }

    public func markAllRead(user: String, at: Date, countingSince: Date) -> Int {
        for (id, entry) in badgeEntries where entry.user == user && entry.readAt == nil { badgeEntries[id]?.readAt = at }
        return badge(user: user, countingSince: countingSince)
    }

    public func badge(user: String, countingSince: Date) -> Int {
        badgeEntries.values.count { $0.user == user && $0.readAt == nil && $0.sentAt >= countingSince }
    }

    public func unreadTotal(countingSince: Date) -> Int {
        badgeEntries.values.count { $0.readAt == nil && $0.sentAt >= countingSince }
    }

    func update(_ id: String, owner: String, _ change: (inout Row) -> Void) {
        guard var row = rows[id], row.leaseOwner == owner, row.action.status == .pending else { return }
        change(&row)
        row.leaseOwner = nil
        row.leaseUntil = nil
        rows[id] = row
    }
}
