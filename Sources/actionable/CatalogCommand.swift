import ActionableCore
import ActionableLint
import ArgumentParser
import Foundation

/// `actionable catalog [PATH] --format json`: the normalized catalog.
struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Print the normalized catalog (defaults filled in) as JSON.",
        discussion: "Refuses (exit 1, diagnostics on standard error) a catalog with lint errors."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case json }

    @Argument(help: "A directory of category files, or one file.")
    var path: String = "Categories"

    @Option(help: "Output format (json).")
    var format: Format = .json

    func run() throws {
        let catalog = try loadCheckedCatalog(path)
        print(catalog.jsonValue.prettySerialized())
    }
}
