public import ActionableCore
import ActionableLint
public import ActionablePayload
public import ActionableRouter
public import ActionableTokens
import Foundation
import Logging

/// The invite flow end to end, in the shape of code a backend copies:
/// 1. build an invite notification for a user (category checked, payload typed, token bound);
/// 2. receive the user's tap as the app would send it;
/// 3. verify the token, validate the response, and route it to the handler that reports the
///    RSVP to the invitations service, once.
public struct InviteFlow: Sendable {
    public let catalog: Catalog
    public let tokens: ActionTokens
    public let router: ActionRouter
    public let service: InvitationsService

    /// The invite category's constants and payload, generated from `Categories/invite.yaml` by
    /// the ActionableGenerator build plugin (`actionable-generate.yaml` beside this file): a
    /// misspelled action or payload key here is a compile error.
    typealias Invite = NotificationCategories.Invite

    /// The invite's custom payload, as the backend encodes it and the handlers decode it.
    public typealias InvitePayload = NotificationCategories.Invite.Payload

    /// Loads the catalog from `categoriesPath` and registers the invite handlers.
    public static func make(
        categoriesPath: String, key: ActionTokenKey, service: InvitationsService
    ) async throws
        -> InviteFlow
    {
        let (files, lint) = try Linter().lint(paths: [categoriesPath])
        guard lint.errorCount == 0 else { throw InviteFlowError(message: "the catalog has lint errors") }
        let catalog = Catalog(files.compactMap(\.category))

        var builder = RouterBuilder(catalog: catalog)
        for (action, answer) in [
            (Invite.Action.accept, InvitationsService.Answer.accepted), (Invite.Action.decline, .declined), (Invite.Action.maybe, .maybe),
        ] {
            builder.on(Invite.identifier, action, payload: InvitePayload.self) { response, invite, context in
                let rsvp = InvitationsService.RSVP(inviteID: invite.inviteId, user: response.user, answer: answer, note: nil)
                await service.report(rsvp, idempotencyKey: context.responseID)
                return .done
            }
        }
        builder.on(Invite.identifier, Invite.Action.comment, payload: InvitePayload.self) { response, invite, context in
            let rsvp = InvitationsService.RSVP(
                inviteID: invite.inviteId, user: response.user, answer: .maybe,
                note: response.userText)
            await service.report(rsvp, idempotencyKey: context.responseID)
            return .done
        }
        // Opening or dismissing the notification is not an answer.
        builder.on(category: Invite.identifier) { _, _ in .done }
        return InviteFlow(
            catalog: catalog, tokens: try await ActionTokens(keys: [key]), router: try builder.build(),
            service: service)
    }

    /// Step 1: the notification the backend sends to `user`.
    public func notification(
        user: String, invite: InvitePayload, notificationID: String
    ) async throws
        -> NotificationPayload
    {
        // The builder mints the token with the payload's digest (pld): a phone that edits
        // inviteId before it answers is refused, so the handler can trust the payload.
        try await PayloadBuilder(catalog: catalog, tokens: tokens).build(
            category: "invite",
            aps: APS(alert: .fields(.init(title: "You're invited", body: invite.eventName ?? "An event")), sound: .named("default")),
            custom: invite, user: user, notificationID: notificationID)
    }

    /// Steps 2 and 3: what the server does with a tap the app forwards (`payload` is the
    /// notification's JSON, as the app received it). A payload edited on the phone is refused
    /// with ``ActionTokenError/Code/payloadMismatch``.
    public func receiveTap(
        action: ActionID, payload: NotificationPayload, text: String? = nil, responseID: String
    )
        async throws -> HandlerOutcome
    {
        let userInfo = try JSONDecoder().decode(JSONValue.self, from: Data(payload.bytes))
        guard case .string(let tokenText)? = userInfo["actionToken"], case .object(let pairs) = userInfo else {
            throw InviteFlowError(message: "the notification carries no action token")
        }
        let token = try await tokens.verify(tokenText)
        try token.authorize(category: "invite", action: action)
        let custom = pairs.filter { $0.0 != "aps" && $0.0 != "actionToken" }
        let response = ActionResponse(
            category: token.category, action: action, notificationID: token.notificationID,
            user: token.user, userText: text, payload: custom)
        try catalog.validate(response)
        // The payload is the one the backend sent, or the tap is refused (as the server does).
        guard let schema = catalog[token.category]?.payload, try token.verifyPayload(PayloadDigest(payload: custom, schema: schema)) else {
            throw InviteFlowError(message: "the action token binds no payload")
        }
        let context = ActionContext(responseID: responseID, logger: Logger(label: "invite-example"))
        return try await router.dispatch(response, context: context)
    }
}

/// A step of the invite flow that could not run.
public struct InviteFlowError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
