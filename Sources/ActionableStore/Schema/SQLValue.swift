/// A statement parameter, as the drivers bind it: the tables' value lists (`EndpointTable`,
/// `SendTable`) are written once, in this form, and each driver binds them its own way.
package enum SQLValue: Hashable, Sendable {
    case text(String)
    case real(Double)
    case integer(Int)
    case null

    static func optionalText(_ text: String?) -> SQLValue { text.map { .text($0) } ?? .null }
    static func optionalReal(_ number: Double?) -> SQLValue { number.map { .real($0) } ?? .null }
    static func optionalInteger(_ number: Int?) -> SQLValue { number.map { .integer($0) } ?? .null }
}
