// The generated type guard on real calls captured from `actionable serve` (the file named by
// FORWARDED_BODIES, written by the Swift test that runs this): every genuine call passes, and
// each one altered where the catalog says otherwise fails. Node's built-in runner; compiled
// with tsc --strict to CommonJS first.
import { isForwardedResponse } from "./generated/notification-categories";

declare function require(name: string): any;
declare const process: { env: { [key: string]: string | undefined } };
const test = require("node:test");
const assert = require("node:assert");
const fs = require("node:fs");

const bodies: { [key: string]: unknown }[] = JSON.parse(fs.readFileSync(process.env.FORWARDED_BODIES, "utf8"));

test("every call serve forwarded passes the guard", () => {
    assert.ok(bodies.length >= 3, `captured ${bodies.length} calls`);
    for (const body of bodies) assert.ok(isForwardedResponse(body), JSON.stringify(body));
});

test("a call altered where the catalog disagrees fails it", () => {
    const invite = bodies.filter((body) => body.category === "invite")[0];
    if (invite === undefined) throw new Error("no invite call was captured");
    const altered: { [key: string]: unknown }[] = [
        { ...invite, category: "invitation" },
        { ...invite, action: "acept" },
        { ...invite, action: "com.apple.UNNotificationDismissActionIdentifier", category: "login-approval" },
        { ...invite, userText: 42 },
        { ...invite, receivedAt: "now" },
        { ...invite, payload: { eventName: "Dinner" } },
        { ...invite, payload: { inviteId: 42 } },
        { ...invite, payload: { inviteId: "42", seats: 2.5 } },
        { ...invite, payload: [] },
        { ...invite, id: undefined },
    ];
    for (const body of altered) assert.strictEqual(isForwardedResponse(body), false, JSON.stringify(body));
    assert.strictEqual(isForwardedResponse(null), false);
    assert.strictEqual(isForwardedResponse("{}"), false);
    // A key a newer catalog added is allowed: an older backend keeps working.
    assert.ok(isForwardedResponse({ ...invite, payload: { ...(invite.payload as object), addedLater: true } }));
});
