public import ActionableCore

/// A built notification payload: the exact bytes to send to APNs.
public struct NotificationPayload: Hashable, Sendable {
    /// The category it was checked against.
    public let category: CategoryID
    /// The push type whose limit it fits.
    public let pushType: PushType
    /// The JSON, UTF-8.
    public let bytes: [UInt8]

    /// The JSON as text.
    public var json: String { String(decoding: bytes, as: UTF8.self) }
}
