import ActionableTestSupport
import Foundation
import Testing

/// `Clients/node` (`@actionable/node`): built by `tsc -p Clients/node`, its tests run by Node's own
/// runner against a real `serve` (and the stand-in FCM) that they start with this build's binary,
/// and the generated TypeScript type-checks with it in a backend's use.
@Suite(.timeLimit(.minutes(3)))
struct NodePackageTests {
    static let package = CommandLineRunner.repository.appendingPathComponent("Clients/node")

    static func build() async throws {
        let built = try await CommandLineRunner.runTool("tsc", ["-p", package.path], in: CommandLineRunner.repository, environment: [:])
        #expect(built.status == 0, "tsc -p Clients/node:\n\(built.stdout)\(built.stderr)")
    }

    @Test func itsTestsPassAgainstARealServe() async throws {
        try await Self.build()
        let run = try await CommandLineRunner.runTool(
            "node", ["--test", Self.package.appendingPathComponent("test/node.test.mjs").path], in: CommandLineRunner.repository,
            environment: ["ACTIONABLE_BINARY": CommandLineRunner.binary.path])
        #expect(run.status == 0, "node --test Clients/node/test:\n\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("# pass 4") && run.stdout.contains("# fail 0"), "\(run.stdout)")
    }

    @Test func theGeneratedTypeScriptPlugsIntoItsTypes() async throws {
        try await Self.build()
        let directory = try CommandLineRunner.temporaryDirectory([
            "backend.ts": """
            import { mintActionToken, payloadDigest, verifyWebhook, ActionableServer } from "@actionable/node";
            import { Invite, InvitePayload } from "./notification-categories";

            const key = { id: "k1", secret: process.env.TOKEN_SECRET ?? "" };
            export const token: string = mintActionToken({ key, user: "alice", notificationId: "n-1", category: Invite, payload: { inviteId: "42", seats: 2 } });
            export const digest: string = payloadDigest(Invite, { inviteId: "42" });
            export function receive(raw: string, headers: { [name: string]: string }): string {
                const call = verifyWebhook<InvitePayload>(raw, headers, "whsec_...");
                const seats: number | undefined = call.payload.seats;
                return call.payload.inviteId + (seats ?? 0);
            }
            export const server = new ActionableServer({ baseURL: "https://actionable.example.com", backendToken: "t" });
            export async function send(): Promise<number> {
                return (await server.send<InvitePayload>({ user: "alice", category: Invite.id, payload: { inviteId: "42" } })).devices;
            }
            declare const process: { env: { [name: string]: string | undefined } };
            """,
            "misuse.ts": """
            import { mintActionToken } from "@actionable/node";
            import { Invite } from "./notification-categories";
            export const wrong: number = mintActionToken({ key: { id: "k", secret: "s" }, user: "u", notificationId: "n", category: Invite, payload: {} });
            """,
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(
            at: CommandLineRunner.repository.appendingPathComponent("Tests/TypeScript/generated/notification-categories.ts"),
            to: directory.appendingPathComponent("notification-categories.ts"))
        let modules = directory.appendingPathComponent("node_modules/@actionable")
        try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: modules.appendingPathComponent("node"), withDestinationURL: Self.package)
        let options = ["--strict", "--noEmit", "--module", "node16", "--moduleResolution", "node16", "--target", "es2020", "--lib", "es2020,dom"]
        let good = try await CommandLineRunner.runTool("tsc", options + ["backend.ts"], in: directory, environment: [:])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        let bad = try await CommandLineRunner.runTool("tsc", options + ["misuse.ts"], in: directory, environment: [:])
        #expect(bad.status != 0 && bad.stdout.contains("misuse.ts(3,"), "\(bad.stdout)")
    }
}
