// The served catalog on Apple's notification center. Apple's platforms compile this file; this
// package's tests type-check and run it through a target that defines ACTIONABLE_USER_NOTIFICATIONS.
#if (canImport(UserNotifications) && !os(Linux)) || ACTIONABLE_USER_NOTIFICATIONS
import Foundation
public import UserNotifications

#if ACTIONABLE_USER_NOTIFICATIONS
public import ActionableClient
#endif

extension ServedCategory {
    /// The category to register with `UNUserNotificationCenter`: its actions in display order,
    /// titles already in the device's language.
    public var notificationCategory: UNNotificationCategory {
        var categoryOptions: UNNotificationCategoryOptions = []
        for option in options {
            switch option {
            case "customDismissAction": categoryOptions.insert(.customDismissAction)
            #if !os(macOS)
            case "allowInCarPlay": categoryOptions.insert(.allowInCarPlay)
            #endif
            case "hiddenPreviewsShowTitle": categoryOptions.insert(.hiddenPreviewsShowTitle)
            case "hiddenPreviewsShowSubtitle": categoryOptions.insert(.hiddenPreviewsShowSubtitle)
            #if !os(macOS)
            case "allowAnnouncement":
                if #available(iOS 13.0, *) { categoryOptions.insert(.allowAnnouncement) }
            #endif
            default: break
            }
        }
        return UNNotificationCategory(
            identifier: identifier, actions: actions.map(\.notificationAction), intentIdentifiers: intents,
            hiddenPreviewsBodyPlaceholder: hiddenPreviewsBodyPlaceholder, categorySummaryFormat: summaryFormat,
            options: categoryOptions)
    }
}

extension ServedAction {
    /// The button to register: a text-input action when it has an input.
    public var notificationAction: UNNotificationAction {
        var actionOptions: UNNotificationActionOptions = []
        if foreground { actionOptions.insert(.foreground) }
        if destructive { actionOptions.insert(.destructive) }
        if authenticationRequired { actionOptions.insert(.authenticationRequired) }
        if #available(iOS 15.0, *), let icon {
            let image: UNNotificationActionIcon
            switch icon {
            case .system(let name): image = UNNotificationActionIcon(systemImageName: name)
            case .template(let name): image = UNNotificationActionIcon(templateImageName: name)
            }
            if let input {
                return UNTextInputNotificationAction(
                    identifier: identifier, title: title, options: actionOptions, icon: image,
                    textInputButtonTitle: input.button ?? "Send", textInputPlaceholder: input.placeholder ?? "")
            }
            return UNNotificationAction(identifier: identifier, title: title, options: actionOptions, icon: image)
        }
        if let input {
            return UNTextInputNotificationAction(
                identifier: identifier, title: title, options: actionOptions, textInputButtonTitle: input.button ?? "Send",
                textInputPlaceholder: input.placeholder ?? "")
        }
        return UNNotificationAction(identifier: identifier, title: title, options: actionOptions)
    }
}

/// What ``CatalogSync/registerAtLaunch(compiled:on:)`` did.
public struct LaunchRegistration: Sendable {
    /// The identifiers registered from the catalog (the cached one, then a changed one).
    public var served: Set<String>
    /// How many times the whole set was registered: 1, or 2 when the server's catalog changed.
    public var registrations: Int
    /// The refresh's outcome; a failure leaves the cached catalog registered.
    public var refresh: Result<CatalogSync.Refresh, CatalogSync.RefreshError>
}

extension CatalogSync {
    /// At launch, before the app finishes launching: registers the cached catalog at once (no
    /// network wait), merged as `NotificationCategories.register()` merges — other SDKs'
    /// categories kept, `compiled` (the generated `NotificationCategories.all`) and the served
    /// ones replacing earlier copies of ours, the compiled version winning where both name a
    /// category (the app's code handles its actions, and what the app was built with is never
    /// relaxed by an answer from the network) — then asks the server and registers again only
    /// when its catalog changed.
    @discardableResult
    public func registerAtLaunch(
        compiled: Set<UNNotificationCategory> = [], on center: UNUserNotificationCenter = .current()
    ) async -> LaunchRegistration {
        var registrations = 0
        var served: Set<String> = []
        if let catalog = cached() {
            served = register(catalog, compiled: compiled, existing: await center.notificationCategories(), on: center)
            registrations += 1
        }
        let refresh: Result<Refresh, RefreshError>
        do {
            let outcome = try await self.refresh()
            refresh = .success(outcome)
            if case .changed(let catalog) = outcome {
                served = register(catalog, compiled: compiled, existing: await center.notificationCategories(), on: center)
                registrations += 1
            }
        } catch let error as RefreshError {
            refresh = .failure(error)
            if registrations == 0 {
                center.setNotificationCategories(
                    Self.merged(existing: await center.notificationCategories(), compiled: compiled, served: nil, previouslyServed: lastServed()))
                registrations += 1
            }
        } catch {
            refresh = .failure(.unreachable("cancelled"))
        }
        return LaunchRegistration(served: served, registrations: registrations, refresh: refresh)
    }

    /// Registers `catalog` (if any) with `compiled` over `existing`; returns the served identifiers.
    package func register(
        _ catalog: ServedCatalog?, compiled: Set<UNNotificationCategory>, existing: Set<UNNotificationCategory>,
        on center: UNUserNotificationCenter
    ) -> Set<String> {
        let set = Self.merged(existing: existing, compiled: compiled, served: catalog, previouslyServed: lastServed())
        let served = Set((catalog?.categories ?? []).map(\.identifier))
        if catalog != nil { recordServed(served) }
        center.setNotificationCategories(set)
        return served
    }

    /// Others' categories in `existing`, without the ones that are ours (in `compiled`, in
    /// `served`, or served before and since removed or retired), then `served`, then `compiled`
    /// (which wins over a served category of the same identifier).
    package static func merged(
        existing: Set<UNNotificationCategory>, compiled: Set<UNNotificationCategory>, served: ServedCatalog?,
        previouslyServed: Set<String>
    ) -> Set<UNNotificationCategory> {
        let servedCategories = (served?.categories ?? []).map(\.notificationCategory)
        let ours = Set(compiled.map(\.identifier)).union(servedCategories.map(\.identifier)).union(previouslyServed)
        var result: [String: UNNotificationCategory] = [:]
        for category in existing where !ours.contains(category.identifier) { result[category.identifier] = category }
        for category in servedCategories { result[category.identifier] = category }
        for category in compiled { result[category.identifier] = category }
        return Set(result.values)
    }
}
#endif
