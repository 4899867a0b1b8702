import ActionableCodegen
import Foundation
import Yams

/// `actionable-generate.yaml`, beside a target's sources:
///
/// ```yaml
/// categories: ../../Categories   # relative to this file; default: Categories
/// target: server                 # app or server (required)
/// name: NotificationCategories   # optional
/// access: internal               # public (default) or internal
/// ```
struct GeneratorConfiguration: Decodable {
    var categories: String?
    var target: GenerationTarget
    var name: String?
    var access: GenerationOptions.Access?

    /// Reads `path`, with a message that names the file and the key at fault.
    static func load(_ path: String) throws -> GeneratorConfiguration {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw GeneratorFailure("\(path): cannot be read")
        }
        do {
            return try YAMLDecoder().decode(GeneratorConfiguration.self, from: text)
        } catch let DecodingError.keyNotFound(key, _) {
            throw GeneratorFailure("\(path): \"\(key.stringValue)\" is required (target: app or server)")
        } catch let DecodingError.dataCorrupted(context) {
            let key = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw GeneratorFailure("\(path): \(key.isEmpty ? "" : "\"\(key)\": ")\(context.debugDescription)")
        } catch {
            throw GeneratorFailure("\(path): \(error)")
        }
    }
}

extension GenerationOptions.Access: Decodable {}
extension GenerationTarget: Decodable {}

/// A failure of the tool, printed as `error: …`.
struct GeneratorFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
