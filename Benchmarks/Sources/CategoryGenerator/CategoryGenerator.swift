import Foundation

/// Writes N realistic category files (about 25 lines each: options, payload keys, localized
/// titles, a text-input action, contexts), deterministic for a given N, so that every tool in a
/// comparison reads the same bytes.
public enum CategoryGenerator {
    /// The text of file number `index`.
    public static func file(_ index: Int) -> String {
        let id = "category\(index)"
        let destructive = index % 3 == 0
        return """
            # Generated benchmark category \(index)
            version: 1
            category: \(id)
            description: Benchmark category number \(index), shaped like a real one.
            options: [\(index % 2 == 0 ? "customDismissAction" : "hiddenPreviewsShowTitle")]
            hiddenPreviewsBodyPlaceholder: { en: "%u notifications", de: "%u Mitteilungen" }
            payload:
              objectId: { type: string, required: true, maxLength: 64 }
              count: { type: integer }
              label: string
            actions:
              - id: \(id).accept
                title: { en: Accept, de: Annehmen }
                authenticationRequired: true
              - id: \(id).decline
                title: { en: Decline, de: Ablehnen }
                destructive: \(destructive)
                authenticationRequired: true
              - id: \(id).reply
                title: { en: Reply, de: Antworten }
                icon: { system: text.bubble }
                input: { button: { en: Send, de: Senden }, maxLength: 500 }
            contexts:
              default: [\(id).accept, \(id).decline, \(id).reply]
              minimal: [\(id).accept, \(id).decline]

            """
    }

    /// Writes `count` files into `directory` (created if needed) and returns their paths.
    @discardableResult
    public static func write(count: Int, to directory: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return try (0..<count).map { index in
            let path = directory + "/category\(index).yaml"
            try file(index).write(toFile: path, atomically: false, encoding: .utf8)
            return path
        }
    }
}
