import Foundation
import Hummingbird

/// The admin page's form bodies (`application/x-www-form-urlencoded`), read with Hummingbird's
/// `URLEncodedFormDecoder`, which throws on what it cannot read: any byte sequence gives either
/// the form's fields or a 400 problem document, never a trap. (Foundation's
/// `URLComponents.percentEncodedQuery` setter, used before, stops the process on a raw `%`,
/// a space or a non-ASCII byte.) The fuzz target `fuzz-admin-form` feeds it arbitrary bytes.
enum AdminForm {
    /// The largest form body read, in bytes; the admin page's forms hold one or two short fields.
    static let maximumSize = 8 * 1024

    /// The fields of `request`'s form body: 413 past ``maximumSize``, 400 when it is not a
    /// form of plain `name=value` pairs (a bad escape, a repeated name, a nested name) or has a
    /// field other than `names`.
    static func fields(of request: Request, allowing names: Set<String>) async throws -> [String: String] {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maximumSize)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw Problem(.bodyTooLarge, "the form is over \(maximumSize) bytes, the limit for admin forms")
        } catch {
            throw JSONRequestReader.incompleteBody
        }
        let fields = try fields(String(decoding: body.readableBytesView, as: UTF8.self))
        if let unknown = fields.keys.sorted().first(where: { !names.contains($0) }) {
            throw Problem(
                .invalidForm,
                "the form has a field \"\(unknown.prefix(64))\" this page's forms never send; they send "
                    + names.sorted().joined(separator: ", "))
        }
        return fields
    }

    /// The fields of a form body given as text.
    static func fields(_ text: String) throws(Problem) -> [String: String] {
        do {
            return try URLEncodedFormDecoder().decode([String: String].self, from: text)
        } catch {
            throw Problem(
                .invalidForm,
                "the body is not an application/x-www-form-urlencoded form of name=value pairs with valid %XX escapes, each name once")
        }
    }
}
