/// One button of a category (`UNNotificationAction`, or `UNTextInputNotificationAction` when it
/// has ``input``).
public struct NotificationAction: Hashable, Sendable {
    /// The identifier the app receives as `actionIdentifier`.
    public var id: ActionID
    /// The button's title.
    public var title: LocalizedString
    /// Whether tapping opens the app.
    public var activation: Activation
    /// Whether the button is shown as destructive.
    public var destructive: Bool
    /// Whether the device must be unlocked first.
    public var authenticationRequired: Bool
    /// An icon shown beside the title (iOS 15+).
    public var icon: ActionIcon?
    /// Present for a text-input action.
    public var input: TextInput?
    /// A retired action is no longer registered by apps (generated code leaves it out, and no
    /// context may name it), but the server still accepts and routes its taps, which come from
    /// app versions installed before it was retired.
    public var retired: Bool
    /// What only Android reads (`android:` in a category file): a drawable icon and a semantic action.
    public var android: AndroidActionOptions?

    /// Creates an action; the defaults are those of a category file.
    public init(
        id: ActionID,
        title: LocalizedString,
        activation: Activation = .background,
        destructive: Bool = false,
        authenticationRequired: Bool = false,
        icon: ActionIcon? = nil,
        input: TextInput? = nil,
        retired: Bool = false,
        android: AndroidActionOptions? = nil
    ) {
        self.android = android
        self.id = id
        self.title = title
        self.activation = activation
        self.destructive = destructive
        self.authenticationRequired = authenticationRequired
        self.icon = icon
        self.input = input
        self.retired = retired
    }

    /// The options iOS would be given for this action.
    public var options: ActionOptions {
        var options: ActionOptions = []
        if activation == .foreground { options.insert(.foreground) }
        if destructive { options.insert(.destructive) }
        if authenticationRequired { options.insert(.authenticationRequired) }
        return options
    }

    /// Where the action runs.
    public enum Activation: String, Hashable, Sendable, CaseIterable {
        /// The app handles the action without coming to the foreground (the default).
        case background
        /// The app is opened.
        case foreground
    }
}

/// An action's icon (`UNNotificationActionIcon`).
public enum ActionIcon: Hashable, Sendable {
    /// An SF Symbol, by name.
    case system(String)
    /// An image in the app's asset catalog, by name.
    case template(String)
}

/// The Android-only settings of an action (`android:` in a category file).
public struct AndroidActionOptions: Hashable, Sendable {
    /// A drawable resource of the app shown beside the title (`R.drawable.NAME`; lowercase
    /// letters, digits and `_`, starting with a letter).
    public var icon: String?
    /// What the action does, for the system and assistants (`NotificationCompat.Action.SEMANTIC_ACTION_*`).
    public var semanticAction: SemanticAction?

    /// Options with `icon` and `semanticAction`.
    public init(icon: String? = nil, semanticAction: SemanticAction? = nil) {
        self.icon = icon
        self.semanticAction = semanticAction
    }

    /// Android's semantic actions, in the file's spelling.
    public enum SemanticAction: String, Hashable, Sendable, CaseIterable {
        case reply, markAsRead, markAsUnread, delete, archive, mute, unmute, thumbsUp, thumbsDown, call
    }

    /// Whether `name` can name an Android drawable resource.
    public static func isResourceName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}

/// What makes an action a text-input action (`UNTextInputNotificationAction`).
public struct TextInput: Hashable, Sendable {
    /// The text of the send button.
    public var button: LocalizedString?
    /// The placeholder in the empty text field.
    public var placeholder: LocalizedString?
    /// The longest text the server accepts, in characters.
    public var maxLength: Int

    /// `maxLength` when a category file does not give one.
    public static let defaultMaxLength = 1000

    /// Creates a text input.
    public init(button: LocalizedString? = nil, placeholder: LocalizedString? = nil, maxLength: Int = defaultMaxLength) {
        self.button = button
        self.placeholder = placeholder
        self.maxLength = maxLength
    }
}
