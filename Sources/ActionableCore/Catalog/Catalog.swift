/// Every category of an app, looked up by identifier.
///
/// Build it from a directory with ``CatalogLoader``, or from categories written in code.
public struct Catalog: Hashable, Sendable {
    /// The categories, sorted by identifier.
    public let categories: [NotificationCategory]
    private let index: [CategoryID: Int]

    /// Creates a catalog. When two categories share an identifier the first is kept (the linter
    /// reports the conflict as `duplicate_category`).
    public init(_ categories: [NotificationCategory]) {
        var seen = Set<CategoryID>()
        let unique = categories.filter { seen.insert($0.id).inserted }
        self.categories = unique.sorted { $0.id < $1.id }
        var index = [CategoryID: Int](minimumCapacity: unique.count)
        for (offset, category) in self.categories.enumerated() { index[category.id] = offset }
        self.index = index
    }

    /// The category called `id`, if declared.
    public subscript(id: CategoryID) -> NotificationCategory? {
        index[id].map { categories[$0] }
    }

    /// The closest declared category identifier to `id`, for "did you mean" messages.
    public func suggestion(for id: CategoryID) -> CategoryID? {
        Suggestion.closest(to: id.rawValue, in: categories.lazy.map(\.id.rawValue)).map { CategoryID($0) }
    }
}
