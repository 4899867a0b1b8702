// A Node backend's use of the generated files, type-checked with the strictest common flags (TypeScriptFlags.strictest), as CommonJS and as an ES module: a
// misspelled id, a wrong payload type or an unchecked action would not compile.
import { Invite, LoginApproval, DEFAULT_ACTION, ForwardedResponse, InvitePayload, isForwardedResponse } from "./generated/notification-categories.js";
import { EveryOption, SignIn2fa, EveryOptionResponse } from "./generated/edge-categories.js";

export function handle(raw: string): string {
    const body: unknown = JSON.parse(raw);
    if (!isForwardedResponse(body)) return "not a forwarded response";
    return route(body);
}

function route(body: ForwardedResponse): string {
    switch (body.category) {
        case Invite.id: {
            const invite: InvitePayload = body.payload;
            if (body.action === Invite.actions.accept) return `accept ${invite.inviteId} for ${body.user}`;
            if (body.action === Invite.actions.comment) return `comment ${body.userText ?? ""}`;
            if (body.action === DEFAULT_ACTION) return "opened";
            const seats: number | undefined = invite.seats;
            return `${body.action} ${seats ?? 0}`;
        }
        case LoginApproval.id:
            return body.action === LoginApproval.actions.approve ? `approve ${body.payload.attemptId} until ${body.payload.expiresAt}` : "deny";
        default:
            return body.category;
    }
}

// Identifiers that are keywords or hold dots stay usable; a retired action is still a valid one.
export const edge: string[] = [SignIn2fa.id, SignIn2fa.actions["default"], SignIn2fa.actions["digest.read"], EveryOption.actions.snooze];

export function tags(response: EveryOptionResponse): number {
    const list: unknown[] = response.payload.tags;
    const meta: { [key: string]: unknown } | undefined = response.payload.meta;
    return list.length + (meta === undefined ? 0 : Object.keys(meta).length) + (response.payload.ratio ?? 0);
}
