import CYAML

/// Builds the node tree of a YAML text from libyaml's parser events (`yaml_parser_parse`): one document, aliases
/// replaced by the nodes their anchors name, keys unique within each mapping.
struct YAMLComposer {
    /// How deep lists and mappings may nest (trackd's configuration needs three levels); deeper text is refused
    /// rather than built, so that neither building nor freeing a tree can run out of stack.
    static let depthLimit = 64

    /// The root node of the one document in `text`; `nil` when the text holds none (empty, or only comments).
    static func compose(_ text: String) throws(YAMLError) -> YAMLNode? {
        try compose(bytes: Array(text.utf8))
    }

    /// The root node of the one document in `bytes`, which should be UTF-8; `nil` when they hold none.
    static func compose(bytes: [UInt8]) throws(YAMLError) -> YAMLNode? {
        // A byte past the end, so that the input's address is never null (libyaml asserts it is not), even when empty.
        let storage = bytes + [0]
        return try storage.withUnsafeBufferPointer { buffer in
            Result { () throws(YAMLError) in try compose(input: UnsafeBufferPointer(rebasing: buffer.dropLast())) }
        }.get()
    }

    private static func compose(input: UnsafeBufferPointer<UInt8>) throws(YAMLError) -> YAMLNode? {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else { throw .outOfMemory }
        defer { yaml_parser_delete(parser) }
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(parser, input.baseAddress, input.count)
        var composer = YAMLComposer(parser: parser, input: input)
        return try composer.document()
    }

    private let parser: UnsafeMutablePointer<yaml_parser_t>
    /// The text the parser reads, for the line of a reader error (libyaml gives its byte offset only).
    private let input: UnsafeBufferPointer<UInt8>
    /// The nodes anchored so far by name; a later anchor of the same name replaces an earlier one.
    private var anchors: [String: YAMLNode] = [:]

    private init(parser: UnsafeMutablePointer<yaml_parser_t>, input: UnsafeBufferPointer<UInt8>) {
        self.parser = parser
        self.input = input
    }

    /// The stream's one document: its root, or `nil` for a stream without any.
    private mutating func document() throws(YAMLError) -> YAMLNode? {
        var event = try next()
        guard case .streamStart = event else { throw unexpected(event) }
        event = try next()
        switch event {
        case .streamEnd: return nil
        case .documentStart: break
        default: throw unexpected(event)
        }
        let root = try node(from: try next(), depth: 0)
        event = try next()
        guard case .documentEnd = event else { throw unexpected(event) }
        event = try next()
        switch event {
        case .streamEnd: return root
        case .documentStart(let mark): throw .anotherDocument(mark: mark)
        default: throw unexpected(event)
        }
    }

    /// The node that `event` starts, with everything inside it.
    private mutating func node(from event: Event, depth: Int) throws(YAMLError) -> YAMLNode {
        switch event {
        case .alias(let name, let mark):
            guard let node = anchors[name] else { throw .undefinedAlias(name: name, mark: mark) }
            return node
        case .scalar(let scalar, let anchor):
            return anchoring(.scalar(scalar), as: anchor)
        case .sequenceStart(let anchor, let mark):
            guard depth < Self.depthLimit else { throw .tooDeep(limit: Self.depthLimit, mark: mark) }
            var items: [YAMLNode] = []
            while true {
                let event = try next()
                if case .sequenceEnd = event { break }
                items.append(try node(from: event, depth: depth + 1))
            }
            return anchoring(.sequence(items, mark: mark), as: anchor)
        case .mappingStart(let anchor, let mark):
            guard depth < Self.depthLimit else { throw .tooDeep(limit: Self.depthLimit, mark: mark) }
            var pairs: [(key: YAMLNode, value: YAMLNode)] = []
            var firstLines: [String: Int] = [:]
            while true {
                let event = try next()
                if case .mappingEnd = event { break }
                let key = try node(from: event, depth: depth + 1)
                if let text = key.string {
                    if let first = firstLines[text] { throw .duplicateKey(key: text, mark: key.mark, firstLine: first) }
                    firstLines[text] = key.mark.line
                }
                pairs.append((key, try node(from: try next(), depth: depth + 1)))
            }
            return anchoring(.mapping(pairs, mark: mark), as: anchor)
        default:
            throw unexpected(event)
        }
    }

    private mutating func anchoring(_ node: YAMLNode, as anchor: String?) -> YAMLNode {
        if let anchor { anchors[anchor] = node }
        return node
    }

