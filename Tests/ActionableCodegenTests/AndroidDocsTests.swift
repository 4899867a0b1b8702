import ActionableTestSupport
import Foundation
import Testing

/// What docs/android.md tells an Android team to write: its Kotlin blocks compile with the
/// generated module against the stand-in, and its Gradle files are `Examples/Android`'s, which
/// declare what the generated code uses.
struct AndroidDocsTests {
    static let page = "docs/android.md"
    static let examples = CommandLineRunner.repository.appendingPathComponent("Examples/Android")

    /// What the blocks take from the reader's app: its `R`, its sign-in state, its own handlers.
    static let app = """
        package com.example.app

        object R {
            object drawable {
                const val ic_notification: Int = 1
            }
        }

        class Session(val jwt: String) {
            companion object {
                var current: Session? = null
            }
        }

        fun handleOwn(message: com.google.firebase.messaging.RemoteMessage) {}

        fun sendToOwnBackend(token: String) {}

        """

    @Test(.timeLimit(.minutes(3)))
    func everyKotlinBlockCompilesWithTheGeneratedModule() async throws {
        let snippets = try DocSnippet.all("kotlin", in: [Self.page, "README.md"])
        #expect(snippets.count >= 2, "\(snippets)")
        var files = ["snippets/App.kt": Self.app]
        for (index, snippet) in snippets.enumerated() { files["snippets/Snippet\(index).kt"] = snippet.code }
        let directory = try CommandLineRunner.temporaryDirectory(files)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sources = ["snippets/App.kt"] + snippets.indices.map { "snippets/Snippet\($0).kt" }
        let compiled = try await AndroidStandInBuild.compile(
            in: directory, package: "com.example.app.actionable", extra: sources.map { directory.appendingPathComponent($0) })
        var said = compiled.output
        for (index, snippet) in snippets.enumerated() {
            said = said.replacingOccurrences(of: "Snippet\(index).kt:", with: "\(snippet.file) (block at line \(snippet.line)):")
        }
        #expect(compiled.status == 0, "\(said)")
    }

    /// The page's Gradle blocks are the example's files, word for word.
    @Test func theGradleBlocksAreTheExamplesFiles() throws {
        let blocks = try DocSnippet.all("kts", in: [Self.page]).map(\.code)
        let files = ["settings.gradle.kts", "build.gradle.kts", "actionable/build.gradle.kts", "app/build.gradle.kts"]
        let texts = try files.map { try String(contentsOf: Self.examples.appendingPathComponent($0), encoding: .utf8) }
        #expect(blocks == texts, "docs/android.md's kts blocks differ from Examples/Android (settings, root, module, app)")
    }

    /// The module's build file declares, with a version, every library the generated code
    /// imports, exposes them to the app (`api`), compiles against an SDK that has what its
    /// manifest asks for, and names the namespace the page's command generates for.
    @Test func theModulesBuildFileDeclaresWhatTheGeneratedCodeUses() async throws {
        let build = try String(contentsOf: Self.examples.appendingPathComponent("actionable/build.gradle.kts"), encoding: .utf8)
        let directory = try CommandLineRunner.temporaryDirectory([:])
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("actionable/src/main")
        let generated = try await CommandLineRunner.run(["generate", "kotlin", "--package", "com.example.app.actionable", "--output", output.path])
        #expect(generated.status == 0, "\(generated.stderr)")
        let sources = try ["ActionableNotifications.kt", "ActionableRuntime.kt"].map {
            try String(contentsOf: output.appendingPathComponent("java/com/example/app/actionable/" + $0), encoding: .utf8)
        }.joined()
        // Each library's packages, as the generated code names them, and its Maven coordinates.
        let libraries = [
            ("androidx.core.", "androidx.core:core:"), ("androidx.work.", "androidx.work:work-runtime:"),
            ("com.google.firebase.messaging.", "com.google.firebase:firebase-messaging:"),
        ]
        for (package, coordinates) in libraries {
            #expect(sources.contains(package), "the generated code no longer uses \(package): drop \(coordinates)")
            let declared = build.firstMatch(of: try Regex("api\\(\"\(NSRegularExpression.escapedPattern(for: coordinates))([0-9][0-9.]*)\"\\)"))
            #expect(declared != nil, "actionable/build.gradle.kts does not declare api(\"\(coordinates)VERSION\")")
        }
        // Whatever else it imports is Android's own, or the JDK's.
        let imported = Set(sources.matches(of: /(?m)^import ([a-z]+\.[a-z]+)/).map { String($0.1) })
        #expect(imported.isSubset(of: ["android.app", "android.content", "android.os", "androidx.core", "androidx.work"]), "\(imported)")
        let manifest = try String(contentsOf: output.appendingPathComponent("AndroidManifest.xml"), encoding: .utf8)
        let sdk = try #require(build.firstMatch(of: /compileSdk = ([0-9]+)/).flatMap { Int($0.1) })
        if manifest.contains("android.permission.POST_NOTIFICATIONS") { #expect(sdk >= 33, "POST_NOTIFICATIONS needs compileSdk 33") }
        #expect(build.contains(#"namespace = "com.example.app.actionable""#))
        #expect(build.contains(#"id("com.android.library")"#))
        let page = try String(contentsOf: CommandLineRunner.repository.appendingPathComponent(Self.page), encoding: .utf8)
        #expect(page.contains("actionable generate kotlin Categories --package com.example.app.actionable --output actionable/src/main"))
        let app = try String(contentsOf: Self.examples.appendingPathComponent("app/build.gradle.kts"), encoding: .utf8)
        #expect(app.contains(#"implementation(project(":actionable"))"#) && app.contains(#"id("com.google.gms.google-services")"#))
    }
}
