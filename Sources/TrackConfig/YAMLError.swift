/// Why a text is not a YAML document `YAMLComposer` can build, and where.
enum YAMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not YAML: libyaml's scanner or parser stopped at `mark` with `problem` (`did not find expected ',' or ']'`),
    /// in `context` (`while parsing a flow sequence`) when it names one.
    case malformed(problem: String, mark: YAMLNode.Mark, context: String?)
    /// Not text YAML may hold: bytes that are not UTF-8, or a character YAML does not allow (a control character).
    case unreadable(problem: String, mark: YAMLNode.Mark)
    /// An alias (`*name`) before or without its anchor (`&name`).
    case undefinedAlias(name: String, mark: YAMLNode.Mark)
    /// A key a mapping already has, at `mark`; the first is on `firstLine`.
    case duplicateKey(key: String, mark: YAMLNode.Mark, firstLine: Int)
    /// A second document (`---`) where one was expected.
    case anotherDocument(mark: YAMLNode.Mark)
    /// Lists and mappings nested deeper than `limit`.
    case tooDeep(limit: Int, mark: YAMLNode.Mark)
    /// libyaml could not allocate memory.
    case outOfMemory

    /// Where the problem is, when known.
    var mark: YAMLNode.Mark? {
        switch self {
        case .malformed(_, let mark, _), .unreadable(_, let mark), .undefinedAlias(_, let mark),
             .duplicateKey(_, let mark, _), .anotherDocument(let mark), .tooDeep(_, let mark):
            mark
        case .outOfMemory:
            nil
        }
    }

    /// The problem without its place: libyaml's own words for text that is not YAML.
    var summary: String {
        switch self {
        case .malformed(let problem, _, _), .unreadable(let problem, _):
            problem
        case .undefinedAlias(let name, _):
            "the alias *\(name) names no anchor &\(name) before it"
        case .duplicateKey(let key, _, let firstLine):
            "the key '\(key)' is given twice (first on line \(firstLine)); keep one"
        case .anotherDocument:
            "a second document (after ---) where the file holds one: remove the --- line or what follows it"
        case .tooDeep(let limit, _):
            "lists and mappings nested more than \(limit) deep"
        case .outOfMemory:
            "out of memory"
        }
    }

    var description: String {
        switch self {
        case .malformed(let problem, let mark, let context?):
            "\(mark): \(problem) (\(context))"
        default:
            mark.map { "\($0): \(summary)" } ?? summary
        }
    }
}
