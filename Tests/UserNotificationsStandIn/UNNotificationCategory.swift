public import Foundation

/// Options of a category (`UNNotificationCategoryOptions`).
public struct UNNotificationCategoryOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let customDismissAction = UNNotificationCategoryOptions(rawValue: 1 << 0)
    public static let allowInCarPlay = UNNotificationCategoryOptions(rawValue: 1 << 1)
    @available(iOS 11.0, *)
    public static let hiddenPreviewsShowTitle = UNNotificationCategoryOptions(rawValue: 1 << 2)
    @available(iOS 11.0, *)
    public static let hiddenPreviewsShowSubtitle = UNNotificationCategoryOptions(rawValue: 1 << 3)
    @available(iOS, introduced: 13.0, deprecated: 15.0)
    public static let allowAnnouncement = UNNotificationCategoryOptions(rawValue: 1 << 4)
}

/// A set of actions an app registers (`UNNotificationCategory`: iOS 10, 11 and 12 initializers).
open class UNNotificationCategory: NSObject, @unchecked Sendable {
    open private(set) var identifier: String
    open private(set) var actions: [UNNotificationAction]
    open private(set) var intentIdentifiers: [String]
    open private(set) var options: UNNotificationCategoryOptions
    @available(iOS 11.0, *)
    open var hiddenPreviewsBodyPlaceholder: String { storedPlaceholder }
    @available(iOS 12.0, *)
    open var categorySummaryFormat: String { storedSummaryFormat }
    private var storedPlaceholder: String
    private var storedSummaryFormat: String

    public convenience init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
        options: UNNotificationCategoryOptions = []
    ) {
        self.init(standIn: identifier, actions, intentIdentifiers, "", "", options)
    }

    @available(iOS 11.0, *)
    public convenience init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String], hiddenPreviewsBodyPlaceholder: String,
        options: UNNotificationCategoryOptions = []
    ) {
        self.init(standIn: identifier, actions, intentIdentifiers, hiddenPreviewsBodyPlaceholder, "", options)
    }

    @available(iOS 12.0, *)
    public convenience init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String], hiddenPreviewsBodyPlaceholder: String?,
        categorySummaryFormat: String?, options: UNNotificationCategoryOptions = []
    ) {
        self.init(
            standIn: identifier, actions, intentIdentifiers, hiddenPreviewsBodyPlaceholder ?? "", categorySummaryFormat ?? "",
            options)
    }

    private init(
        standIn identifier: String, _ actions: [UNNotificationAction], _ intents: [String], _ placeholder: String,
        _ summaryFormat: String, _ options: UNNotificationCategoryOptions
    ) {
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intents
        self.storedPlaceholder = placeholder
        self.storedSummaryFormat = summaryFormat
        self.options = options
    }

    // NSObject equality, as Apple's categories compare in a Set: by identifier.
    open override func isEqual(_ object: Any?) -> Bool {
        (object as? UNNotificationCategory)?.identifier == identifier
    }

    open override var hash: Int { identifier.hashValue }
}
