import ActionableTestSupport
import Foundation
import Testing

/// The build plugin's tool, `actionable-generator CONFIG OUTPUT`, as the plugin runs it.
struct GeneratorToolTests {
    static let tool = CommandLineRunner.binary.deletingLastPathComponent().appendingPathComponent("actionable-generator")

    static func run(_ arguments: [String], in directory: URL) async throws -> (status: Int32, stderr: String) {
        try await CommandLineRunner.offPool { try runBlocking(arguments, in: directory) }
    }

    static func runBlocking(_ arguments: [String], in directory: URL) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let data = PipeReading.toEnd(errors.fileHandleForReading.fileDescriptor)
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func theToolGeneratesWhatTheCommandLineGeneratesAndLeavesAnUnchangedFileAlone() async throws {
        let directory = try CommandLineRunner.temporaryDirectory(
            ["Target/actionable-generate.yaml": "categories: ../Categories\ntarget: server\naccess: internal\n"], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("Generated.swift")
        let first = try await Self.run([directory.appendingPathComponent("Target/actionable-generate.yaml").path, output.path], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        let text = try String(contentsOf: output, encoding: .utf8)
        #expect(text.contains("internal enum NotificationCategories {"))
        #expect(text.contains("// - ../Categories/invite.yaml"))
        let cli = try await CommandLineRunner.run(["generate", "swift", "Categories", "--target", "server", "--access", "internal"], in: directory)
        #expect(text.replacingOccurrences(of: "// - ../Categories/", with: "// - Categories/") == cli.stdout)

        let modified = try FileManager.default.attributesOfItem(atPath: output.path)[.modificationDate] as? Date
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 0)], ofItemAtPath: output.path)
        _ = try await Self.run([directory.appendingPathComponent("Target/actionable-generate.yaml").path, output.path], in: directory)
        let after = try FileManager.default.attributesOfItem(atPath: output.path)[.modificationDate] as? Date
        #expect(modified != nil)
        #expect(after == Date(timeIntervalSince1970: 0), "an unchanged output is not rewritten")
    }

    @Test func aBadConfigurationNamesTheFileAndTheKey() async throws {
        let directory = try CommandLineRunner.temporaryDirectory(
            [
                "missing.yaml": "categories: Categories\n", "wrong.yaml": "target: watch\n",
            ], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = try await Self.run([directory.appendingPathComponent("missing.yaml").path, "/dev/null"], in: directory)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("missing.yaml: \"target\" is required"), "\(missing.stderr)")
        let wrong = try await Self.run([directory.appendingPathComponent("wrong.yaml").path, "/dev/null"], in: directory)
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("wrong.yaml"), "\(wrong.stderr)")
        #expect(wrong.stderr.contains("target"), "\(wrong.stderr)")
    }

    @Test func aCatalogWithLintErrorsIsRefused() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([
            "actionable-generate.yaml": "target: app\n", "Categories/bad.yaml": "category: bad\nactions: [{ id: a }]\n",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("Out.swift")
        let run = try await Self.run([directory.appendingPathComponent("actionable-generate.yaml").path, output.path], in: directory)
        #expect(run.status == 1)
        #expect(run.stderr.contains("bad.yaml"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
