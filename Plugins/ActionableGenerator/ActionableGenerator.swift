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
        let text = try String(contentsOf: configuration, encoding: .utf8)
        let categories = target.directoryURL.appendingPathComponent(Self.value(of: "categories", in: text) ?? "Categories")
        let name = Self.value(of: "name", in: text) ?? "NotificationCategories"
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("\(name).swift")
        return [
            .buildCommand(
                displayName: "Generating \(name).swift from \(categories.lastPathComponent) for \(target.name)",
                executable: try context.tool(named: "actionable-generator").url,
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
