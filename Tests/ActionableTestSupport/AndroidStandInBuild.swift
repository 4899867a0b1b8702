public import Foundation

/// Builds generated Android code as an app would: `actionable generate kotlin` into a module's
/// `src/main`, the app's `R` written from the generated resources, and everything compiled with
/// Debian's kotlinc against the stand-in of Android's classes (`Tests/AndroidStandIn`).
public enum AndroidStandInBuild {
    /// The stand-in's sources.
    public static let standIn = CommandLineRunner.repository.appendingPathComponent("Tests/AndroidStandIn")

    /// The stand-in's checks (the programs the tests run on the JVM); `Check.kt` needs a listing
    /// of the categories' builders (`Generated`) beside it.
    public static var checks: [URL] { tapChecks + [standIn.appendingPathComponent("check/Check.kt")] }

    /// The app-side programs: `TapCheck` and the app's context.
    public static var tapChecks: [URL] {
        ["TapCheck.kt", "StandInContext.kt"].map { standIn.appendingPathComponent("check").appendingPathComponent($0) }
    }

    /// Generates the catalog at `path` (relative to `base`) for `package` into `directory/app`,
    /// writes its `R`, and compiles it with the stand-in and `extra` sources into
    /// `directory/classes`. What `generate` and `kotlinc` said, and how they ended.
    public static func compile(
        in directory: URL, path: String = "Categories", base: URL = CommandLineRunner.repository, package: String = "com.example.app",
        extra: [URL] = []
    ) async throws -> (status: Int32, output: String) {
        let app = directory.appendingPathComponent("app")
        let generated = try await CommandLineRunner.run(
            ["generate", "kotlin", path, "--package", package, "--output", app.path], in: base)
        guard generated.status == 0 else { return (generated.status, "generate kotlin: \(generated.stderr)") }
        let sources = app.appendingPathComponent("java/" + package.replacingOccurrences(of: ".", with: "/"))
        let kotlin = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".kt") }.sorted().map {
            sources.appendingPathComponent($0)
        }
        let strings = try String(contentsOf: app.appendingPathComponent("res/values/strings.xml"), encoding: .utf8)
        var r = "package \(package)\n\nobject R {\n    object string {\n"
        for (index, key) in strings.matches(of: /name="([A-Za-z0-9_]+)"/).map({ String($0.1) }).enumerated() {
            r += "        const val \(key): Int = \(index + 1)\n"
        }
        r += "    }\n    object drawable {\n"
        let text = try kotlin.map { try String(contentsOf: $0, encoding: .utf8) }.joined()
        for (index, name) in Set(text.matches(of: /R\.drawable\.([A-Za-z0-9_]+)/).map { String($0.1) }).sorted().enumerated() {
            r += "        const val \(name): Int = \(index + 100)\n"
        }
        r += "    }\n}\n"
        let rFile = app.appendingPathComponent("R.kt")
        try r.write(to: rFile, atomically: true, encoding: .utf8)
        let standInSources = try FileManager.default.contentsOfDirectory(atPath: standIn.path).filter { $0.hasSuffix(".kt") }.sorted().map {
            standIn.appendingPathComponent($0)
        }
        let compiled = try await CommandLineRunner.runTool(
            "kotlinc", (kotlin + [rFile] + standInSources + extra).map(\.path) + ["-d", directory.appendingPathComponent("classes").path],
            in: directory, environment: [:])
        return (compiled.status, "kotlinc (Debian's kotlin):\n\(compiled.stderr)")
    }

    /// Runs `main` of the compiled checks on the JVM with the app's files under `work` (its
    /// preferences, no-backup files and WorkManager's store: what survives the process), the
    /// device's language `language`.
    public static func run(
        _ mainClass: String, _ arguments: [String], classes directory: URL, work: URL, sdk: Int = 34, language: String = "en"
    ) async throws -> CommandLineRunner.Run {
        // `user.language` is the JVM's default locale: the device's language, as Locale.getDefault() reads it on Android.
        try await CommandLineRunner.runTool(
            "kotlin",
            [
                "-Dactionable.work.dir=" + work.path, "-Dactionable.sdk=\(sdk)", "-Duser.language=" + language, "-Duser.country=",
                "-classpath", directory.appendingPathComponent("classes").path, mainClass,
            ]
                + arguments, in: directory, environment: [:])
    }
}
