/// How an identifier of the catalog becomes a Swift name, the same way everywhere:
///
/// - The identifier is split at `.`, `-` and `_`; the first part keeps its case and the others
///   start with a capital: `login-approval` → `loginApproval`, `digest.read` → `digestRead`.
///   Type names also capitalise the first part: `LoginApproval`.
/// - A name that would start with a digit gets a leading `_`: `2fa` → `_2fa` (type `_2fa`).
/// - A Swift keyword (`default`, `Type`) is wrapped in backticks, as Swift escapes it, so it stays usable.
///
/// Two identifiers that map to one name in the same scope (`digest.read` and `digest-read`)
/// are a ``GenerationError``, never a silent overwrite.
public enum SwiftName {
    /// The lowerCamelCase member name of `identifier` (a property or a case).
    public static func member(_ identifier: String) -> String {
        escaped(camelCase(identifier, capitalizeFirst: false))
    }

    /// The UpperCamelCase type name of `identifier`.
    public static func type(_ identifier: String) -> String {
        escaped(camelCase(identifier, capitalizeFirst: true))
    }

    static func camelCase(_ identifier: String, capitalizeFirst: Bool) -> String {
        let parts = identifier.split(whereSeparator: { $0 == "." || $0 == "-" || $0 == "_" }).map(String.init)
        var name = ""
        for (index, part) in parts.enumerated() {
            if index == 0 && !capitalizeFirst {
                name += part
            } else {
                name += part.prefix(1).uppercased() + part.dropFirst()
            }
        }
        if name.isEmpty { name = "_" }
        if let first = name.unicodeScalars.first, ("0"..."9").contains(first) { name = "_" + name }
        return name
    }

    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// Swift's reserved words, and the names that must be escaped as members or types.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do",
        "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "Type",
        "Protocol", "some", "any",
    ]
}
