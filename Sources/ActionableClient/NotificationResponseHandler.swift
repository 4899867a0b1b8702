// Apple's UserNotifications only: on Linux, a stand-in module of the same name (kept with the
// tests) type-checks this file through a target that defines ACTIONABLE_USER_NOTIFICATIONS.
#if (canImport(UserNotifications) && !os(Linux)) || ACTIONABLE_USER_NOTIFICATIONS
import Foundation
public import UserNotifications

#if ACTIONABLE_USER_NOTIFICATIONS
public import ActionableClient
#endif

/// Takes the notification responses iOS hands the app: saves each in the reporter's report queue,
/// gives it to the app's handler for its `category.action`, calls iOS's completion handler
/// once the report is safe, and sends it.
///
/// ```swift
/// let responses = NotificationResponseHandler(reporter: reporter)
/// responses.on(category: "invite", action: "accept") { report in await router.open(.invite) }
///
/// func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
///                             withCompletionHandler completionHandler: @escaping @Sendable () -> Void) {
///     responses.handle(response, completionHandler: completionHandler)
/// }
/// ```
public final class NotificationResponseHandler: Sendable {
    /// An app-side handler of one kind of answer.
    public typealias Handler = @Sendable (ActionReport) async -> Void

    /// What ``handle(_:)`` did with a response.
    public enum Handled: Sendable {
        /// Saved in the report queue and sent: what became of it.
        case reported(ReportOutcome)
        /// Not reported: the notification is not one of the server's (no action token, no
        /// category), or the report queue could not be written.
        case notReported(any Error)
    }

    /// The reporter that keeps and sends the reports.
    public let reporter: ActionReporter
    private let payloadKeys: @Sendable (String) -> Set<String>?
    private let handlers = HandlerTable()

    /// A handler that reports through `reporter`.
    ///
    /// - Parameter payloadKeys: the payload keys of a category (the generated
    ///   `NotificationCategories.payloadKeys(ofCategory:)`), so that keys other SDKs add to
    ///   `userInfo` are not sent; every custom key when it answers nil.
    public init(reporter: ActionReporter, payloadKeys: @escaping @Sendable (String) -> Set<String>? = { _ in nil }) {
        self.reporter = reporter
        self.payloadKeys = payloadKeys
    }

    /// Calls `handler` for answers to `category` with `action` (a declared action id, or
    /// Apple's default and dismiss identifiers); `action: nil` takes every action of the
    /// category that has no handler of its own. A later registration replaces an earlier one.
    public func on(category: String, action: String?, perform handler: @escaping Handler) {
        handlers.set(handler, for: HandlerTable.Key(category: category, action: action))
    }

    /// Reports `response`: saves it in the report queue, runs the app's handler, tries the send once
    /// (within the reporter's request timeout, well inside the time iOS gives a background
    /// launch), then calls `completionHandler`. The completion handler is never called
    /// before the report is in the report queue; a report the send could not deliver stays there
    /// for ``ActionReporter/flush()``.
    public func handle(_ response: UNNotificationResponse, completionHandler: @escaping @Sendable () -> Void) {
        let prepared = prepare(response)
        Task {
            await self.run(prepared, completed: completionHandler)
        }
    }

    /// Reports `response`: saves it, runs the app's handler, sends it. For the `async`
    /// delegate method.
    @discardableResult
    public func handle(_ response: UNNotificationResponse) async -> Handled {
        await run(prepare(response), completed: nil)
    }

    /// The report, read from the response at once (it is not kept past the call).
    private func prepare(_ response: UNNotificationResponse) -> Result<ActionReport, any Error> {
        let request = response.notification.request
        let content = request.content
        let text = (response as? UNTextInputNotificationResponse)?.userText
        let category =
            content.categoryIdentifier.isEmpty
            ? ((content.userInfo["aps"] as? [String: Any])?["category"] as? String ?? "") : content.categoryIdentifier
        return Result {
            try ActionReport(
                userInfo: content.userInfo, categoryIdentifier: content.categoryIdentifier,
                actionIdentifier: response.actionIdentifier, notificationIdentifier: request.identifier, userText: text,
                payloadKeys: payloadKeys(category))
        }
    }

    private func run(_ prepared: Result<ActionReport, any Error>, completed: (@Sendable () -> Void)?) async -> Handled {
        let report: ActionReport
        do {
            report = try prepared.get()
        } catch {
            completed?()
            return .notReported(error)
        }
        let id: String
        do {
            id = try await reporter.save(report)
        } catch {
            // The report queue cannot be written (a full disk): send at once, best effort; the app's
            // handler and iOS's completion handler still run.
            if let handler = handlers.handler(category: report.category, action: report.action) { await handler(report) }
            let outcome = await reporter.sendUnsaved(report, because: error)
            completed?()
            return .reported(outcome)
        }
        if let handler = handlers.handler(category: report.category, action: report.action) { await handler(report) }
        let outcome = await reporter.send(id: id) ?? .kept(reason: "being sent by another call", nextAttempt: Date())
        completed?()
        return .reported(outcome)
    }
}
/// The app's handlers by category and action, behind a lock (iOS 13 has no `Mutex`).
final class HandlerTable: @unchecked Sendable {
    struct Key: Hashable {
        var category: String
        var action: String?
    }

    private let lock = NSLock()
    private var handlers: [Key: @Sendable (ActionReport) async -> Void] = [:]

    func set(_ handler: @escaping @Sendable (ActionReport) async -> Void, for key: Key) {
        lock.lock()
        defer { lock.unlock() }
        handlers[key] = handler
    }

    /// The handler of `category.action`, else the category's catch-all.
    func handler(category: String, action: String) -> (@Sendable (ActionReport) async -> Void)? {
        lock.lock()
        defer { lock.unlock() }
        return handlers[Key(category: category, action: action)] ?? handlers[Key(category: category, action: nil)]
    }
}
#endif
