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

    /// Generates the example catalog's Kotlin into `directory/app` (as a module's `src/main`), with a
    /// listing of the categories' builders, and compiles it with the stand-in and the checks into
    /// `directory/classes`.
    static func compile(in directory: URL) async throws {
        let catalog = try Linter().checkedCatalog(at: CommandLineRunner.repository.appendingPathComponent("Categories").path)
        var listing = "package actionable.check\n\nimport android.content.Context\nimport com.example.app.*\n\nobject Generated {\n"
        listing += "    fun all(context: Context, data: Map<String, String>) = listOf(\n"
        // Kotlin 1.3 takes no trailing comma.
        listing +=
            catalog.categories.filter { !$0.retired }.map { category in
                let name = SwiftName.type(category.id.rawValue).replacingOccurrences(of: "`", with: "")
                return "        \"\(category.id.rawValue)\" to ActionableCategories.\(name).actions(context, \"n-1\", data, Any::class.java)"
            }.joined(separator: ",\n")
        listing += "\n    )\n}\n"
        let listingFile = directory.appendingPathComponent("Generated.kt")
        try listing.write(to: listingFile, atomically: true, encoding: .utf8)
        let compiled = try await AndroidStandInBuild.compile(in: directory, extra: [listingFile] + AndroidStandInBuild.checks)
        #expect(compiled.status == 0, "\(compiled.output)")
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

    /// The backend's FCM data message (`actionable payload --platform android`, with its action
    /// token from the same development key), as `message.data`, written to a file for the JVM.
    static func dataFile(_ arguments: [String], in directory: URL, name: String) async throws -> URL {
        let message = try await CommandLineRunner.run(["payload"] + arguments + ["--platform", "android", "--user", "alice"], in: directory)
        #expect(message.status == 0, "\(message.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(message.stdout.utf8)) as? [String: Any]
        let data = try #require((object?["message"] as? [String: Any])?["data"] as? [String: String])
        let file = directory.appendingPathComponent(name)
        try JSONSerialization.data(withJSONObject: data).write(to: file)
        return file
    }

    @Test(.timeLimit(.minutes(3)))
    func aTapIsStoredBeforeTheReceiverReturnsAndSentOnceFromAFreshProcess() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.compile(in: directory)
        let admin = "kotlin-test-admin-token-0123456789abcdefgh"
        let port = try ServerProcess.freePort()
        let server = try await ServerProcess.serve(in: directory, port: port, extra: ["--admin-token", admin])
        defer { server.signal() }
        let work = directory.appendingPathComponent("work")
        let queue = work.appendingPathComponent("workmanager")
        func app(_ arguments: [String]) async throws -> String {
            let run = try await AndroidStandInBuild.run("actionable.check.TapCheck", arguments, classes: directory, work: work)
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout
        }
        // The app starts with a server that is down; its configuration is kept, not only in memory.
        let down = try ServerProcess.freePort()
        #expect(try await app(["configure", "http://127.0.0.1:\(down)"]).contains("configured"))
        let invite = try await Self.dataFile(
            ["invite", "--set", "inviteId=42", "--set", "seats=3", "--notification-id", "n-android-1", "--title", "Dinner?"], in: directory,
            name: "invite.json")
        // FCM hands the service the data message: it posts the notification with the category's actions; the user
        // answers with text; the process is killed the moment the receiver returns.
        let delivered = try await app(["deliver", invite.path, "comment", "see you there", "halt"])
        #expect(delivered.contains("posted\tn-android-1#"), "\(delivered)")
        #expect(delivered.contains("title\tDinner?") && delivered.contains("actions\taccept,decline,comment"), "\(delivered)")
        #expect(delivered.contains("cancelled\ttrue"), "the notification is taken down once the tap is handed over: \(delivered)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: queue.path) == ["actionable.tap.n-android-1"])
        // Without POST_NOTIFICATIONS, Android 13 shows nothing and the helper asks for it; before 13 there is nothing to ask.
        let denied = try await AndroidStandInBuild.run(
            "actionable.check.TapCheck", ["permission", invite.path], classes: directory, work: work, sdk: 33)
        #expect(
            denied.stdout.contains("shown\tfalse\tposted\t0") && denied.stdout.contains("asked\ttrue\tandroid.permission.POST_NOTIFICATIONS"),
            "\(denied.stdout)\(denied.stderr)")
        let older = try await AndroidStandInBuild.run(
            "actionable.check.TapCheck", ["permission", invite.path], classes: directory, work: work, sdk: 32)
        #expect(older.stdout.contains("shown\ttrue\tposted\t1") && older.stdout.contains("asked\tfalse\t"), "\(older.stdout)\(older.stderr)")
        // A fresh process, the server down: the work stays.
        #expect(try await app(["run"]).contains("Retry"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: queue.path).count == 1)
        // The server is up: sent from what was kept, and gone from the outbox.
        #expect(try await app(["configure", "http://127.0.0.1:\(port)"]).contains("configured"))
        #expect(try await app(["run"]).contains("Success"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: queue.path).isEmpty)
        // A reply longer than the category's maxLength (2,000), in four-byte characters: held to 2,000, and too long
        // for WorkManager's 10 KB Data, so kept in a file — the server takes it (a 422 would have ended the work).
        let message = try await Self.dataFile(
            ["message", "--set", "conversationId=c-1", "--set", "messageId=m-1", "--notification-id", "n-android-2", "--title", "Sam"], in: directory,
            name: "message.json")
        let long = String(repeating: "\u{1F600}", count: 2_500)
        #expect(try await app(["deliver", message.path, "reply", long, "halt"]).contains("cancelled\ttrue"))
        #expect(try await app(["run"]).contains("Success"))
        let listed = try await CommandLineRunner.run(
            ["deliveries", "list", "--format", "json", "--url", "http://127.0.0.1:\(port)", "--admin-token", admin], in: directory)
        #expect(listed.stdout.matches(of: /"notificationId":"n-android-1"/).count == 1, "\(listed.stdout)")
        #expect(listed.stdout.matches(of: /"notificationId":"n-android-2"/).count == 1, "\(listed.stdout)")
        #expect(listed.stdout.contains(#""action":"comment""#) && listed.stdout.contains(#""user":"alice""#))
    }

    /// What the runtime catalog (a category the generated code does not know) takes from a
    /// served body: a category that keeps the rules gets its buttons, in the device's language
    /// or else the catalog's first; anything else gets none — never an exception.
    @Test(.timeLimit(.minutes(3)))
    func theRuntimeCatalogShowsOnlyCategoriesThatKeepTheRules() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:])
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.compile(in: directory)
        func body(_ category: String, version: String = "1") -> String { #"{"version":\#(version),"categories":[\#(category)]}"# }
        func action(_ id: String, _ title: String = #""T""#, extra: String = "") -> String { #"{"id":"\#(id)","title":\#(title)\#(extra)}"# }
        let bodies: [(name: String, text: String, expected: String)] = [
            (
                "good",
                body(
                    #"{"category":"poll","actions":[\#(action("yes", #"{"fr":"Oui","de":"Ja"}"#)),\#(action("no", #"{"fr":"Non"}"#))],"contexts":{"default":["no","yes"]}}"#
                ), "no=Non,yes=Ja"
            ),
            (
                "android",
                body(
                    #"{"category":"poll","actions":[\#((0..<5).map { action("a\($0)") }.joined(separator: ","))],"android":{"actions":["a4","a0"]}}"#),
                "a4=T,a0=T"
            ),
            ("retired", body(#"{"category":"poll","retired":true,"actions":[\#(action("a"))]}"#), "none"),
            ("garbage", "<html>502</html>", "none"),
            ("version", body(#"{"category":"poll","actions":[\#(action("a"))]}"#, version: "2"), "none"),
            ("eleven", body(#"{"category":"poll","actions":[\#((0..<11).map { action("a\($0)") }.joined(separator: ","))]}"#), "none"),
            (
                "four-shown",
                body(
                    #"{"category":"poll","actions":[\#((0..<4).map { action("a\($0)") }.joined(separator: ","))],"android":{"actions":["a0","a1","a2","a3"]}}"#
                ), "none"
            ),
            ("undeclared", body(#"{"category":"poll","actions":[\#(action("a"))],"android":{"actions":["b"]}}"#), "none"),
            ("reserved", body(#"{"category":"poll","actions":[\#(action("com.apple.UNNotificationDefaultActionIdentifier"))]}"#), "none"),
            ("number-title", body(#"{"category":"poll","actions":[\#(action("a", "42"))]}"#), "none"),
            ("blank-title", body(#"{"category":"poll","actions":[\#(action("a", #""  ""#))]}"#), "none"),
            ("twice", body(#"{"category":"poll","actions":[\#(action("a")),\#(action("a"))]}"#), "none"),
            ("max-length", body(#"{"category":"poll","actions":[\#(action("a", extra: #","input":{"maxLength":"5"}"#))]}"#), "none"),
            ("payload-type", body(#"{"category":"poll","payload":{"k":{"type":"date"}},"actions":[\#(action("a"))]}"#), "none"),
            ("deep", body(#"{"category":"poll","actions":[\#(action("a"))],"x":\#(String(repeating: "[", count: 100_000))}"#), "none"),
            // org.json takes single-quoted strings: a `"` inside one must not hide the brackets after it.
            ("deep-quoted", #"{'"':\#(String(repeating: "[", count: 100_000))"#, "none"),
            ("single-quoted", #"{'version':1,'categories':[{'category':'poll','actions':[{'id':'a','title':'A'}]}]}"#, "a=A"),
            ("bad-id", body(#"{"category":"poll!","actions":[\#(action("a"))]}"#), "none"),
        ]
        var paths: [String] = []
        for entry in bodies {
            let file = directory.appendingPathComponent(entry.name)
            try entry.text.write(to: file, atomically: true, encoding: .utf8)
            paths.append(file.path)
        }
        let run = try await AndroidStandInBuild.run(
            "actionable.check.TapCheck", ["catalog", "poll"] + paths, classes: directory, work: directory.appendingPathComponent("work"),
            language: "de")
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == bodies.count, "\(run.stdout)")
        for (line, entry) in zip(lines, bodies) { #expect(line == entry.name + "\t" + entry.expected) }
    }

    /// A server that answers the catalog without end, a byte at a time, or not at all: the
    /// messaging service gives up on it (1 MiB, about eight seconds in all, a read timeout) and
    /// still posts the notification, without buttons; nothing is kept.
    @Test(.timeLimit(.minutes(3)))
    func aCatalogThatNeverEndsTricklesOrStallsStillLetsTheNotificationBePosted() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:])
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.compile(in: directory)
        let head = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nETag: \"t\"\r\nConnection: close\r\n\r\n{".utf8)
        // The last trickles its head: the status line never ends, and each read gets a byte (readTimeout is per read).
        let behaviors: [HostileUpstream.Behavior] = [
            .endless(head: head), .trickle(head: head, interval: 2), .stall(head), .trickle(head: Array("HTTP/1.1 200 OK".utf8), interval: 1),
        ]
        let upstream = try HostileUpstream { _, seen in behaviors[min(seen, behaviors.count - 1)] }
        defer { upstream.stop() }
        let work = directory.appendingPathComponent("work")
        let configured = try await AndroidStandInBuild.run(
            "actionable.check.TapCheck", ["configure", "http://127.0.0.1:\(upstream.port)"], classes: directory, work: work)
        #expect(configured.status == 0, "\(configured.stderr)")
        for (index, name) in ["endless", "trickle", "stall", "trickled-head"].enumerated() {
            let file = directory.appendingPathComponent("\(name).json")
            try #"{"category":"poll","notificationId":"n-\#(name)","title":"Lunch?","body":"12:30"}"#.write(
                to: file, atomically: true, encoding: .utf8)
            let run = try await AndroidStandInBuild.run("actionable.check.TapCheck", ["deliver", file.path, "-"], classes: directory, work: work)
            #expect(run.status == 0, "\(name): \(run.stderr)")
            #expect(run.stdout.contains("posted\tn-\(name)#") && run.stdout.contains("actions\t\n"), "\(name): \(run.stdout)")
            try await upstream.arrived(index + 1)
        }
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("no_backup/actionable-catalog").path))
    }

    /// With the category kept from an earlier catalog, each notification is shown from it at once
    /// and asks the server again in the background; a server that trickles its headers holds at
    /// most one such exchange, ended by a watchdog, however many notifications arrive (each left a
    /// thread hanging: 200 notifications, 200 threads).
    @Test(.timeLimit(.minutes(3)))
    func aTricklingServerHoldsOneRefreshHoweverManyNotificationsArrive() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:])
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.compile(in: directory)
        let upstream = try HostileUpstream { _, _ in .trickle(head: Array("HTTP/1.1 200 OK\r\nX-Pad: ".utf8), interval: 1) }
        defer { upstream.stop() }
        let work = directory.appendingPathComponent("work")
        let configured = try await AndroidStandInBuild.run(
            "actionable.check.TapCheck", ["configure", "http://127.0.0.1:\(upstream.port)"], classes: directory, work: work)
        #expect(configured.status == 0, "\(configured.stderr)")
        let kept = work.appendingPathComponent("no_backup/actionable-catalog")
        try FileManager.default.createDirectory(at: kept.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "\"k1\"\n{\"version\":1,\"categories\":[{\"category\":\"poll\",\"actions\":[{\"id\":\"yes\",\"title\":\"Yes\"}]}]}".write(
            to: kept, atomically: true, encoding: .utf8)
        let file = directory.appendingPathComponent("poll.json")
        try #"{"category":"poll","notificationId":"n-burst","title":"Lunch?","body":"12:30"}"#.write(to: file, atomically: true, encoding: .utf8)
        let run = try await AndroidStandInBuild.run("actionable.check.TapCheck", ["burst", "200", file.path], classes: directory, work: work)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("posted\t200\n"), "\(run.stdout)")
        let threads = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("threads\t") }.flatMap { Int($0.dropFirst(8)) })
        #expect(threads <= 1, "\(run.stdout)")
        try await upstream.arrived(1)
    }

    /// A package or R class Kotlin could not compile is refused, naming the segment and the fix,
    /// and nothing is written (they were accepted, exit 0, and the module did not compile).
    @Test(arguments: [
        (["--package", "com.example.my-app"], #""my-app" is not a Java or Kotlin identifier"#),
        (["--package", "com.example.fun"], #""fun" is a Kotlin or Java keyword"#),
        (["--package", "com.example.int"], #""int" is a Kotlin or Java keyword"#),
        (["--package", "1example.app"], #""1example" is not a Java or Kotlin identifier"#),
        (["--package", "com..app"], "an empty segment"),
        (["--package", "com.example.app", "--r-class", "com.example.app-R"], #"--r-class com.example.app-R: "app-R""#),
    ])
    func aNameTheCodeCouldNotCompileInIsRefused(arguments: [String], message: String) async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:])
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("actionable/src/main")
        let run = try await CommandLineRunner.run(["generate", "kotlin"] + arguments + ["--output", output.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func aManifestTheCommandDidNotWriteIsNeverReplaced() async throws {
        let directory = try CommandLineRunner.temporaryDirectory(["app/src/main/AndroidManifest.xml": "<manifest package=\"mine\"/>\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("app/src/main")
        let refused = try await CommandLineRunner.run(["generate", "kotlin", "--package", "com.example.app", "--output", output.path])
        #expect(refused.status != 0 && refused.stderr.contains("never replaced"), "\(refused.stderr)")
        #expect(try String(contentsOf: output.appendingPathComponent("AndroidManifest.xml"), encoding: .utf8) == "<manifest package=\"mine\"/>\n")
        // A module of its own: the manifest, the sources where Gradle reads them, and again over its own manifest.
        let module = directory.appendingPathComponent("actionable/src/main")
        for _ in 0..<2 {
            let run = try await CommandLineRunner.run(["generate", "kotlin", "--package", "com.example.app", "--output", module.path])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let manifest = try String(contentsOf: module.appendingPathComponent("AndroidManifest.xml"), encoding: .utf8)
        #expect(manifest.contains(#"android:name="com.example.app.ActionableActionReceiver""#))
        #expect(manifest.contains(#"android:name="com.example.app.ActionableMessagingService""#))
        #expect(manifest.contains("com.google.firebase.MESSAGING_EVENT") && manifest.contains("android.permission.POST_NOTIFICATIONS"))
        for file in ["java/com/example/app/ActionableNotifications.kt", "java/com/example/app/ActionableRuntime.kt", "res/values/strings.xml"] {
            #expect(FileManager.default.fileExists(atPath: module.appendingPathComponent(file).path), "\(file)")
        }
    }

    @Test func theEdgeCatalogCompilesKeywordsDotsAndEveryPayloadType() async throws {
        // Payload keys that are Kotlin keywords (`class`), ids with dots and digits, object and
        // array values, a retired category and action, icons and semantic actions.
        let directory = try CommandLineRunner.temporaryDirectory([:])
        defer { try? FileManager.default.removeItem(at: directory) }
        let compiled = try await AndroidStandInBuild.compile(
            in: directory, path: "EdgeCategories", base: CommandLineRunner.repository.appendingPathComponent("Tests/CodegenFixtures"),
            package: "com.example.edge")
        #expect(compiled.status == 0, "\(compiled.output)")
        let source = try String(
            contentsOf: directory.appendingPathComponent("app/java/com/example/edge/ActionableNotifications.kt"), encoding: .utf8)
        #expect(source.contains("val `class`: String") && !source.contains("object RetiredSurvey"))
        // Android's per-action keys reach the code: the drawable and the semantic action.
        #expect(source.contains("R.drawable.ic_reply") && source.contains("NotificationCompat.Action.SEMANTIC_ACTION_REPLY"))
        #expect(source.contains("R.drawable.ic_open") && source.contains("NotificationCompat.Action.SEMANTIC_ACTION_MARK_AS_READ"))
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
