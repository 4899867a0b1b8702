public import ActionableCore
public import Mustache

/// Renders the catalog preview with swift-mustache, alone (``page(_:)``) or inside another
/// page that includes the `preview` and `style` partials.
public struct PreviewRenderer: Sendable {
    /// The templates: `style`, `preview`, `page`, and any added by the caller.
    public let library: MustacheLibrary

    /// A renderer with the preview's templates and `extra` ones (name → template).
    public init(extra: [String: String] = [:]) throws {
        var library = MustacheLibrary()
        let templates = ["style": PreviewTemplates.style, "preview": PreviewTemplates.preview, "page": PreviewTemplates.page]
        for (name, template) in templates.merging(extra, uniquingKeysWith: { $1 }) {
            try library.register(template, named: name)
        }
        self.library = library
    }

    /// The standalone HTML page of `catalog`'s preview.
    public func page(_ catalog: Catalog) -> String {
        let preview = CatalogPreview(catalog: catalog)
        return render(PageData(categories: preview.categories, count: preview.categories.count), template: "page")
    }

    /// `object` rendered with the template `name` (empty if there is no such template).
    public func render(_ object: Any, template name: String) -> String {
        library.render(object, withTemplate: name) ?? ""
    }

    private struct PageData {
        var categories: [CatalogPreview.Category]
        var count: Int
    }
}
