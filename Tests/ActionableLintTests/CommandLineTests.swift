import ActionableTestSupport
import Foundation
import Testing

/// Runs the built `actionable` binary as CI would, and checks exit status and output.
struct CommandLineTests {
    func run(_ arguments: [String], in directory: URL = CommandLineRunner.repository) async throws -> CommandLineRunner.Run {
        try await CommandLineRunner.run(arguments, in: directory)
    }

    func temporaryDirectory(_ files: [String: String]) throws -> URL {
        try CommandLineRunner.temporaryDirectory(files)
    }

    @Test func theExampleCategoriesPassStrictLint() async throws {
        let run = try await run(["lint", "--strict"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test func errorsExitOneAndPrintXcodeLines() async throws {
        let directory = try temporaryDirectory(["Categories/invite.yaml": "category: invite\nactions: [{id: a, title: A}, {id: a, title: B}]\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await run(["lint"], in: directory)
        #expect(run.status == 1)
        #expect(
            run.stdout == "Categories/invite.yaml:2:35: error: action \"a\" is already declared at line 2; rename or remove one (duplicate_action)\n")
        #expect(run.stderr.contains("Found 1 error(s) and 0 warning(s) in 1 file(s)."))
    }

    @Test func warningsPassUnlessStrict() async throws {
        let directory = try temporaryDirectory(["c/other.yaml": "category: invite\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try await run(["lint", "c"], in: directory).status == 0)
        let strict = try await run(["lint", "c", "--strict", "--format", "github-actions-logging"], in: directory)
        #expect(strict.status == 1)
        #expect(strict.stdout.hasPrefix("::warning file=c/other.yaml,line=1,col=11::"))
    }

    @Test func aMissingPathIsAUsageError() async throws {
        let run = try await run(["lint", "NoSuchDirectory"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("NoSuchDirectory: no such file or directory"))
    }

    @Test(arguments: [["lint", "--format", "yaml"], ["lint", "--bogus"], ["frobnicate"]])
    func badArgumentsAreUsageErrors(arguments: [String]) async throws {
        #expect(try await run(arguments).status == 2)
    }

    @Test func aConfigurationBesideTheFilesIsUsed() async throws {
        let directory = try temporaryDirectory([
            "c/other.yaml": "category: invite\n",
            "c/.actionable-lint.yml": "severities: { file_name_mismatch: error }\n",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await run(["lint", "c", "--format", "json"], in: directory)
        #expect(run.status == 1)
        #expect(run.stdout.contains("\"severity\": \"error\""))
    }

    /// The command (which lints files as it loads them): an iOS-only catalog with four actions
    /// passes `--strict`; naming Android in `platforms`, or an `android:` key in any file, makes
    /// it warn; `platforms: [ios]` silences the key again.
    @Test func androidsRuleRunsOnlyForACatalogThatTargetsAndroid() async throws {
        let four = "category: invite\nactions: [{id: a, title: A}, {id: b, title: B}, {id: c, title: C}, {id: d, title: D}]\n"
        let ping = "category: ping\nactions: [{id: pong, title: Pong, android: {icon: ic_pong}}]\n"
        let cases: [([String: String], Int32)] = [
            (["c/invite.yaml": four], 0),
            (["c/invite.yaml": four, "c/.actionable-lint.yml": "platforms: [ios, android]\n"], 1),
            (["c/invite.yaml": four, "c/ping.yaml": ping], 1),
            (["c/invite.yaml": four, "c/ping.yaml": ping, "c/.actionable-lint.yml": "platforms: [ios]\n"], 0),
        ]
        for (files, status) in cases {
            let directory = try temporaryDirectory(files)
            defer { try? FileManager.default.removeItem(at: directory) }
            let run = try await run(["lint", "c", "--strict", "--format", "json"], in: directory)
            #expect(run.status == status, "\(files.keys.sorted()): \(run.stdout)")
            #expect(run.stdout.contains("android_too_many_actions") == (status == 1))
        }
    }

    @Test func aBrokenConfigurationIsAUsageError() async throws {
        let directory = try temporaryDirectory(["c/invite.yaml": "category: invite\n", "bad.yml": "disabled_rules: [nope]\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await run(["lint", "c", "--config", "bad.yml"], in: directory)
        #expect(run.status == 2)
        #expect(run.stderr.contains("bad.yml:1:18: unknown rule \"nope\""))
    }

    @Test func catalogPrintsTheNormalizedCatalog() async throws {
        let run = try await run(["catalog", "Categories", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let categories = object?["categories"] as? [[String: Any]] ?? []
        let ids = categories.compactMap { $0["category"] as? String }
        #expect(ids == ids.sorted())
        #expect(ids.contains("invite"))
        let message = categories.first { $0["category"] as? String == "message" }
        let contexts = message?["contexts"] as? [String: [String]]
        #expect(contexts?["minimal"] == ["reply", "markRead"])
    }

    @Test func catalogRefusesACatalogWithErrors() async throws {
        let directory = try temporaryDirectory(["c/x.yaml": "category: x\nactions: [{id: a, title: A}, {id: a, title: A}]\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await run(["catalog", "c"], in: directory)
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("duplicate_action"))
    }
}

/// `actionable diff` as CI runs it: two directories, or one against a git revision.
struct DiffCommandLineTests {
    static let invite = "category: invite\nactions:\n  - id: accept\n    title: Accept\n  - id: maybe\n    title: Maybe\n"

    func run(_ arguments: [String], in directory: URL) async throws -> CommandLineRunner.Run {
        try await CommandLineRunner.run(arguments, in: directory)
    }

    @Test func exitStatusesFollowLint() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([
            "old/invite.yaml": Self.invite,
            "removed/invite.yaml": "category: invite\nactions:\n  - id: accept\n    title: Accept\n",
            "retitled/invite.yaml": Self.invite.replacing("title: Maybe", with: "title: Perhaps"),
            "added/invite.yaml": Self.invite + "  - id: later\n    title: Later\n",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let removed = try await run(["diff", "old", "removed"], in: directory)
        #expect(removed.status == 1)
        #expect(removed.stdout.hasPrefix("old/invite.yaml:5:5: error: action \"maybe\" was removed"))
        #expect(removed.stderr.contains("Found 1 breaking change(s), 0 warning(s) and 0 safe change(s)."))
        #expect(try await run(["diff", "old", "retitled"], in: directory).status == 0)
        #expect(try await run(["diff", "old", "retitled", "--strict"], in: directory).status == 1)
        let added = try await run(["diff", "old", "added", "--strict", "--format", "json"], in: directory)
        #expect(added.status == 0)
        #expect(added.stdout.contains("\"rule\": \"action_added\""))
        #expect(added.stdout.contains("\"infos\": 1"))
    }

    @Test(arguments: [["diff"], ["diff", "a"], ["diff", "a", "b", "c"], ["diff", "a", "b", "--baseline", "HEAD"], ["diff", "missing", "old"]])
    func usageErrorsExitTwo(arguments: [String]) async throws {
        let directory = try CommandLineRunner.temporaryDirectory(["old/invite.yaml": Self.invite])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try await run(arguments, in: directory).status == 2)
    }

    @Test func aConfigurationInNewChangesSeverities() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([
            "old/invite.yaml": Self.invite,
            "new/invite.yaml": Self.invite.replacing("title: Maybe", with: "title: Perhaps"),
            "new/.actionable-diff.yml": "severities: { title_changed: error }\n",
            "typo.yml": "disabled_rules: [title_change]\n",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await run(["diff", "old", "new"], in: directory)
        #expect(run.status == 1)
        #expect(run.stdout.contains("error: the title of action \"maybe\""))
        let typo = try await self.run(["diff", "old", "new", "--config", "typo.yml"], in: directory)
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("did you mean \"title_changed\""))
    }

    /// A repository whose main branch has the catalog, and a working tree that removes an action,
    /// retires another and adds a category.
    @Test func baselineReadsTheOldCatalogFromGit() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([
            "Categories/invite.yaml": Self.invite,
            "Categories/nested/news.yaml": "category: news\nactions: [{id: read, title: Read}, {id: later, title: Later}]\n",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        for command in [
            ["init", "-q", "-b", "main"], ["add", "."],
            ["-c", "user.name=CI", "-c", "user.email=ci@example.com", "commit", "-q", "-m", "catalog"],
        ] {
            #expect(try await CommandLineRunner.runTool("git", command, in: directory) == 0)
        }
        try "category: invite\nactions:\n  - id: accept\n    title: Accept\n".write(
            to: directory.appendingPathComponent("Categories/invite.yaml"), atomically: true, encoding: .utf8)
        try "category: news\nactions: [{id: read, title: Read}, {id: later, title: Later, retired: true}]\n".write(
            to: directory.appendingPathComponent("Categories/nested/news.yaml"), atomically: true, encoding: .utf8)
        try "category: alert\n".write(to: directory.appendingPathComponent("Categories/alert.yaml"), atomically: true, encoding: .utf8)

        let run = try await run(["diff", "--baseline", "main", "--format", "xcode"], in: directory)
        #expect(run.status == 1, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(run.stdout)")
        #expect(lines.contains { $0.hasPrefix("main:Categories/invite.yaml:5:5: error: action \"maybe\" was removed") })
        #expect(lines.contains { $0.hasPrefix("Categories/nested/news.yaml:2:62: note: action \"later\" of category \"news\" was retired") })
        #expect(lines.contains { $0.hasPrefix("Categories/alert.yaml:1:11: note: category \"alert\" was added") })

        let subdirectory = try await self.run(["diff", "nested", "--baseline", "main"], in: directory.appendingPathComponent("Categories"))
        #expect(subdirectory.status == 0, "\(subdirectory.stdout)\(subdirectory.stderr)")
        #expect(subdirectory.stdout.contains("main:nested") == false)
        #expect(subdirectory.stdout.contains("nested/news.yaml:2:62: note:"))

        let unknown = try await self.run(["diff", "--baseline", "origin/main"], in: directory)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no such commit"))

        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("Fresh"), withIntermediateDirectories: true)
        try "category: fresh\n".write(to: directory.appendingPathComponent("Fresh/fresh.yaml"), atomically: true, encoding: .utf8)
        let fresh = try await self.run(["diff", "Fresh", "--baseline", "main"], in: directory)
        #expect(fresh.status == 0)
        #expect(fresh.stderr.contains("does not exist at main"))
        #expect(fresh.stdout.contains("category \"fresh\" was added"))
    }
}
