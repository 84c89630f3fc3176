/// A node of a YAML document as `YAMLComposer` builds it from libyaml's events: text, a list, or keys and values in
/// the order the file gives them, each with where it starts. Aliases are already replaced by the node their anchor
/// names, so a tree holds no alias.
enum YAMLNode: Sendable, Equatable {
    /// Text: `5`, `"5"`, `Europe/Tallinn`, `|` blocks; its style tells a quoted `"5"` from a plain `5`.
    case scalar(Scalar)
    /// A list (`- a` lines or `[a, b]`).
    case sequence([YAMLNode], mark: Mark)
    /// Keys and their values, in document order (`a: 1` lines or `{a: 1}`).
    case mapping([(key: YAMLNode, value: YAMLNode)], mark: Mark)

    /// Where a node starts in the text: 1-based line and column (the column counts characters).
    struct Mark: Sendable, Hashable, CustomStringConvertible {
        /// The line, the first being 1.
        let line: Int
        /// The column, the first being 1.
        let column: Int

        var description: String { "line \(line), column \(column)" }
    }

    /// Where the node starts: for a block mapping, its first key.
    var mark: Mark {
        switch self {
        case .scalar(let scalar): scalar.mark
        case .sequence(_, let mark), .mapping(_, let mark): mark
        }
    }

    /// The scalar, if the node is one.
    var scalar: Scalar? {
        if case .scalar(let scalar) = self { scalar } else { nil }
    }

    /// The text of a scalar, whatever its style; `nil` for a list or a mapping.
    var string: String? { scalar?.text }

    static func == (a: YAMLNode, b: YAMLNode) -> Bool {
        switch (a, b) {
        case (.scalar(let x), .scalar(let y)):
            return x == y
        case (.sequence(let x, let xMark), .sequence(let y, let yMark)):
            return xMark == yMark && x == y
        case (.mapping(let x, let xMark), .mapping(let y, let yMark)):
            return xMark == yMark && x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default:
            return false
        }
    }
}
