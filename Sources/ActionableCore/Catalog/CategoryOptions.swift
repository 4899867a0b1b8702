/// Options of a category, mirroring `UNNotificationCategoryOptions`.
public struct CategoryOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Send the dismiss action to the app (`UNNotificationDismissActionIdentifier`).
    public static let customDismissAction = CategoryOptions(rawValue: 1 << 0)
    /// Allow the notification in CarPlay.
    public static let allowInCarPlay = CategoryOptions(rawValue: 1 << 1)
    /// Show the title when previews are hidden.
    public static let hiddenPreviewsShowTitle = CategoryOptions(rawValue: 1 << 2)
    /// Show the subtitle when previews are hidden.
    public static let hiddenPreviewsShowSubtitle = CategoryOptions(rawValue: 1 << 3)
    /// Let Siri announce the notification. Ignored since iOS 15.
    public static let allowAnnouncement = CategoryOptions(rawValue: 1 << 4)

    /// Every option with its name in category files, in the specification's order.
    public static let named: [(name: String, option: CategoryOptions)] = [
        ("customDismissAction", .customDismissAction),
        ("allowInCarPlay", .allowInCarPlay),
        ("hiddenPreviewsShowTitle", .hiddenPreviewsShowTitle),
        ("hiddenPreviewsShowSubtitle", .hiddenPreviewsShowSubtitle),
        ("allowAnnouncement", .allowAnnouncement),
    ]

    /// The option called `name` in category files, if there is one.
    public init?(name: String) {
        guard let entry = Self.named.first(where: { $0.name == name }) else { return nil }
        self = entry.option
    }

    /// The names of the options set, in the specification's order.
    public var names: [String] {
        Self.named.filter { contains($0.option) }.map(\.name)
    }
}

/// Options of an action, mirroring `UNNotificationActionOptions`.
public struct ActionOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The device must be unlocked before the action runs.
    public static let authenticationRequired = ActionOptions(rawValue: 1 << 0)
    /// The action is shown in red.
    public static let destructive = ActionOptions(rawValue: 1 << 1)
    /// The action opens the app.
    public static let foreground = ActionOptions(rawValue: 1 << 2)
}