    /// The parser's next event, copied out of libyaml's memory, which is freed before this returns.
    private mutating func next() throws(YAMLError) -> Event {
        var event = yaml_event_t()
        defer { yaml_event_delete(&event) }
        guard yaml_parser_parse(parser, &event) == 1 else { throw parserError() }
        let mark = YAMLNode.Mark(event.start_mark)
        switch event.type {
        case YAML_STREAM_START_EVENT:
            return .streamStart
        case YAML_STREAM_END_EVENT:
            return .streamEnd
        case YAML_DOCUMENT_START_EVENT:
            return .documentStart(mark)
        case YAML_DOCUMENT_END_EVENT:
            return .documentEnd
        case YAML_ALIAS_EVENT:
            return .alias(Self.string(event.data.alias.anchor) ?? "", mark)
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            let text = String(decoding: UnsafeBufferPointer(start: data.value, count: data.length), as: UTF8.self)
            let scalar = YAMLNode.Scalar(text: text, style: YAMLNode.Scalar.Style(data.style), tag: Self.string(data.tag),
                                         mark: mark)
            return .scalar(scalar, anchor: Self.string(data.anchor))
        case YAML_SEQUENCE_START_EVENT:
            return .sequenceStart(anchor: Self.string(event.data.sequence_start.anchor), mark)
        case YAML_SEQUENCE_END_EVENT:
            return .sequenceEnd
        case YAML_MAPPING_START_EVENT:
            return .mappingStart(anchor: Self.string(event.data.mapping_start.anchor), mark)
        case YAML_MAPPING_END_EVENT:
            return .mappingEnd
        default:
            // YAML_NO_EVENT: what libyaml returns once it has stopped; never reached, as the first error ends composing.
            throw .malformed(problem: "the parser gave no event", mark: mark, context: nil)
        }
    }

    /// The parser's error, after `yaml_parser_parse` failed.
    private func parserError() -> YAMLError {
        let problem = parser.pointee.problem.map { String(cString: $0) } ?? "unknown problem"
        switch parser.pointee.error {
        case YAML_MEMORY_ERROR:
            return .outOfMemory
        case YAML_READER_ERROR:
            return .unreadable(problem: problem + Self.naming(Int(parser.pointee.problem_value), in: problem),
                               mark: mark(atOffset: parser.pointee.problem_offset))
        default:
            // YAML_SCANNER_ERROR and YAML_PARSER_ERROR; the event parser raises no other.
            return .malformed(problem: problem, mark: YAMLNode.Mark(parser.pointee.problem_mark),
                              context: parser.pointee.context.map { String(cString: $0) })
        }
    }

    /// The byte (of a bad UTF-8 sequence) or the character (a control character) a reader error is about, as
    /// ` (byte 0xFF)` or ` (U+0007)`; empty when libyaml names none (-1).
    private static func naming(_ value: Int, in problem: String) -> String {
        guard value >= 0 else { return "" }
        let hex = String(value, radix: 16, uppercase: true)
        if problem.contains("octet") { return " (byte 0x\(hex))" }
        return " (U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex))"
    }

    /// The line and column of the byte at `offset` of the input.
    private func mark(atOffset offset: Int) -> YAMLNode.Mark {
        let before = input.prefix(max(0, min(offset, input.count)))
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? before.startIndex
        let characters = before[lineStart...].count { $0 & 0xC0 != 0x80 }  // UTF-8 lead bytes: one per character
        return YAMLNode.Mark(line: before.count { $0 == UInt8(ascii: "\n") } + 1, column: characters + 1)
    }

    private func unexpected(_ event: Event) -> YAMLError {
        .malformed(problem: "unexpected parser event \(event)", mark: YAMLNode.Mark(parser.pointee.mark), context: nil)
    }

    /// A string libyaml holds (an anchor, a tag), `nil` for none.
    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    /// One of libyaml's events, copied out of its memory.
    private enum Event {
        case streamStart, streamEnd
        case documentStart(YAMLNode.Mark), documentEnd
        case alias(String, YAMLNode.Mark)
        case scalar(YAMLNode.Scalar, anchor: String?)
        case sequenceStart(anchor: String?, YAMLNode.Mark), sequenceEnd
        case mappingStart(anchor: String?, YAMLNode.Mark), mappingEnd
    }
}

private extension YAMLNode.Mark {
    /// libyaml's 0-based place, 1-based.
    init(_ mark: yaml_mark_t) {
        self.init(line: mark.line + 1, column: mark.column + 1)
    }
}

private extension YAMLNode.Scalar.Style {
    init(_ style: yaml_scalar_style_t) {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: self = .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: self = .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: self = .literal
        case YAML_FOLDED_SCALAR_STYLE: self = .folded
        default: self = .plain  // YAML_PLAIN_SCALAR_STYLE; the parser gives no YAML_ANY_SCALAR_STYLE
        }
    }
}
