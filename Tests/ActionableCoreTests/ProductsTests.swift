import ActionableTestSupport
import Foundation
import Testing

/// The table of products in docs/modules.md is the package's: every library product, with its
/// modules, and no other. The products an app uses without the server build with the `Server`
/// trait off.
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

    /// The page whose "Products" section lists the products.
    static let page = "docs/modules.md"

    /// `product → modules`, as the table of ``page``'s "Products" section lists them (up to the
    /// next section, so the modules' own table is not read as products).
    static func listedProducts() throws -> [String: [String]] {
        let text = try String(contentsOf: CommandLineRunner.repository.appendingPathComponent(Self.page), encoding: .utf8)
        let rest = try #require(text.components(separatedBy: "\n## Products\n").dropFirst().first, "\(Self.page) has no Products section")
        let section = rest.components(separatedBy: "\n## ")[0]
        var listed: [String: [String]] = [:]
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let name = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let modules = cells[1].components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            listed[name] = modules
        }
        return listed
    }

    @Test func theDocsListEveryLibraryProductWithItsModules() async throws {
        let products = try await Self.libraryProducts()
        let listed = try Self.listedProducts()
        #expect(Set(listed.keys) == Set(products.keys), "\(Self.page) lists \(listed.keys.sorted()); the package has \(products.keys.sorted())")
        for (name, modules) in products {
            // A product that holds another's modules says so ("and those of `ActionableHTTP`").
            let written = Set(listed[name] ?? []).flatMap { products[$0] != nil && $0 != name ? products[$0]! : [$0] }
            #expect(Set(written) == Set(modules), "\(name): \(Self.page) lists \(listed[name] ?? []), the package has \(modules)")
        }
        #expect(products.count <= 8, "few products: \(products.keys.sorted())")
    }
}
