/// Which push service reaches a device: Apple's (APNs) or Google's (FCM).
public enum DevicePlatform: String, Hashable, Sendable, CaseIterable, Codable {
    /// An iPhone or iPad: a hexadecimal APNs device token, sent through APNs.
    case ios
    /// An Android device: an FCM registration token, sent through FCM HTTP v1.
    case android

    /// The longest FCM registration token taken, in bytes (FCM's are about 160 today, and not
    /// documented as bounded).
    public static let maximumAndroidTokenSize = 4096

    /// Whether `text` can be an FCM registration token: 1 to ``maximumAndroidTokenSize`` bytes
    /// of the characters FCM uses (letters, digits, `-`, `_`, `:` and `.`), so that it travels in
    /// a URL path and a JSON string as it is.
    public static func isAndroidToken(_ text: String) -> Bool {
        let bytes = text.utf8
        return !bytes.isEmpty && bytes.count <= maximumAndroidTokenSize
            && bytes.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x5F || byte == 0x3A || byte == 0x2E
            }
    }
}
