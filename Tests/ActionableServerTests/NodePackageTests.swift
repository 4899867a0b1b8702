import ActionableTestSupport
import Foundation
import Testing

/// `Clients/node` (`@actionable/node`): its committed `dist/` is what `tsc -p Clients/node` writes
/// (so `npm install` of the folder needs no build), its tests run by Node's own runner against a
/// real `serve` (and the stand-in FCM) that they start with this build's binary, it installs and
/// packs with npm as a user's project would, and the generated TypeScript type-checks with it in a
/// backend's use.
@Suite(.timeLimit(.minutes(3)))
struct NodePackageTests {
    static let package = CommandLineRunner.repository.appendingPathComponent("Clients/node")

    /// Links this checkout's package as `node_modules/@actionable/node` of the project in
    /// `directory`, as an installed copy would be found.
    static func link(into directory: URL) throws {
        let modules = directory.appendingPathComponent("node_modules/@actionable")
        try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: modules.appendingPathComponent("node"), withDestinationURL: package)
    }

    /// Compiles the package into a scratch folder and expects every file there to be the
    /// committed one in `dist/`, byte for byte.
    static func build() async throws {
        let scratch = try CommandLineRunner.temporaryDirectory([:])
        defer { try? FileManager.default.removeItem(at: scratch) }
        let built = try await CommandLineRunner.runTool(
            "tsc", ["-p", package.path, "--outDir", scratch.path], in: CommandLineRunner.repository, environment: [:])
        #expect(built.status == 0, "tsc -p Clients/node:\n\(built.stdout)\(built.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted()
        #expect(files == ["index.d.mts", "index.d.ts", "index.js", "index.mjs"])
        for file in files {
            let fresh = try Data(contentsOf: scratch.appendingPathComponent(file))
            let committed = try? Data(contentsOf: package.appendingPathComponent("dist").appendingPathComponent(file))
            #expect(fresh == committed, "Clients/node/dist/\(file) is not what its source compiles to: run tsc -p Clients/node and commit dist/")
        }
    }

    /// One release, one version: the command's and the Node package's.
    @Test func itsVersionIsTheCommands() async throws {
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.package.appendingPathComponent("package.json"))) as? [String: Any]
        let version = try #require(manifest?["version"] as? String)
        let run = try await CommandLineRunner.run(["--version"])
        #expect(run.status == 0 && run.stdout == version + "\n", "actionable --version: \(run.stdout)\(run.stderr); package.json: \(version)")
    }

    @Test func itsTestsPassAgainstARealServe() async throws {
        try await Self.build()
        let run = try await CommandLineRunner.runTool(
            "node", ["--test", Self.package.appendingPathComponent("test/node.test.mjs").path], in: CommandLineRunner.repository,
            environment: ["ACTIONABLE_BINARY": CommandLineRunner.binary.path])
        #expect(run.status == 0, "node --test Clients/node/test:\n\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("# pass 9") && run.stdout.contains("# fail 0"), "\(run.stdout)")
    }

    /// `npm test` without the binary ends at once, saying what to build (it waited forever).
    @Test func itsTestsWithoutTheBinarySayWhatToBuild() async throws {
        let run = try await CommandLineRunner.runTool(
            "node", ["--test", Self.package.appendingPathComponent("test/node.test.mjs").path], in: CommandLineRunner.repository,
            environment: ["ACTIONABLE_BINARY": "/nonexistent/actionable"])
        #expect(run.status != 0)
        #expect(run.stdout.contains("no actionable binary at /nonexistent/actionable: build it (swift build --product actionable)"), "\(run.stdout)")
    }

    /// `npm install PATH` of the folder is usable at once, from CommonJS and from ESM (the
    /// folder was linked without `dist/`: "Cannot find module"); `npm pack` holds the README, the
    /// licence and every entry point.
    @Test func npmInstallsAndPacksIt() async throws {
        let app = try CommandLineRunner.temporaryDirectory([
            "package.json": #"{ "name": "an-app", "version": "1.0.0", "private": true }"#,
            "a.cjs": #"const a = require("@actionable/node"); console.log(typeof a.verifyWebhook, typeof a.ActionableServer);"#,
            "b.mjs":
                #"import { verifyWebhook, ActionableServer } from "@actionable/node"; console.log(typeof verifyWebhook, typeof ActionableServer);"#,
        ])
        defer { try? FileManager.default.removeItem(at: app) }
        let quiet = ["--offline", "--no-audit", "--no-fund", "--loglevel=error"]
        let install = try await CommandLineRunner.runTool("npm", ["install"] + quiet + [Self.package.path], in: app, environment: [:])
        #expect(install.status == 0, "npm install Clients/node:\n\(install.stdout)\(install.stderr)")
        for entry in ["a.cjs", "b.mjs"] {
            let run = try await CommandLineRunner.runTool("node", [entry], in: app, environment: [:])
            #expect(run.status == 0 && run.stdout == "function function\n", "node \(entry):\n\(run.stdout)\(run.stderr)")
        }
        let pack = try await CommandLineRunner.runTool(
            "npm", ["pack", "--dry-run", "--json", "--ignore-scripts"] + quiet, in: Self.package, environment: [:])
        #expect(pack.status == 0, "\(pack.stderr)")
        let listing = try JSONSerialization.jsonObject(with: Data(pack.stdout.utf8)) as? [[String: Any]]
        let files = Set((listing?.first?["files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String })
        #expect(
            files == ["LICENSE", "README.md", "package.json", "dist/index.js", "dist/index.mjs", "dist/index.d.ts", "dist/index.d.mts"],
            "\(files.sorted())")
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
        try Self.link(into: directory)
        let options = ["--strict", "--noEmit", "--module", "node16", "--moduleResolution", "node16", "--target", "es2020", "--lib", "es2020,dom"]
        let good = try await CommandLineRunner.runTool("tsc", options + ["backend.ts"], in: directory, environment: [:])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        let bad = try await CommandLineRunner.runTool("tsc", options + ["misuse.ts"], in: directory, environment: [:])
        #expect(bad.status != 0 && bad.stdout.contains("misuse.ts(3,"), "\(bad.stdout)")
    }
}
