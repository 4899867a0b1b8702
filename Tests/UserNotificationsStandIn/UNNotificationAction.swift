// A stand-in for Apple's UserNotifications on Linux, written from Apple's documented
// declarations (iOS 10, 12 and 15 initializers; option sets with Apple's raw values), so that
// generated app code type-checks and runs here. Do not simplify a signature to make generated
// code fit: the declarations are the contract.
public import Foundation

/// Options of an action (`UNNotificationActionOptions`, iOS 10).
public struct UNNotificationActionOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let authenticationRequired = UNNotificationActionOptions(rawValue: 1 << 0)
    public static let destructive = UNNotificationActionOptions(rawValue: 1 << 1)
    public static let foreground = UNNotificationActionOptions(rawValue: 1 << 2)
}

/// An action's icon (`UNNotificationActionIcon`, iOS 15).
@available(iOS 15.0, *)
open class UNNotificationActionIcon: NSObject, @unchecked Sendable {
    /// The SF Symbol's name, when made with ``init(systemImageName:)`` (not Apple API: for tests).
    public let systemImageName: String?
    /// The template image's name, when made with ``init(templateImageName:)`` (not Apple API: for tests).
    public let templateImageName: String?

    public convenience init(templateImageName: String) {
        self.init(system: nil, template: templateImageName)
    }

    public convenience init(systemImageName: String) {
        self.init(system: systemImageName, template: nil)
    }

    private init(system: String?, template: String?) {
        systemImageName = system
        templateImageName = template
    }
}

/// A button of a notification (`UNNotificationAction`, iOS 10; `icon` iOS 15).
open class UNNotificationAction: NSObject, @unchecked Sendable {
    open private(set) var identifier: String
    open private(set) var title: String
    open private(set) var options: UNNotificationActionOptions
    private var storedIcon: AnyObject?

    @available(iOS 15.0, *)
    open var icon: UNNotificationActionIcon? { storedIcon as? UNNotificationActionIcon }

    public convenience init(identifier: String, title: String, options: UNNotificationActionOptions = []) {
        self.init(standInIdentifier: identifier, title: title, options: options, icon: nil)
    }

    @available(iOS 15.0, *)
    public convenience init(identifier: String, title: String, options: UNNotificationActionOptions = [], icon: UNNotificationActionIcon?) {
        self.init(standInIdentifier: identifier, title: title, options: options, icon: icon)
    }

    init(standInIdentifier identifier: String, title: String, options: UNNotificationActionOptions, icon: AnyObject?) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.storedIcon = icon
    }
}

/// A button that asks for text (`UNTextInputNotificationAction`, iOS 10; `icon` iOS 15).
open class UNTextInputNotificationAction: UNNotificationAction, @unchecked Sendable {
    open private(set) var textInputButtonTitle: String
    open private(set) var textInputPlaceholder: String

    public convenience init(
        identifier: String, title: String, options: UNNotificationActionOptions = [], textInputButtonTitle: String,
        textInputPlaceholder: String
    ) {
        self.init(
            standInIdentifier: identifier, title: title, options: options, icon: nil, button: textInputButtonTitle,
            placeholder: textInputPlaceholder)
    }

    @available(iOS 15.0, *)
    public convenience init(
        identifier: String, title: String, options: UNNotificationActionOptions = [], icon: UNNotificationActionIcon?,
        textInputButtonTitle: String, textInputPlaceholder: String
    ) {
        self.init(
            standInIdentifier: identifier, title: title, options: options, icon: icon, button: textInputButtonTitle,
            placeholder: textInputPlaceholder)
    }

    init(
        standInIdentifier identifier: String, title: String, options: UNNotificationActionOptions, icon: AnyObject?,
        button: String, placeholder: String
    ) {
        textInputButtonTitle = button
        textInputPlaceholder = placeholder
        super.init(standInIdentifier: identifier, title: title, options: options, icon: icon)
    }
}
