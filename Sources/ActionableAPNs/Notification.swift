import Crypto
public import Foundation

/// One notification to one device, as APNs takes it: the payload bytes and the headers.
public struct APNsNotification: Sendable, Hashable {
    /// What the notification does (`apns-push-type`).
    public enum PushType: String, Sendable, Hashable {
        /// Shows an alert, plays a sound or sets the badge (priority 10).
        case alert
        /// Wakes the app without showing anything (priority 5).
        case background
    }

    /// The device token, in hexadecimal.
    public var deviceToken: String
    /// The payload (at most 4096 bytes).
    public var payload: [UInt8]
    /// `apns-push-type`.
    public var pushType: PushType
    /// `apns-id`: a UUID, the same on every resend of this notification to this device, so
    /// Apple drops a second copy.
    public var id: UUID
    /// `apns-expiration`: until when APNs keeps trying to deliver it; `nil` sends `0` (once).
    public var expiration: Date?
    /// `apns-collapse-id` (at most 64 bytes).
    public var collapseID: String?
    /// `apns-priority`: 10 for an alert, 5 for a background push, unless given.
    public var priority: Int?

    /// A notification to `deviceToken`.
    public init(
        deviceToken: String, payload: [UInt8], pushType: PushType = .alert, id: UUID, expiration: Date? = nil,
        collapseID: String? = nil, priority: Int? = nil
    ) {
        self.deviceToken = deviceToken
        self.payload = payload
        self.pushType = pushType
        self.id = id
        self.expiration = expiration
        self.collapseID = collapseID
        self.priority = priority
    }

    /// The largest payload APNs takes for a regular notification.
    public static let maximumPayloadSize = 4096
    /// The longest `apns-collapse-id`, in bytes.
    public static let maximumCollapseIDSize = 64

    /// The headers of the request to APNs, `authorization` aside: `apns-push-type`,
    /// `apns-priority`, `apns-topic`, `apns-id`, `apns-expiration`, and `apns-collapse-id` when
    /// there is one.
    public func headers(topic: String) -> [(String, String)] {
        var headers = [
            ("apns-push-type", pushType.rawValue),
            ("apns-priority", String(priority ?? (pushType == .alert ? 10 : 5))),
            ("apns-topic", topic),
            ("apns-id", id.uuidString.lowercased()),
            ("apns-expiration", String(Int(expiration?.timeIntervalSince1970 ?? 0))),
        ]
        if let collapseID { headers.append(("apns-collapse-id", collapseID)) }
        return headers
    }

    /// Why APNs would refuse this notification before it is sent, or `nil`.
    public var problem: String? {
        if payload.count > Self.maximumPayloadSize {
            return "the payload is \(payload.count) bytes; APNs takes at most \(Self.maximumPayloadSize)"
        }
        if let collapseID, collapseID.utf8.count > Self.maximumCollapseIDSize {
            return "apns-collapse-id is \(collapseID.utf8.count) bytes; APNs takes at most \(Self.maximumCollapseIDSize)"
        }
        if deviceToken.isEmpty || !deviceToken.allSatisfy(\.isHexDigit) {
            return "the device token is not hexadecimal"
        }
        return nil
    }

    /// The `apns-id` of `notificationID` for `deviceToken`: a UUID (version 5 layout) from the
    /// SHA-256 of both, so a resend after a crash carries the same id and Apple drops the copy.
    public static func id(notificationID: String, deviceToken: String) -> UUID {
        var bytes = Array(SHA256.hash(data: Array("\(notificationID)\u{0}\(deviceToken)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50  // version 5 (name-based)
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10],
                bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
