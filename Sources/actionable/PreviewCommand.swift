import ActionableCore
import ActionablePreview
import ArgumentParser
import Foundation

/// `actionable preview`: the catalog drawn as iOS draws its notifications' buttons, as one
/// static HTML file (the same preview as the admin page), for design review in pull requests.
struct PreviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Write the catalog's preview (each category's buttons as iOS draws them, in each locale) as one HTML file.",
        discussion: """
            actionable preview Categories --output preview.html
            A catalog with lint errors is refused (exit 1), as by serve.
            """
    )

    @Argument(help: "The directory of category files.") var path = "Categories"
    @Option(help: "The HTML file to write (- for standard output).") var output: String

    func run() async throws {
        let catalog = try loadCheckedCatalog(path)
        let html = try PreviewRenderer().page(catalog)
        if output == "-" {
            print(html)
            return
        }
        do {
            try html.write(toFile: output, atomically: true, encoding: .utf8)
        } catch {
            throw refuse("cannot write \(output): \(error.localizedDescription)")
        }
        FileHandle.standardError.write(Data("wrote \(output): \(catalog.categories.count) categories\n".utf8))
    }
}
