import ActionableCodegen
import ActionableTestSupport
import Foundation
import Testing

/// `actionable generate typescript`: the committed files are what the example and edge catalogs
/// generate, and they compile with `tsc --strict` beside a backend's use of them
/// (`Tests/TypeScript/usage.ts`). The type guard runs on real forwarded calls in
/// `TypeScriptGuardTests`.
struct TypeScriptGeneratorTests {
    static let folder = CommandLineRunner.repository.appendingPathComponent("Tests/TypeScript")

    @Test func theCommittedFilesAreWhatTheCatalogsGenerate() async throws {
        let example = try await CommandLineRunner.run(["generate", "typescript"])
        #expect(example.status == 0, "\(example.stderr)")
        let committed = try String(contentsOf: Self.folder.appendingPathComponent("generated/notification-categories.ts"), encoding: .utf8)
        #expect(
            example.stdout == committed, "regenerate: actionable generate typescript --output Tests/TypeScript/generated/notification-categories.ts")
        let edge = try await CommandLineRunner.run(
            ["generate", "typescript", "EdgeCategories"], in: CommandLineRunner.repository.appendingPathComponent("Tests/CodegenFixtures"))
        let committedEdge = try String(contentsOf: Self.folder.appendingPathComponent("generated/edge-categories.ts"), encoding: .utf8)
        #expect(
            edge.stdout == committedEdge,
            "regenerate: cd Tests/CodegenFixtures && actionable generate typescript EdgeCategories --output ../TypeScript/generated/edge-categories.ts"
        )
        // What each category carries: its id, its actions (retired ones too), Apple's dismiss
        // where the category has customDismissAction, and a payload interface with the keys' types.
        #expect(committedEdge.contains(#""snooze": "snooze", /** Retired"#))
        #expect(
            committedEdge.contains(
                #"ForwardedResponseOf<"every-option", "snooze" | "open" | "reply" | typeof DEFAULT_ACTION | typeof DISMISS_ACTION"#))
        #expect(committedEdge.contains(#""tags": unknown[];"#) && committedEdge.contains(#""meta"?: { [key: string]: unknown };"#))
        #expect(committed.contains(#""seats"?: number;"#) && committed.contains(#""inviteId": string;"#))
    }

    /// The generated files beside a backend's use of them (`usage.ts`) compile under the strictest
    /// common flags, in a CommonJS project and in an ES module one (where imports name `.js`).
    /// They did not under `noUncheckedIndexedAccess` and `noPropertyAccessFromIndexSignature`.
    @Test(arguments: ["commonjs", "module"])
    func theGeneratedFilesCompileUnderTheStrictestFlags(packageType: String) async throws {
        let directory = try CommandLineRunner.temporaryDirectory(["package.json": #"{ "type": "\#(packageType)" }"#])
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: Self.folder.appendingPathComponent("generated"), to: directory.appendingPathComponent("generated"))
        try FileManager.default.copyItem(at: Self.folder.appendingPathComponent("usage.ts"), to: directory.appendingPathComponent("usage.ts"))
        let run = try await CommandLineRunner.runTool(
            "tsc", TypeScriptFlags.strictest + TypeScriptFlags.node16 + ["usage.ts"], in: directory, environment: [:])
        #expect(run.status == 0, "tsc (Debian's node-typescript; .ci/run installs it), \(packageType):\n\(run.stdout)\(run.stderr)")
    }

    @Test func aMisuseDoesNotCompile() async throws {
        // The types are not decoration: a misspelled action or a payload key of the wrong type is an error.
        let directory = try CommandLineRunner.temporaryDirectory([
            "misuse.ts": """
            import { Invite, InviteResponse } from "./notification-categories";
            export function f(body: InviteResponse): number {
                if (body.action === "acept") return 0;
                return body.payload.inviteId;
            }
            export const g: string = Invite.actions.acept;
            """
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(
            at: Self.folder.appendingPathComponent("generated/notification-categories.ts"),
            to: directory.appendingPathComponent("notification-categories.ts"))
        let run = try await CommandLineRunner.runTool("tsc", ["--strict", "--noEmit", "misuse.ts"], in: directory, environment: [:])
        #expect(run.status != 0)
        #expect(run.stdout.contains("misuse.ts(3,") && run.stdout.contains("misuse.ts(4,") && run.stdout.contains("misuse.ts(6,"), "\(run.stdout)")
    }
}
