import ActionableCore
import ActionableTokens
import Foundation
import Testing

/// The payload digests of `Tests/Vectors/payload-digests.json`, as the server computes them: the
/// same file runs in `Clients/node`'s tests, so the two implementations of `pld` cannot drift.
struct PayloadDigestVectorTests {
    struct Vector: Decodable {
        var name: String
        var schema: [String: String]
        var payload: String
        var canonical: String
        var digest: String
    }

    struct File: Decodable { var vectors: [Vector] }

    static let vectors: [Vector] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Vectors/payload-digests.json")
        return (try? JSONDecoder().decode(File.self, from: Data(contentsOf: url)).vectors) ?? []
    }()

    /// `{"$bigint": "digits"}` as the integer it names (JSON text cannot hold it for JavaScript).
    static func resolved(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let pairs):
            if pairs.count == 1, pairs[0].0 == "$bigint", case .string(let digits) = pairs[0].1, let number = Int(digits) { return .int(number) }
            return .object(pairs.map { ($0.0, resolved($0.1)) })
        case .array(let values): return .array(values.map(resolved))
        default: return value
        }
    }

    @Test func thereAreVectors() { #expect(Self.vectors.count >= 5) }

    @Test(arguments: 0..<5)
    func theServerComputesEachVector(index: Int) throws {
        let vector = try #require(Self.vectors.indices.contains(index) ? Self.vectors[index] : nil)
        let schema = PayloadSchema(
            fields: try vector.schema.sorted { $0.key < $1.key }.map { key, type in
                PayloadField(key: key, type: try #require(PayloadType(rawValue: type)))
            })
        guard case .object(let pairs) = Self.resolved(try JSONDecoder().decode(JSONValue.self, from: Data(vector.payload.utf8))) else {
            Issue.record("\(vector.name): the payload is not an object")
            return
        }
        #expect(schema.canonicalJSON(of: pairs) == vector.canonical, "\(vector.name)")
        #expect(PayloadDigest(payload: pairs, schema: schema).value == vector.digest, "\(vector.name)")
    }
}
