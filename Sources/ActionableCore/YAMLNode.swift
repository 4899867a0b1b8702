/// A node of a category file: what the decoder reads. Composed by ``YAMLComposer`` straight from
/// libYAML's events, with the position of every node; aliases are resolved to the node their
/// anchor names (shared, not copied).
enum YAMLNode {
    /// A position: line and column from 1, columns counted in Unicode scalars (as libYAML does).
    struct Mark: Hashable {
        var line: Int
        var column: Int
    }

    /// A scalar's text, whether it was written plain (unquoted, not a block), and where it starts.
    struct Scalar {
        var string: String
        var isPlain: Bool
        var mark: Mark
    }

    case scalar(Scalar)
    /// Key-value pairs in file order; the composer has refused duplicate scalar keys.
    case mapping([(key: YAMLNode, value: YAMLNode)], Mark)
    case sequence([YAMLNode], Mark)

    /// Where the node starts.
    var mark: Mark {
        switch self {
        case .scalar(let scalar): return scalar.mark
        case .mapping(_, let mark), .sequence(_, let mark): return mark
        }
    }
}
