// A notification service extension's helper. Apple's platforms compile this file; this package's
// tests type-check and run it through a target that defines ACTIONABLE_USER_NOTIFICATIONS.
#if (canImport(UserNotifications) && !os(Linux)) || ACTIONABLE_USER_NOTIFICATIONS
public import Foundation
public import UserNotifications

#if ACTIONABLE_USER_NOTIFICATIONS
public import ActionableClient
#endif

/// In a Notification Service Extension: makes sure the category a notification names is
/// registered before the notification is shown, so a category the server started sending after
/// the app was installed (or last launched) shows its buttons on the first notification.
///
/// ```swift
/// final class NotificationService: UNNotificationServiceExtension {
///     let categories = NotificationServiceCategories(
///         sync: CatalogSync(server: URL(string: "https://api.example.com/")!,
///                           cache: FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example")!
///                               .appendingPathComponent("actionable-catalog")),
///         compiled: NotificationCategories.all)
///
///     override func didReceive(_ request: UNNotificationRequest,
///                              withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
///         categories.didReceive(request, withContentHandler: contentHandler)
///     }
///
///     override func serviceExtensionTimeWillExpire() { categories.serviceExtensionTimeWillExpire() }
/// }
/// ```
///
/// The content is handed on exactly once: when the category is known (at once), when it has
/// been registered and the notification center reports it, or — the server down, the category
/// not served, the registration not reported within `deadline`, or the system's own time
/// running out — unchanged, so the notification is shown without buttons, never dropped.
public final class NotificationServiceCategories: @unchecked Sendable {
    /// How a notification was handed on.
    public enum Outcome: Sendable, Hashable {
        /// The notification names no category, or one the center already has.
        case known
        /// The category was registered from the catalog, and the center reported it.
        case registered
        /// Shown without buttons, with why.
        case withoutButtons(String)
    }

    private let sync: CatalogSync
    private let compiled: Set<UNNotificationCategory>
    private let center: UNUserNotificationCenter
    private let deadline: TimeInterval
    private let lock = NSLock()
    /// The notifications not handed on yet, by request identifier (one instance may be given several).
    private var pending: [String: (content: UNNotificationContent, handler: (UNNotificationContent) -> Void, task: Task<Void, Never>?)] = [:]

    /// A helper registering from `sync`'s catalog, with the app's `compiled` categories.
    ///
    /// - Parameters:
    ///   - sync: the catalog, cached where the app's sync caches it (an app group's container).
    ///   - compiled: the generated `NotificationCategories.all`, registered with the served ones.
    ///   - center: the notification center.
    ///   - deadline: the longest to wait, in seconds, before handing the content on without
    ///     buttons; iOS gives an extension about 30 seconds, so the default leaves it room.
    public init(
        sync: CatalogSync, compiled: Set<UNNotificationCategory> = [], center: UNUserNotificationCenter = .current(),
        deadline: TimeInterval = 20
    ) {
        self.sync = sync
        self.compiled = compiled
        self.center = center
        self.deadline = deadline
    }

    /// Call from `didReceive(_:withContentHandler:)`: hands `request`'s content to
    /// `contentHandler` once its category is registered, or without buttons.
    public func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        let content = request.content
        let identifier = request.identifier
        // Kept before the work starts: work that ends at once still finds what to hand on.
        lock.withLock { pending[identifier] = (content, contentHandler, nil) }
        let task = Task { [self] in
            _ = await prepare(content.categoryIdentifier)
            handOn(identifier)
        }
        lock.withLock {
            if pending[identifier] != nil { pending[identifier]?.task = task }
        }
    }

    /// Call from `serviceExtensionTimeWillExpire()`: hands every content not handed on yet on
    /// now, as it is.
    public func serviceExtensionTimeWillExpire() {
        let identifiers = lock.withLock { Array(pending.keys) }
        for identifier in identifiers { handOn(identifier) }
    }

    /// Hands the content of `identifier` on, once: the first call takes it.
    private func handOn(_ identifier: String) {
        let taken = lock.withLock { pending.removeValue(forKey: identifier) }
        guard let taken else { return }
        taken.task?.cancel()
        taken.handler(taken.content)
    }

    /// Registers `categoryIdentifier` from the catalog unless the center has it, and waits until
    /// the center reports it, within the deadline. What ``didReceive(_:withContentHandler:)``
    /// does before handing the content on.
    public func prepare(_ categoryIdentifier: String) async -> Outcome {
        guard !categoryIdentifier.isEmpty else { return .known }
        let deadline = Date().addingTimeInterval(self.deadline)
        let existing = await center.notificationCategories()
        if existing.contains(where: { $0.identifier == categoryIdentifier }) { return .known }

        var catalog = await sync.cached()
        let isCompiled = compiled.contains { $0.identifier == categoryIdentifier }
        if !isCompiled, catalog?.category(categoryIdentifier) == nil {
            do {
                catalog = try await withDeadline(deadline) { try await self.sync.refresh().catalog }
            } catch {
                return .withoutButtons("the catalog could not be fetched: \(error)")
            }
        }
        guard isCompiled || catalog?.category(categoryIdentifier) != nil else {
            return .withoutButtons("the server does not serve the category '\(categoryIdentifier)'")
        }
        _ = await sync.register(catalog, compiled: compiled, existing: existing, on: center)
        // The center applies a registration later than the call returns: ask until it reports it.
        var delay: TimeInterval = 0.02
        while Date() < deadline, !Task.isCancelled {
            if await center.notificationCategories().contains(where: { $0.identifier == categoryIdentifier }) { return .registered }
            try? await Task.sleep(nanoseconds: UInt64(max(0, min(delay, deadline.timeIntervalSinceNow)) * 1e9))
            delay = min(delay * 2, 0.5)
        }
        return .withoutButtons("the notification center did not report the category registered in time")
    }

    /// `operation`, or `CancellationError` once `deadline` passes.
    private func withDeadline<T: Sendable>(_ deadline: Date, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(max(0, deadline.timeIntervalSinceNow) * 1e9))
                throw CancellationError()
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }
}
#endif
