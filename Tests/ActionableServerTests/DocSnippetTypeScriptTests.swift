import ActionableTestSupport
import Foundation
import Testing

/// Every TypeScript block of the README and docs compiles as a reader would paste it: in an ES
/// module project with `@actionable/node` installed, the generated categories beside it and the
/// strictest common flags. What the snippets take from the reader's own app (Express, `process`,
/// `invitations`) is declared from Express's and Node's documented API in the scratch project.
struct DocSnippetTypeScriptTests {
    static let documents = ["README.md", "Clients/node/README.md", "docs"]

    /// Express's part the snippets use, as `@types/express` declares it (`body` is `any` there).
    static let express = """
        declare function express(): express.Application;
        declare namespace express {
            interface Request { body: any; headers: { [name: string]: string | string[] | undefined } }
            interface Response { status(code: number): Response; end(): Response; json(body: unknown): Response }
            type Handler = (request: Request, response: Response) => unknown;
            interface Application { post(path: string, ...handlers: Handler[]): Application; listen(port: number): unknown }
            function raw(options?: { type?: string }): Handler;
            function json(): Handler;
        }
        export = express;

        """

    /// What the snippets take from the reader's app and from `@types/node` (whose `process.env`
    /// is an index signature: under the strictest flags, `process.env["NAME"]`).
    static let globals = """
        declare const process: { env: { [name: string]: string | undefined; TZ?: string } };
        /** The reader's own code, which a snippet calls. */
        declare const invitations: { accept(inviteId: string, options: { idempotencyKey: string }): Promise<void> };

        """

    @Test func everyTypeScriptBlockCompiles() async throws {
        let snippets = try DocSnippet.all("ts", in: Self.documents)
        #expect(snippets.count >= 3, "\(snippets)")
        var files: [String: String] = [
            "package.json": #"{ "name": "a-backend", "type": "module", "private": true }"#,
            "globals.d.ts": Self.globals,
            "node_modules/express/package.json": #"{ "name": "express", "types": "index.d.ts" }"#,
            "node_modules/express/index.d.ts": Self.express,
        ]
        for (index, snippet) in snippets.enumerated() { files["snippet-\(index).ts"] = snippet.code }
        let directory = try CommandLineRunner.temporaryDirectory(files)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(
            at: CommandLineRunner.repository.appendingPathComponent("Tests/TypeScript/generated/notification-categories.ts"),
            to: directory.appendingPathComponent("notification-categories.ts"))
        try NodePackageTests.link(into: directory)
        let run = try await CommandLineRunner.runTool(
            "tsc", TypeScriptFlags.strictest + TypeScriptFlags.node16 + ["globals.d.ts"] + snippets.indices.map { "snippet-\($0).ts" },
            in: directory, environment: [:])
        // tsc names snippet-N.ts(line,column): said again as the document's own line.
        var said = run.stdout
        for (index, snippet) in snippets.enumerated() {
            said = said.replacingOccurrences(of: "snippet-\(index).ts(", with: "\(snippet.file) (block at line \(snippet.line)) (")
        }
        #expect(run.status == 0, "\(said)\(run.stderr)")
    }

    /// The check is not blind: a block that misuses the package fails it.
    @Test func aBrokenBlockFails() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([
            "package.json": #"{ "type": "module" }"#,
            "snippet.ts": """
            import { verifyWebhook } from "@actionable/node";
            export const call = verifyWebhook("{}", {}, process.env["WEBHOOK_SECRET"]);

            """,
            "globals.d.ts": Self.globals,
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        try NodePackageTests.link(into: directory)
        let run = try await CommandLineRunner.runTool(
            "tsc", TypeScriptFlags.strictest + TypeScriptFlags.node16 + ["globals.d.ts", "snippet.ts"], in: directory, environment: [:])
        #expect(run.status != 0 && run.stdout.contains("snippet.ts(2,") && run.stdout.contains("TS2345"), "\(run.stdout)")
    }
}
