/// A set of actions the backend names in `aps.category` (`UNNotificationCategory`).
public struct NotificationCategory: Hashable, Sendable {
    /// The value of `aps.category`.
    public var id: CategoryID
    /// Documentation only.
    public var description: String?
    /// Category options.
    public var options: CategoryOptions
    /// Shown instead of the body when previews are hidden (iOS 11+).
    public var hiddenPreviewsBodyPlaceholder: LocalizedString?
    /// `categorySummaryFormat` (iOS 12+).
    public var summaryFormat: LocalizedString?
    /// `intentIdentifiers`.
    public var intents: [String]
    /// The custom payload keys.
    public var payload: PayloadSchema
    /// The actions in display order.
    public var actions: [NotificationAction]
    /// The actions shown in the default (alert) and minimal (banner) contexts.
    public var contexts: Contexts
    /// A retired category is no longer registered by apps, but the server still accepts and
    /// routes taps on its actions, which come from app versions installed before it was retired.
    public var retired: Bool
    /// The actions Android shows, in order (`android: { actions: […] }`, at most three); `nil`
    /// shows the first three of ``androidActions``' default, the app's order.
    public var androidActionIDs: [ActionID]?

    /// The actions an Android notification carries: the file's `android.actions`, or else the
    /// first three registered actions in the default context's order (Android shows three).
    public var androidActions: [NotificationAction] {
        let registered = registeredActions
        if let androidActionIDs { return androidActionIDs.compactMap { id in registered.first { $0.id == id } } }
        let ordered = contexts.default.compactMap { id in registered.first { $0.id == id } }
        let rest = registered.filter { action in !contexts.default.contains(action.id) }
        return Array((ordered + rest).prefix(Self.maximumAndroidActions))
    }

    /// The most actions Android shows on one notification.
    public static let maximumAndroidActions = 3

    /// Creates a category. Without `contexts`, the defaults of ``Contexts/derived(from:)`` apply.
    public init(
        id: CategoryID,
        description: String? = nil,
        options: CategoryOptions = [],
        hiddenPreviewsBodyPlaceholder: LocalizedString? = nil,
        summaryFormat: LocalizedString? = nil,
        intents: [String] = [],
        payload: PayloadSchema = PayloadSchema(),
        actions: [NotificationAction] = [],
        contexts: Contexts? = nil,
        retired: Bool = false
    ) {
        self.id = id
        self.description = description
        self.options = options
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
        self.summaryFormat = summaryFormat
        self.intents = intents
        self.payload = payload
        self.actions = actions
        self.contexts = contexts ?? .derived(from: actions.filter { !$0.retired }.map(\.id))
        self.retired = retired
    }

    /// The actions an app registers: every action not retired, in display order (none when the
    /// category itself is retired).
    public var registeredActions: [NotificationAction] {
        retired ? [] : actions.filter { !$0.retired }
    }

    /// The action called `id`, if declared.
    public func action(_ id: ActionID) -> NotificationAction? {
        actions.first { $0.id == id }
    }

    /// The most actions a category may have.
    public static let maximumActions = 10
}

/// Which actions iOS shows where space differs (the iOS 8 default and minimal contexts).
public struct Contexts: Hashable, Sendable {
    /// Alert style: at most four actions.
    public var `default`: [ActionID]
    /// Banners and limited space: at most two actions.
    public var minimal: [ActionID]

    /// The most actions the default context may list.
    public static let maximumDefault = 4
    /// The most actions the minimal context may list.
    public static let maximumMinimal = 2

    /// Creates contexts.
    public init(default: [ActionID], minimal: [ActionID]) {
        self.default = `default`
        self.minimal = minimal
    }

    /// The contexts when a file gives none: the first four actions, and the first two of those.
    /// Pass only the actions an app registers (retired actions are never in a context).
    public static func derived(from actions: [ActionID]) -> Contexts {
        let first = Array(actions.prefix(maximumDefault))
        return Contexts(default: first, minimal: Array(first.prefix(maximumMinimal)))
    }
}
