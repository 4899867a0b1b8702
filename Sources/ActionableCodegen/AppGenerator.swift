import ActionableCore

/// `actionable generate swift --target app`: one Swift file for an iOS app (iOS 12 or later)
/// that registers exactly the categories of the catalog.
///
/// - `NAME.all` (every category, built with the iOS 12 initializer) and
///   `NAME.register(on:)` (`setNotificationCategories`, which replaces what was registered);
/// - per category a type with its `identifier`, an `Action` enum of identifiers, its
///   `UNNotificationCategory`, and a `Payload` decoded from `userInfo`;
/// - actions in the order of the `default` context, then the other declared actions; text
///   input actions as `UNTextInputNotificationAction`; icons only under
///   `if #available(iOS 15.0, *)`;
/// - every string a person reads through `NSLocalizedString` with a stable key
///   (see ``LocalizationKeys``).
///
/// Retired categories and actions are left out: the app no longer registers them.
///
/// With ActionableClient in the app, `NAME.registerDevice(_:with:)` is where the token of
/// `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)` goes.
///
/// Where a file gives no text-input button title, the button says "Send"; without a placeholder
/// the field has none. `maxLength` has no iOS API: the server enforces it.
public struct AppGenerator: Sendable {
    /// The options of the output.
    public var options: GenerationOptions

    /// A generator with `options`.
    public init(options: GenerationOptions = GenerationOptions()) { self.options = options }

    /// The Swift source for `categories`, in category-id order whatever their order here.
    public func generate(_ categories: [SourceCategory]) throws(GenerationError) -> String {
        let sorted = try NameCollisions.checkedInOrder(categories).registered
        let access = options.access.rawValue
        let needsJSON = sorted.contains { $0.category.payload.fields.contains { $0.type == .object || $0.type == .array } }
        var writer = SwiftWriter()
        GeneratedHeader.write(to: &writer, target: "app", sources: sorted.map(\.path))
        // A public enum shows these modules' types: its imports are public, so the file compiles
        // with InternalImportsByDefault as without.
        let imports = options.access == .public ? "public import" : "import"
        writer.line("\(imports) Foundation")
        writer.line("\(imports) UserNotifications")
        writer.line()
        writer.line("/// The notification categories of the catalog, for `UNUserNotificationCenter`.")
        writer.block("\(access) enum \(options.name)") { writer in
            writer.line("/// Every category of the catalog.")
            writer.block("\(access) static var all: Set<UNNotificationCategory>") { writer in
                writer.line("[" + sorted.map { SwiftName.type($0.category.id.rawValue) + ".category" }.joined(separator: ", ") + "]")
            }
            writer.line()
            writer.line("/// Registers every category of the catalog beside the ones others registered (another SDK's, the")
            writer.line("/// app's own): `setNotificationCategories` replaces the whole set, so this reads what is registered,")
            writer.line("/// keeps every category that is not the catalog's, replaces the catalog's by identifier, and sets")
            writer.line("/// the union once, when the center answers (later, as Apple's does). Reading and setting are two")
            writer.line("/// steps: an app that sets categories of its own sets them with ours, through ``merged(with:)``.")
            writer.block("\(access) static func register(on center: UNUserNotificationCenter = .current())") { writer in
                writer.line("center.getNotificationCategories { registered in")
                writer.line("    center.setNotificationCategories(merged(with: registered))")
                writer.line("}")
            }
            writer.line()
            writer.line("/// Registers every category as ``register(on:)`` does, and returns once the set is handed to the")
            writer.line("/// center (a name of its own: an existing `register()` in an async context stays as it was).")
            writer.line("@available(iOS 13.0, macOS 10.15, *)")
            writer.block("\(access) static func registerAndWait(on center: UNUserNotificationCenter = .current()) async") { writer in
                writer.line("center.setNotificationCategories(merged(with: await center.notificationCategories()))")
            }
            writer.line()
            writer.line("/// `registered` with the catalog's categories in place of any of the same identifier.")
            writer.block("\(access) static func merged(with registered: Set<UNNotificationCategory>) -> Set<UNNotificationCategory>") { writer in
                writer.line("let ours = Set(all.map(\\.identifier))")
                writer.line("return registered.filter { !ours.contains($0.identifier) }.union(all)")
            }
            writer.line()
            writer.line("/// The payload keys of the category `identifier` (nil for a category the catalog does not have):")
            writer.line("/// what an app reports back to the server, leaving out keys other SDKs add to `userInfo`.")
            writer.block("\(access) static func payloadKeys(ofCategory identifier: String) -> Set<String>?") { writer in
                writer.line("switch identifier {")
                for source in sorted {
                    writer.line(
                        "case \(SwiftName.type(source.category.id.rawValue)).identifier: return \(SwiftName.type(source.category.id.rawValue)).payloadKeys"
                    )
                }
                writer.line("default: return nil")
                writer.line("}")
            }
            for source in sorted {
                writer.line()
                AppCategory(category: source.category, access: access).write(into: &writer)
            }
            if needsJSON {
                writer.line()
                AppJSONType.write(access: access, into: &writer)
            }
        }
        writeDeviceRegistration(into: &writer, access: access)
        return writer.text
    }

    /// The hook for the device token, compiled only where the app links ActionableClient.
    private func writeDeviceRegistration(into writer: inout SwiftWriter, access: String) {
        writer.line()
        writer.line("#if canImport(ActionableClient)")
        let imports = options.access == .public ? "public import" : "import"
        writer.line("\(imports) ActionableClient")
        writer.line("\(imports) ActionableWire")
        writer.line()
        writer.block("extension \(options.name)") { writer in
            writer.line("/// Registers this device's push token with the server (`POST /v1/devices`), so it can send")
            writer.line("/// to it: call it from `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`,")
            writer.line("/// which iOS calls on every launch after `registerForRemoteNotifications()` (a known token")
            writer.line("/// is renewed; a new one, after a restore or reinstall, is registered in its place).")
            writer.line("///")
            writer.line("/// ```swift")
            writer.line("/// func application(_ application: UIApplication, didFinishLaunchingWithOptions options: …) -> Bool {")
            writer.line("///     \(options.name).register()")
            writer.line("///     application.registerForRemoteNotifications()")
            writer.line("///     return true")
            writer.line("/// }")
            writer.line("/// func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {")
            writer.line("///     Task { try? await \(options.name).registerDevice(deviceToken, with: reporter) }")
            writer.line("/// }")
            writer.line("/// ```")
            writer.line("///")
            writer.line("/// A debug build (run from Xcode) registers the token as `sandbox`, any other build as")
            writer.line("/// `production`: the APNs environment of the app's `aps-environment` entitlement in the")
            writer.line("/// usual signing set-up. Give `environment` where yours differs.")
            writer.line("@discardableResult")
            writer.block(
                "\(access) static func registerDevice(_ deviceToken: Data, with reporter: ActionReporter, environment: ActionReporter.APNsEnvironment? = nil) async throws -> Bool"
            ) { writer in
                writer.line("#if DEBUG")
                writer.line("let built: ActionReporter.APNsEnvironment = .sandbox")
                writer.line("#else")
                writer.line("let built: ActionReporter.APNsEnvironment = .production")
                writer.line("#endif")
                writer.line("return try await reporter.registerDevice(token: deviceToken, environment: environment ?? built)")
            }
        }
        writer.line("#endif")
    }
}
