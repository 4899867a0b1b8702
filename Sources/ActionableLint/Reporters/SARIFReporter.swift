import ActionableCore

/// SARIF 2.1.0 (OASIS): one run whose driver lists every rule of the tool, one result per diagnostic.
enum SARIFReporter {
    static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
    static let informationURI = "https://github.com/actionable/actionable"

    static func report(_ result: LintResult, tool: ReportTool) -> String {
        let ids = tool.rules.map(\.identifier)
        let rules = tool.rules.map { rule -> JSONValue in
            .object([
                ("id", .string(rule.identifier)),
                ("name", .string(pascalCase(rule.identifier))),
                ("shortDescription", .object([("text", .string(plain(rule.summary)))])),
                ("defaultConfiguration", .object([("level", .string(level(rule.severity)))])),
            ])
        }
        let results = result.diagnostics.map { diagnostic -> JSONValue in
            var pairs: [(String, JSONValue)] = [("ruleId", .string(diagnostic.rule))]
            if let index = ids.firstIndex(of: diagnostic.rule) { pairs.append(("ruleIndex", .int(index))) }
            pairs += [
                ("level", .string(level(diagnostic.severity))),
                ("message", .object([("text", .string(diagnostic.message))])),
                (
                    "locations",
                    .array([
                        .object([
                            (
                                "physicalLocation",
                                .object([
                                    ("artifactLocation", .object([("uri", .string(uri(diagnostic.location.file)))])),
                                    (
                                        "region",
                                        .object([
                                            ("startLine", .int(diagnostic.location.line)),
                                            ("startColumn", .int(diagnostic.location.column)),
                                        ])
                                    ),
                                ])
                            )
                        ])
                    ])
                ),
            ]
            return .object(pairs)
        }
        let log = JSONValue.object([
            ("$schema", .string(schemaURI)),
            ("version", .string("2.1.0")),
            (
                "runs",
                .array([
                    .object([
                        (
                            "tool",
                            .object([
                                (
                                    "driver",
                                    .object([
                                        ("name", .string("actionable")),
                                        ("informationUri", .string(informationURI)),
                                        ("rules", .array(rules)),
                                    ])
                                )
                            ])
                        ),
                        ("results", .array(results)),
                    ])
                ])
            ),
        ])
        return log.prettySerialized() + "\n"
    }

    /// A relative URI reference for a path: percent-encoded except for unreserved characters and `/`.
    static func uri(_ path: String) -> String {
        var output = ""
        var trimmed = Substring(path)
        while trimmed.hasPrefix("./") { trimmed = trimmed.dropFirst(2) }
        for byte in trimmed.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                output += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return output
    }

    /// SARIF's levels are `error`, `warning` and `note`.
    static func level(_ severity: Severity) -> String { severity == .info ? "note" : severity.rawValue }

    static func pascalCase(_ id: String) -> String {
        id.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    static func plain(_ markdown: String) -> String { markdown.replacing("`", with: "") }
}
