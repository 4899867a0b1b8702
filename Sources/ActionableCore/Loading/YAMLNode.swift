/// A node of a category file: what the decoder reads. Composed by ``YAMLComposer`` straight from
/// libYAML's events, with the position of every node; aliases are resolved to the node their
/// anchor names (shared, not copied).
enum YAMLNode {
    case scalar(YAMLScalar)
    /// Key-value pairs in file order; the composer has refused duplicate scalar keys.
    case mapping([YAMLPair], YAMLMark)
    case sequence([YAMLNode], YAMLMark)

    /// Where the node starts.
    var mark: YAMLMark {
        switch self {
        case .scalar(let scalar): return scalar.mark
        case .mapping(_, let mark), .sequence(_, let mark): return mark
        }
    }
}

/// One entry of a mapping.
struct YAMLPair {
    var key: YAMLNode
    var value: YAMLNode
}

/// A position: line and column from 1, columns counted in Unicode scalars (as libYAML does).
struct YAMLMark: Hashable {
    var line: Int
    var column: Int
}

/// A scalar's text, whether it was written plain (unquoted, not a block), and where it starts.
struct YAMLScalar {
    var string: String
    var isPlain: Bool
    var mark: YAMLMark
}
