import Foundation

/// What FCM checks of a `messages:send` body before it takes it, as the stand-in checks it: a JSON
/// object with a `message` aimed at one registration token, a data message of string values
/// without FCM's reserved keys and within 4096 bytes, and an `android` block FCM knows.
enum MessageCheck {
    /// A refused message: the error FCM answers (400 `INVALID_ARGUMENT`) and why.
    struct Refusal: Error, Equatable {
        var message: String
        /// The FCM error code in `details` (`INVALID_ARGUMENT` for a bad token).
        var errorCode: String?
    }

    /// A message that passed.
    struct Checked: Equatable {
        var token: String
        var data: [String: String]
        var priority: String?
        var ttl: String?
        var collapseKey: String?
    }

    /// The most a data message may hold: its keys and values, in bytes.
    static let dataLimit = 4096
    /// Keys FCM keeps for itself in a data message.
    static let reservedKeys: Set<String> = ["from", "notification", "message_type"]
    static let messageFields: Set<String> = [
        "name", "data", "notification", "android", "webpush", "apns", "fcm_options", "token", "topic", "condition",
    ]
    static let androidFields: Set<String> = [
        "collapse_key", "priority", "ttl", "restricted_package_name", "data", "notification", "fcm_options", "direct_boot_ok",
        "bandwidth_constrained_ok", "restricted_satellite_ok",
    ]

    static func check(_ body: Data) throws(Refusal) -> Checked {
        guard let object = try? JSONSerialization.jsonObject(with: body), let root = object as? [String: Any] else {
            throw Refusal(message: "Invalid JSON payload received.")
        }
        for key in root.keys where key != "message" && key != "validate_only" {
            throw Refusal(message: "Invalid JSON payload received. Unknown name \"\(key)\": Cannot find field.")
        }
        guard let message = root["message"] as? [String: Any] else {
            throw Refusal(message: "Request contains an invalid argument: message is missing.")
        }
        for key in message.keys where !messageFields.contains(key) {
            throw Refusal(message: "Invalid JSON payload received. Unknown name \"\(key)\" at 'message': Cannot find field.")
        }
        if message["topic"] != nil || message["condition"] != nil {
            throw Refusal(message: "The stand-in takes messages to one registration token only (no topic, no condition).")
        }
        guard let token = message["token"] as? String, !token.isEmpty, token.utf8.count <= 4096, !token.contains(where: \.isWhitespace) else {
            throw Refusal(message: "The registration token is not a valid FCM registration token", errorCode: "INVALID_ARGUMENT")
        }
        var data: [String: String] = [:]
        if let raw = message["data"] {
            guard let pairs = raw as? [String: Any] else { throw Refusal(message: "Invalid value at 'message.data': not a map.") }
            var size = 0
            for (key, value) in pairs {
                guard let text = value as? String else {
                    throw Refusal(message: "Invalid value at 'message.data[\(key)]': the values of a data message are strings.")
                }
                let lowered = key.lowercased()
                if reservedKeys.contains(lowered) || lowered.hasPrefix("google") || lowered.hasPrefix("gcm") {
                    throw Refusal(message: "Invalid data payload key: \(key)")
                }
                size += key.utf8.count + text.utf8.count
                data[key] = text
            }
            guard size <= dataLimit else { throw Refusal(message: "Android message is too big (data of \(size) bytes; at most \(dataLimit)).") }
        }
        var priority: String?
        var ttl: String?
        var collapseKey: String?
        if let raw = message["android"] {
            guard let android = raw as? [String: Any] else { throw Refusal(message: "Invalid value at 'message.android'.") }
            for key in android.keys where !androidFields.contains(key) {
                throw Refusal(message: "Invalid JSON payload received. Unknown name \"\(key)\" at 'message.android': Cannot find field.")
            }
            if let value = android["priority"] {
                guard let text = value as? String, ["normal", "high"].contains(text.lowercased()) else {
                    throw Refusal(message: "Invalid value at 'message.android.priority'.")
                }
                priority = text
            }
            if let value = android["ttl"] {
                guard let text = value as? String, isDuration(text) else { throw Refusal(message: "Invalid value at 'message.android.ttl'.") }
                ttl = text
            }
            if let value = android["collapse_key"] {
                guard let text = value as? String else { throw Refusal(message: "Invalid value at 'message.android.collapse_key'.") }
                collapseKey = text
            }
        }
        return Checked(token: token, data: data, priority: priority, ttl: ttl, collapseKey: collapseKey)
    }

    /// A protobuf JSON duration: seconds with up to nine decimals and an `s` (`3600s`, `0.5s`),
    /// at most FCM's four weeks.
    static func isDuration(_ text: String) -> Bool {
        guard text.hasSuffix("s") else { return false }
        let number = text.dropLast()
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCIIDigit),
            parts.count == 1 || (1...9).contains(parts[1].count) && parts[1].allSatisfy(\.isASCIIDigit)
        else { return false }
        guard let seconds = Int(whole) else { return false }
        return seconds <= 28 * 86400
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
