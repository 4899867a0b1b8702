public import ActionableWire
public import Foundation

extension InMemoryActionStore {
    /// One device's copy, with its lease.
    struct SendRow {
        var send: DeviceSend
        var nextAttemptAt: Date
        var leaseOwner: String?
        var leaseUntil: Date?
        var expiredLeases = 0
    }

    public func recordNotification(_ notification: NewNotification, devices: [Device]) -> NotificationRecordResult {
        if let known = notificationTable[notification.notificationID] {
            guard known.user == notification.user else { return .otherUser }
            return .recordedBefore(devices: sendTable[notification.notificationID]?.count ?? 0)
        }
        notificationTable[notification.notificationID] = notification
        var rows: [String: SendRow] = [:]
        for device in devices {
            rows[device.token] = SendRow(
                send: DeviceSend(
                    token: device.token, platform: device.platform, environment: device.environment, state: .pending, status: nil, reason: nil,
                    attempts: 0),
                nextAttemptAt: notification.createdAt)
        }
        sendTable[notification.notificationID] = rows
        return .recorded(devices: rows.count)
    }

    public func claimDueSends(now: Date, limit: Int, lease: TimeInterval, owner: String, platform: DevicePlatform) -> [ClaimedSend] {
        var due: [(Date, String, String)] = []
        for (id, rows) in sendTable {
            for (token, row) in rows
            where row.send.platform == platform && row.send.state == .pending && row.nextAttemptAt <= now && (row.leaseUntil.map { $0 < now } ?? true)
            {
                due.append((row.nextAttemptAt, id, token))
            }
        }
        var claimed: [ClaimedSend] = []
        for (_, id, token) in due.sorted(by: { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }).prefix(limit) {
            guard var row = sendTable[id]?[token], let notification = notificationTable[id] else { continue }
            if row.leaseOwner != nil { row.expiredLeases += 1 }  // its lease ran out without an outcome
            row.leaseOwner = owner
            row.leaseUntil = now.addingTimeInterval(lease)
            row.send.attempts += 1
            sendTable[id]?[token] = row
            claimed.append(
                ClaimedSend(
                    notification: notification, token: token, platform: row.send.platform, environment: row.send.environment,
                    attempts: row.send.attempts,
                    expiredLeases: row.expiredLeases))
        }
        return claimed
    }

    /// Claims due copies to iOS devices.
    public func claimDueSends(now: Date, limit: Int, lease: TimeInterval, owner: String) -> [ClaimedSend] {
        claimDueSends(now: now, limit: limit, lease: lease, owner: owner, platform: .ios)
    }

    public func finishSends(_ finished: [FinishedSend], owner: String) {
        for send in finished {
            finishSend(notificationID: send.notificationID, token: send.token, owner: owner, outcome: send.outcome, at: send.at)
        }
    }

    public func finishSend(notificationID: String, token: String, owner: String, outcome: SendOutcome, at: Date) {
        guard var row = sendTable[notificationID]?[token], row.leaseOwner == owner, row.send.state == .pending else { return }
        row.leaseOwner = nil
        row.leaseUntil = nil
        switch outcome {
        case .sent(let status):
            row.send.state = .sent
            row.send.status = status
            row.send.reason = nil
            deviceTable[token]?.lastSentAt = at
        case .failed(let status, let reason):
            (row.send.state, row.send.status, row.send.reason) = (.failed, status, reason)
        case .unregistered(let status, let reason):
            (row.send.state, row.send.status, row.send.reason) = (.unregistered, status, reason)
        case .retry(let next, let status, let reason):
            (row.nextAttemptAt, row.send.status, row.send.reason) = (next, status, reason)
        }
        sendTable[notificationID]?[token] = row
    }

    public func notification(id: String) -> StoredNotification? {
        guard let notification = notificationTable[id] else { return nil }
        let sends = (sendTable[id] ?? [:]).values.map(\.send).sorted { $0.token < $1.token }
        return StoredNotification(notification: notification, sends: sends)
    }

    public func shareProviderToken(keyID: String, candidate: String, issuedAt: Date, reuseIfIssuedAfter: Date) -> SharedProviderToken {
        if let stored = providerTokens[keyID], stored.issuedAt > reuseIfIssuedAfter { return stored }
        let shared = SharedProviderToken(token: candidate, issuedAt: issuedAt)
        providerTokens[keyID] = shared
        return shared
    }
}
