import Foundation
import PackagePlugin

/// Generates Swift from notification category files for any target that holds an
/// `actionable-generate.yaml` (which names the categories directory and the target kind, app or
/// server), on every build where the files changed.
@main
struct ActionableGenerator: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let configuration = target.directoryURL.appendingPathComponent("actionable-generate.yaml")
        guard FileManager.default.fileExists(atPath: configuration.path) else {
            throw PluginFailure("\(target.name) uses ActionableGenerator but has no actionable-generate.yaml in \(target.directoryURL.path)")
        }
        return try Self.commands(
            configuration: configuration, targetName: target.name, workDirectory: context.pluginWorkDirectoryURL,
            tool: try context.tool(named: "actionable-generator").url)
    }

    /// The command generating the Swift of `configuration` (its categories relative to it) into
    /// `workDirectory`, for a package target or an Xcode one.
    static func commands(configuration: URL, targetName: String, workDirectory: URL, tool: URL) throws -> [Command] {
        let text = try String(contentsOf: configuration, encoding: .utf8)
        let categories = configuration.deletingLastPathComponent().appendingPathComponent(Self.value(of: "categories", in: text) ?? "Categories")
        let name = Self.value(of: "name", in: text) ?? "NotificationCategories"
        let output = workDirectory.appendingPathComponent("\(name).swift")
        return [
            .buildCommand(
                displayName: "Generating \(name).swift from \(categories.lastPathComponent) for \(targetName)",
                executable: tool,
                arguments: [configuration.path, output.path],
                inputFiles: [configuration] + Self.categoryFiles(under: categories),
                outputFiles: [output])
        ]
    }

    /// A top-level `key: value` of the configuration (the tool reads the whole file with Yams;
    /// the plugin only needs where the categories are, to rebuild when one changes).
    static func value(of key: String, in text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            let value = line.dropFirst(key.count + 1).split(separator: "#").first?.trimmingCharacters(in: .whitespaces) ?? ""
            return value.isEmpty ? nil : value.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        }
        return nil
    }

    static func categoryFiles(under directory: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }.filter { ["yaml", "yml", "json"].contains($0.pathExtension) }
            .sorted { $0.path < $1.path }
    }
}

struct PluginFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

/// In an Xcode project: attach the plugin to the app target (Build Phases, Run Build Tool Plug-ins)
/// and add `actionable-generate.yaml` to the target's files; the categories folder is named
/// relative to it, as in a package.
extension ActionableGenerator: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        guard let configuration = target.inputFiles.first(where: { $0.url.lastPathComponent == "actionable-generate.yaml" })?.url else {
            throw PluginFailure(
                "\(target.displayName) uses ActionableGenerator but has no actionable-generate.yaml among its files: add it to the target")
        }
        return try Self.commands(
            configuration: configuration, targetName: target.displayName, workDirectory: context.pluginWorkDirectoryURL,
            tool: try context.tool(named: "actionable-generator").url)
    }
}
#endif
