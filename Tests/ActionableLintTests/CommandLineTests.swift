import ActionableTestSupport
import Foundation
import Testing

/// Runs the built `actionable` binary as CI would, and checks exit status and output.
struct CommandLineTests {
    func run(_ arguments: [String], in directory: URL = CommandLineRunner.repository) throws -> CommandLineRunner.Run {
        try CommandLineRunner.run(arguments, in: directory)
    }

    func temporaryDirectory(_ files: [String: String]) throws -> URL {
        try CommandLineRunner.temporaryDirectory(files)
    }

    @Test func theExampleCategoriesPassStrictLint() throws {
        let run = try run(["lint", "--strict"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test func errorsExitOneAndPrintXcodeLines() throws {
        let directory = try temporaryDirectory(["Categories/invite.yaml": "category: invite\nactions: [{id: a, title: A}, {id: a, title: B}]\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try run(["lint"], in: directory)
        #expect(run.status == 1)
        #expect(
            run.stdout == "Categories/invite.yaml:2:35: error: action \"a\" is already declared at line 2; rename or remove one (duplicate_action)\n")
        #expect(run.stderr.contains("Found 1 error(s) and 0 warning(s) in 1 file(s)."))
    }

    @Test func warningsPassUnlessStrict() throws {
        let directory = try temporaryDirectory(["c/other.yaml": "category: invite\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try run(["lint", "c"], in: directory).status == 0)
        let strict = try run(["lint", "c", "--strict", "--format", "github-actions-logging"], in: directory)
        #expect(strict.status == 1)
        #expect(strict.stdout.hasPrefix("::warning file=c/other.yaml,line=1,col=11::"))
    }

    @Test func aMissingPathIsAUsageError() throws {
        let run = try run(["lint", "NoSuchDirectory"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("NoSuchDirectory: no such file or directory"))
    }

    @Test(arguments: [["lint", "--format", "yaml"], ["lint", "--bogus"], ["frobnicate"]])
    func badArgumentsAreUsageErrors(arguments: [String]) throws {
        #expect(try run(arguments).status == 2)
    }

    @Test func aConfigurationBesideTheFilesIsUsed() throws {
        let directory = try temporaryDirectory([
            "c/other.yaml": "category: invite\n",
            "c/.actionable-lint.yml": "severities: { file_name_mismatch: error }\n",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try run(["lint", "c", "--format", "json"], in: directory)
        #expect(run.status == 1)
        #expect(run.stdout.contains("\"severity\": \"error\""))
    }

    @Test func aBrokenConfigurationIsAUsageError() throws {
        let directory = try temporaryDirectory(["c/invite.yaml": "category: invite\n", "bad.yml": "disabled_rules: [nope]\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try run(["lint", "c", "--config", "bad.yml"], in: directory)
        #expect(run.status == 2)
        #expect(run.stderr.contains("bad.yml:1:18: unknown rule \"nope\""))
    }

    @Test func catalogPrintsTheNormalizedCatalog() throws {
        let run = try run(["catalog", "Categories", "--format", "json"])
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

    @Test func catalogRefusesACatalogWithErrors() throws {
        let directory = try temporaryDirectory(["c/x.yaml": "category: x\nactions: [{id: a, title: A}, {id: a, title: A}]\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try run(["catalog", "c"], in: directory)
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("duplicate_action"))
    }
}
