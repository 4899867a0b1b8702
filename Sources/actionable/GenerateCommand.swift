import ActionableCodegen
public import ArgumentParser
import Foundation

/// `actionable generate`: code generated from the category files.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate code from the category files.",
        subcommands: [GenerateSwiftCommand.self, GenerateTypeScriptCommand.self, GenerateKotlinCommand.self]
    )
}

/// `actionable generate swift [PATH] --target app|server [--output FILE] [--name NAME] [--access public|internal]
/// [--strings FILE.xcstrings]`.
struct GenerateSwiftCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swift",
        abstract: "Generate Swift constants and payload types from the category files.",
        discussion: """
            --target app: one file for an iOS app: NAME.all and NAME.register(on:), a type per \
            category with its identifiers, its UNNotificationCategory and a Payload from userInfo. \
            --target server: for each category a type with its CategoryID, one ActionID per action \
            and a Codable Payload, for RouterBuilder and PayloadBuilder. The output is deterministic \
            and names its source files. A catalog with lint errors is refused (exit 1).
            """
    )

    @Argument(help: "A directory of category files, or one file.") var path: String = "Categories"
    @Option(help: "What to generate for: app (an iOS app, iOS 12+) or server (a Swift backend).") var target: GenerationTarget
    @Option(help: "Write here instead of standard output.") var output: String?
    @Option(help: "The enclosing type's name.") var name: String = "NotificationCategories"
    @Option(help: "The access level: public or internal.") var access: GenerationOptions.Access = .public
    @Option(help: "With --target app: also write an Xcode String Catalog (.xcstrings) with every locale.")
    var strings: String?

    func validate() throws {
        if strings != nil && target != .app { throw ValidationError("--strings goes with --target app") }
        guard SwiftName.type(name) == name, !name.hasPrefix("_") else {
            throw ValidationError("--name must be a Swift type name such as NotificationCategories, not \"\(name)\"")
        }
    }

    func run() throws {
        let files = try loadCheckedFiles(path)
        let text: String
        do {
            text = try Generation.swift(for: target, from: files, options: GenerationOptions(name: name, access: access))
        } catch {
            throw refuse(error.description)
        }
        if let strings {
            do {
                try write(try StringCatalogGenerator().generate(Generation.sources(of: files)), to: strings)
            } catch let error as GenerationError {
                throw refuse(error.description)
            }
        }
        guard let output else {
            print(text, terminator: "")
            return
        }
        try write(text, to: output)
    }

    private func write(_ text: String, to path: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw refuse("cannot write \(path): \(error.localizedDescription)")
        }
    }
}

/// `actionable generate typescript [PATH] [--output FILE.ts]`.
struct GenerateTypeScriptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "typescript",
        abstract: "Generate TypeScript ids, payload interfaces and the forwarded call's type for a Node backend.",
        discussion: """
            One file: per category a constant with its id and action ids, a payload interface and the \
            type of the call serve forwards for it; ForwardedResponse (their union) and \
            isForwardedResponse, a type guard checking a parsed body against the catalog. It compiles \
            with tsc --strict (TypeScript 4.8 or later). A catalog with lint errors is refused (exit 1).
            """
    )

    @Argument(help: "A directory of category files, or one file.") var path: String = "Categories"
    @Option(help: "Write here instead of standard output.") var output: String?

    func run() throws {
        let files = try loadCheckedFiles(path)
        let text: String
        do {
            text = try Generation.typescript(from: files)
        } catch {
            throw refuse(error.description)
        }
        guard let output else { return print(text, terminator: "") }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw refuse("cannot write \(output): \(error.localizedDescription)")
        }
    }
}

/// `actionable generate kotlin [PATH] --package PKG [--r-class R] --output DIR`.
struct GenerateKotlinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kotlin",
        abstract: "Generate Kotlin (ids, payload classes, NotificationCompat actions) and res/values*/strings.xml for an Android app.",
        discussion: """
            Writes what Gradle reads from a module's src/main (give --output mymodule/src/main): \
            java/PACKAGE/ActionableNotifications.kt — per category its ids, a typed Payload (fromData, toJson) and \
            actions(...), the NotificationCompat actions Android shows, per API level; java/PACKAGE/ActionableRuntime.kt — \
            ActionableMessagingService (an FCM data message becomes the notification with its actions; onNewToken registers \
            the device), ActionableActionReceiver and ActionableReports (each tap stored with WorkManager before the receiver \
            returns, then posted to /v1/actions), configuration kept across process death, the POST_NOTIFICATIONS helper; \
            res/values*/strings.xml — every title and input label in every locale; AndroidManifest.xml — the receiver, the \
            service and the permissions, for the manifest merger (a manifest there that this command did not write is never \
            replaced). Kotlin 1.3 and later.
            """
    )

    @Argument(help: "A directory of category files, or one file.") var path: String = "Categories"
    @Option(help: "The Kotlin package of the generated code.") var package: String
    @Option(
        name: .customLong("r-class"),
        help:
            "The R class of the module the code is generated into: its Gradle namespace, then .R (default: PACKAGE.R, right when the namespace is PACKAGE)."
    ) var rClass: String?
    @Option(help: "The source set to write java/, res/ and AndroidManifest.xml into (a module's src/main).") var output: String

    func run() throws {
        // The names first: nothing is written for a package the code could not be compiled in.
        let generator: KotlinGenerator
        do {
            generator = try KotlinGenerator(checkedPackage: package, rClass: rClass)
        } catch {
            throw refuse(error.description)
        }
        let sources = Generation.sources(of: try loadCheckedFiles(path))
        let manifest = URL(fileURLWithPath: output).appendingPathComponent("AndroidManifest.xml")
        if let existing = try? String(contentsOf: manifest, encoding: .utf8), !existing.contains(KotlinGenerator.generatedMarker) {
            throw refuse(
                "\(manifest.path) is a manifest this command did not write, and it is never replaced: generate into a module of its own "
                    + "(--output actionable/src/main, with the app depending on it), whose manifest the merger adds to the app's")
        }
        do {
            let root = URL(fileURLWithPath: output)
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let files = try generator.files(sources)
            for file in files {
                let url = root.appendingPathComponent(file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.text.utf8).write(to: url, options: .atomic)
            }
        } catch let error as GenerationError {
            throw refuse(error.description)
        } catch {
            throw refuse("cannot write \(output): \(error.localizedDescription)")
        }
    }
}

extension GenerationOptions.Access: ExpressibleByArgument {}
extension GenerationTarget: ExpressibleByArgument {}
