import ActionableTestSupport
import Foundation
import Testing

/// The README's table of products is the package's: every library product, with its modules, and
/// no other. The products an app uses without the server build with the `Server` trait off.
struct ProductsTests {
    /// `product → modules`, as `swift package dump-package` describes the manifest.
    static func libraryProducts() async throws -> [String: [String]] {
        // A scratch path of its own: the test command's `swift test` holds the lock of `.build`.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("products-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let dump = try await CommandLineRunner.runTool(
            "swift", ["package", "--scratch-path", scratch.path, "dump-package"], in: CommandLineRunner.repository, environment: [:])
        #expect(dump.status == 0, "\(dump.stderr)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let products = try #require(manifest["products"] as? [[String: Any]])
        var libraries: [String: [String]] = [:]
        for product in products where (product["type"] as? [String: Any])?["library"] != nil {
            libraries[try #require(product["name"] as? String)] = try #require(product["targets"] as? [String])
        }
        return libraries
    }

    /// `product → modules`, as the README's table lists them.
    static func readmeProducts() throws -> [String: [String]] {
        let readme = try String(contentsOf: CommandLineRunner.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Products").dropFirst().first)
        var listed: [String: [String]] = [:]
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let name = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let modules = cells[1].components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            listed[name] = modules
        }
        return listed
    }

    @Test func theReadmeListsEveryLibraryProductWithItsModules() async throws {
        let products = try await Self.libraryProducts()
        let listed = try Self.readmeProducts()
        #expect(Set(listed.keys) == Set(products.keys), "README's products: \(listed.keys.sorted()); the package's: \(products.keys.sorted())")
        for (name, modules) in products {
            // A product that holds another's modules says so ("and those of `ActionableHTTP`").
            let written = Set(listed[name] ?? []).flatMap { products[$0] != nil && $0 != name ? products[$0]! : [$0] }
            #expect(Set(written) == Set(modules), "\(name): README lists \(listed[name] ?? []), the package has \(modules)")
        }
        #expect(products.count <= 8, "few products: \(products.keys.sorted())")
    }
}
