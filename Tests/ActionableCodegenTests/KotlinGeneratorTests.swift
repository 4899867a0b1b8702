import ActionableCodegen
import ActionableCore
import ActionableLint
import ActionableTestSupport
import Foundation
import Testing

/// `actionable generate kotlin` (in progress): the generated Kotlin compiles with Debian's kotlinc
/// against the Android stand-in (`Tests/AndroidStandIn`, written from Android's documented
/// signatures), and, run on the JVM, builds for each category the actions the catalog says
/// Android shows, per API level.
struct KotlinGeneratorTests {
    static let standIn = CommandLineRunner.repository.appendingPathComponent("Tests/AndroidStandIn")

    /// Generates the example catalog into a directory with the app's `R` and a listing of the
    /// categories' builders, compiles everything, and runs the check at `sdk`; its lines.
    static func run(sdk: Int) async throws -> [[String]] {
        let directory = try CommandLineRunner.temporaryDirectory([:])
        defer { try? FileManager.default.removeItem(at: directory) }
        try await compile(in: directory)
        let runtime = try await CommandLineRunner.runTool(
            "kotlin", ["-classpath", directory.appendingPathComponent("classes").path, "actionable.check.CheckKt", String(sdk)], in: directory,
            environment: [:])
        #expect(runtime.status == 0, "\(runtime.stderr)")
        return runtime.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    /// Generates the example catalog's Kotlin into `directory/app`, with the app's `R` and a listing
    /// of the categories' builders, and compiles it with the stand-in and the checks into `directory/classes`.
    static func compile(in directory: URL) async throws {
        let generated = try await CommandLineRunner.run(
            ["generate", "kotlin", "--package", "com.example.app", "--output", directory.appendingPathComponent("app").path])
        #expect(generated.status == 0, "\(generated.stderr)")
        let strings = try String(contentsOf: directory.appendingPathComponent("app/res/values/strings.xml"), encoding: .utf8)
        let keys = strings.matches(of: /name="([A-Za-z0-9_]+)"/).map { String($0.1) }
        var r = "package com.example.app\n\nobject R {\n    object string {\n"
        for (index, key) in keys.enumerated() { r += "        const val \(key): Int = \(index + 1)\n" }
        r += "    }\n    object drawable {\n    }\n}\n"
        try r.write(to: directory.appendingPathComponent("app/R.kt"), atomically: true, encoding: .utf8)
        let catalog = try Linter().checkedCatalog(at: CommandLineRunner.repository.appendingPathComponent("Categories").path)
        var listing = "package actionable.check\n\nimport android.content.Context\nimport com.example.app.*\n\nobject Generated {\n"
        listing += "    fun all(context: Context, data: Map<String, String>) = listOf(\n"
        // Kotlin 1.3 takes no trailing comma.
        listing +=
            catalog.categories.filter { !$0.retired }.map { category in
                let name = SwiftName.type(category.id.rawValue).replacingOccurrences(of: "`", with: "")
                return "        \"\(category.id.rawValue)\" to \(name).actions(context, \"n-1\", data, Any::class.java)"
            }.joined(separator: ",\n")
        listing += "\n    )\n}\n"
        try listing.write(to: directory.appendingPathComponent("Generated.kt"), atomically: true, encoding: .utf8)
        let sources =
            ["app/ActionableNotifications.kt", "app/R.kt", "Generated.kt"].map { directory.appendingPathComponent($0).path }
            + (try FileManager.default.contentsOfDirectory(atPath: standIn.path)).filter { $0.hasSuffix(".kt") }.map {
                standIn.appendingPathComponent($0).path
            } + ["check/Check.kt", "check/TapCheck.kt"].map { standIn.appendingPathComponent($0).path }
        let compiled = try await CommandLineRunner.runTool(
            "kotlinc", sources + ["-d", directory.appendingPathComponent("classes").path], in: directory, environment: [:])
        #expect(compiled.status == 0, "kotlinc (Debian's kotlin):\n\(compiled.stderr)")
    }

    @Test func theGeneratedActionsAreAndroidsThreeBuiltPerAPILevel() async throws {
        let catalog = try Linter().checkedCatalog(at: CommandLineRunner.repository.appendingPathComponent("Categories").path)
        for sdk in [30, 34] {
            let lines = try await Self.run(sdk: sdk)
            for category in catalog.categories where !category.retired {
                let built = lines.filter { $0.first == category.id.rawValue }
                #expect(built.map { $0[1] } == category.androidActions.map(\.id.rawValue), "\(category.id) at API \(sdk)")
                for (line, action) in zip(built, category.androidActions) {
                    #expect((line[3] != "-") == (action.input != nil), "a RemoteInput exactly for a text input: \(line)")
                    #expect(line[5] == String(action.activation == .foreground))
                    #expect(line[6] == String(action.authenticationRequired && sdk >= 31), "setAuthenticationRequired from API 31: \(line)")
                    #expect(line[7] == (action.activation == .foreground ? "activity" : "broadcast"), "no trampoline: \(line)")
                    #expect(line[8] == String(action.input != nil && sdk >= 31), "mutable only for a RemoteInput, declared from API 31: \(line)")
                }
            }
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aBackgroundTapIsKeptWhileTheServerIsDownAndDeliveredOnceWhenItIsUp() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.compile(in: directory)
        let admin = "kotlin-test-admin-token-0123456789abcdefgh"
        let port = try ServerProcess.freePort()
        let server = try await ServerProcess.serve(in: directory, port: port, extra: ["--admin-token", admin])
        defer { server.signal() }
        // The backend's FCM message for alice, with its action token (the same development key).
        let message = try await CommandLineRunner.run(
            [
                "payload", "invite", "--platform", "android", "--set", "inviteId=42", "--set", "seats=3", "--user", "alice", "--notification-id",
                "n-android-1",
            ],
            in: directory)
        let token = try #require(message.stdout.firstMatch(of: /"actionToken":"([^"]+)"/).map { String($0.1) })
        let work = "-Dactionable.work.dir=" + directory.appendingPathComponent("work").path
        func kotlin(_ arguments: [String]) async throws -> String {
            let run = try await CommandLineRunner.runTool(
                "kotlin", [work, "-classpath", directory.appendingPathComponent("classes").path, "actionable.check.TapCheck"] + arguments,
                in: directory, environment: [:])
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout
        }
        // The tap, in the app's process: stored as work, nothing sent yet; the second tap on the same notification is not stored again.
        #expect(try await kotlin(["tap", "n-android-1", token, "see you there"]).contains("tapped"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("work").path).count == 1)
        // Another process, the server down: the work stays.
        let down = try ServerProcess.freePort()
        #expect(try await kotlin(["run", "http://127.0.0.1:\(down)"]).contains("Retry"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("work").path).count == 1)
        // Another, the server up: delivered, and gone from the outbox.
        #expect(try await kotlin(["run", "http://127.0.0.1:\(port)"]).contains("Success"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("work").path).isEmpty)
        // Stored once, as the iOS client would have sent it: the comment with its text and the typed payload.
        let listed = try await CommandLineRunner.run(
            ["deliveries", "list", "--format", "json", "--url", "http://127.0.0.1:\(port)", "--admin-token", admin], in: directory)
        #expect(listed.stdout.matches(of: /"notificationId":"n-android-1"/).count == 1, "\(listed.stdout)")
        #expect(listed.stdout.contains(#""action":"comment""#) && listed.stdout.contains(#""user":"alice""#))
    }

    @Test func theEdgeCatalogCompilesKeywordsDotsAndEveryPayloadType() async throws {
        // Payload keys that are Kotlin keywords (`class`), ids with dots and digits, object and
        // array values, a retired category and action, icons and semantic actions.
        let directory = try CommandLineRunner.temporaryDirectory([:])
        defer { try? FileManager.default.removeItem(at: directory) }
        let generated = try await CommandLineRunner.run(
            ["generate", "kotlin", "EdgeCategories", "--package", "com.example.edge", "--output", directory.appendingPathComponent("app").path],
            in: CommandLineRunner.repository.appendingPathComponent("Tests/CodegenFixtures"))
        #expect(generated.status == 0, "\(generated.stderr)")
        let source = try String(contentsOf: directory.appendingPathComponent("app/ActionableNotifications.kt"), encoding: .utf8)
        let strings = try String(contentsOf: directory.appendingPathComponent("app/res/values/strings.xml"), encoding: .utf8)
        var r = "package com.example.edge\n\nobject R {\n    object string {\n"
        for (index, key) in strings.matches(of: /name="([A-Za-z0-9_]+)"/).map({ String($0.1) }).enumerated() {
            r += "        const val \(key): Int = \(index + 1)\n"
        }
        r += "    }\n    object drawable {\n"
        for (index, name) in Set(source.matches(of: /R\.drawable\.([A-Za-z0-9_]+)/).map { String($0.1) }).sorted().enumerated() {
            r += "        const val \(name): Int = \(index + 100)\n"
        }
        r += "    }\n}\n"
        try r.write(to: directory.appendingPathComponent("app/R.kt"), atomically: true, encoding: .utf8)
        let sources =
            [directory.appendingPathComponent("app/ActionableNotifications.kt").path, directory.appendingPathComponent("app/R.kt").path]
            + (try FileManager.default.contentsOfDirectory(atPath: Self.standIn.path)).filter { $0.hasSuffix(".kt") }.map {
                Self.standIn.appendingPathComponent($0).path
            }
        let compiled = try await CommandLineRunner.runTool(
            "kotlinc", sources + ["-d", directory.appendingPathComponent("classes").path], in: directory, environment: [:])
        #expect(compiled.status == 0, "kotlinc:\n\(compiled.stderr)")
        #expect(source.contains("val `class`: String") && !source.contains("object RetiredSurvey"))
    }

    @Test func theCommittedFilesAreWhatTheCatalogsGenerate() async throws {
        // Regenerate: actionable generate kotlin --package com.example.app --output Tests/Android/generated/example, and
        // (in Tests/CodegenFixtures) actionable generate kotlin EdgeCategories --package com.example.edge --output ../Android/generated/edge
        let golden = CommandLineRunner.repository.appendingPathComponent("Tests/Android/generated")
        for (name, package, path, base) in [
            ("example", "com.example.app", "Categories", CommandLineRunner.repository),
            ("edge", "com.example.edge", "EdgeCategories", CommandLineRunner.repository.appendingPathComponent("Tests/CodegenFixtures")),
        ] {
            let directory = try CommandLineRunner.temporaryDirectory([:])
            defer { try? FileManager.default.removeItem(at: directory) }
            let run = try await CommandLineRunner.run(["generate", "kotlin", path, "--package", package, "--output", directory.path], in: base)
            #expect(run.status == 0, "\(run.stderr)")
            let files = try FileManager.default.subpathsOfDirectory(atPath: golden.appendingPathComponent(name).path).filter {
                $0.hasSuffix(".kt") || $0.hasSuffix(".xml")
            }.sorted()
            #expect(
                files
                    == (try FileManager.default.subpathsOfDirectory(atPath: directory.path)).filter { $0.hasSuffix(".kt") || $0.hasSuffix(".xml") }
                    .sorted())
            for file in files {
                let expected = try String(contentsOf: golden.appendingPathComponent(name).appendingPathComponent(file), encoding: .utf8)
                #expect(try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8) == expected, "\(name)/\(file)")
            }
        }
    }
}
