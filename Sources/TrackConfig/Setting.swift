/// One key of a configuration section: its name, what it means, and how its value is checked and applied to the
/// section's configuration (`Root`).
struct Setting<Root>: Sendable {
    let key: String
    let summary: String
    let apply: @Sendable (inout Root, YAMLNode, Context) throws(ConfigurationError) -> Void
    /// Whether two configurations differ in this setting; `nil` where the setting cannot tell.
    var differs: (@Sendable (Root, Root) -> Bool)?

    init(key: String, summary: String, differs: (@Sendable (Root, Root) -> Bool)? = nil,
         apply: @escaping @Sendable (inout Root, YAMLNode, Context) throws(ConfigurationError) -> Void) {
        self.key = key
        self.summary = summary
        self.differs = differs
        self.apply = apply
    }

    /// Where a value comes from, for error messages.
    struct Context: Sendable {
        let path: String
        let key: String
    }

    /// A number in `range`, in `unit` (empty for none).
    static func number(
        _ key: String, _ field: any WritableKeyPath<Root, Double> & Sendable, _ range: ClosedRange<Double>,
        _ unit: String, _ summary: String
    ) -> Setting {
        Setting(key: key, summary: summary, differs: { $0[keyPath: field] != $1[keyPath: field] }) { configuration, node, context throws(ConfigurationError) in
            guard let value = node.scalar?.double, value.isFinite, range.contains(value) else {
                throw .badValue(path: context.path, line: node.mark.line, key: key, value: node.string ?? "?",
                                expected: "a number from \(range.lowerBound.plain) to \(range.upperBound.plain)"
                                    + (unit.isEmpty ? "" : " (\(unit))"))
            }
            configuration[keyPath: field] = value
        }
    }

    /// A whole number in `range`.
    static func integer(
        _ key: String, _ field: any WritableKeyPath<Root, Int> & Sendable, _ range: ClosedRange<Int>, _ summary: String
    ) -> Setting {
        Setting(key: key, summary: summary, differs: { $0[keyPath: field] != $1[keyPath: field] }) { configuration, node, context throws(ConfigurationError) in
            guard let value = node.scalar?.int, range.contains(value) else {
                throw .badValue(path: context.path, line: node.mark.line, key: key, value: node.string ?? "?",
                                expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            configuration[keyPath: field] = value
        }
    }

    /// `true` or `false`.
    static func flag(_ key: String, _ field: any WritableKeyPath<Root, Bool> & Sendable, _ summary: String) -> Setting {
        Setting(key: key, summary: summary, differs: { $0[keyPath: field] != $1[keyPath: field] }) { configuration, node, context throws(ConfigurationError) in
            guard let value = node.scalar?.bool else {
                throw .badValue(path: context.path, line: node.mark.line, key: key, value: node.string ?? "?",
                                expected: "true or false")
            }
            configuration[keyPath: field] = value
        }
    }

    /// One of the raw values of `Value`.
    static func choice<Value: RawRepresentable & CaseIterable & Sendable>(
        _ key: String, _ field: any WritableKeyPath<Root, Value> & Sendable, _ summary: String
    ) -> Setting where Value.RawValue == String {
        Setting(key: key, summary: summary, differs: { $0[keyPath: field] != $1[keyPath: field] }) { configuration, node, context throws(ConfigurationError) in
            guard let text = node.string, let value = Value(rawValue: text) else {
                throw .badValue(path: context.path, line: node.mark.line, key: key, value: node.string ?? "?",
                                expected: "one of " + Value.allCases.map(\.rawValue).joined(separator: ", "))
            }
            configuration[keyPath: field] = value
        }
    }

    /// A text value turned into `Value` by `parse`, which says what was expected when it cannot.
    static func parsed<Value>(
        _ key: String, _ field: any WritableKeyPath<Root, Value?> & Sendable, _ summary: String,
        _ parse: @escaping @Sendable (String) -> Result<Value, ExpectedValue>
    ) -> Setting {
        Setting(key: key, summary: summary) { configuration, node, context throws(ConfigurationError) in
            guard case .scalar(let scalar) = node else {
                throw .badValue(path: context.path, line: node.mark.line, key: key, value: "(a list or mapping)",
                                expected: "a single value")
            }
            switch parse(scalar.text) {
            case .success(let value): configuration[keyPath: field] = value
            case .failure(let expected):
                throw .badValue(path: context.path, line: node.mark.line, key: key, value: scalar.text,
                                expected: expected.description)
            }
        }
    }

    /// Text that `check` accepts (it returns what was expected, or `nil` for a good value).
    static func text(
        _ key: String, _ field: any WritableKeyPath<Root, String?> & Sendable, _ summary: String,
        check: @escaping @Sendable (String) -> String? = { $0.isEmpty ? "some text" : nil }
    ) -> Setting {
        parsed(key, field, summary) { text in
            check(text).map { .failure(ExpectedValue($0)) } ?? .success(text)
        }
    }

    /// A number in `range`, left `nil` when not given.
    static func number(
        _ key: String, _ field: any WritableKeyPath<Root, Double?> & Sendable, _ range: ClosedRange<Double>,
        _ unit: String, _ summary: String
    ) -> Setting {
        parsed(key, field, summary) { text in
            guard let value = Double(text), value.isFinite, range.contains(value) else {
                return .failure(ExpectedValue("a number from \(range.lowerBound.plain) to \(range.upperBound.plain)"
                                              + (unit.isEmpty ? "" : " (\(unit))")))
            }
            return .success(value)
        }
    }

    /// One of the raw values of `Value`, left `nil` when not given.
    static func choice<Value: RawRepresentable & CaseIterable & Sendable>(
        _ key: String, _ field: any WritableKeyPath<Root, Value?> & Sendable, _ summary: String
    ) -> Setting where Value.RawValue == String {
        parsed(key, field, summary) { text in
            Value(rawValue: text).map { .success($0) }
                ?? .failure(ExpectedValue("one of " + Value.allCases.map(\.rawValue).joined(separator: ", ")))
        }
    }

    /// One value or a list of them (`key: a`, `key: [a, b]`), each turned into `Value` by `parse`, which says what
    /// was expected of an item when it cannot; `example` says the whole shape. An empty list is refused with
    /// `whenEmpty` when given, else taken.
    static func list<Value: Equatable & Sendable>(
        _ key: String, _ field: any WritableKeyPath<Root, [Value]> & Sendable, _ summary: String, item: String,
        example: String, whenEmpty: String? = nil, _ parse: @escaping @Sendable (String) -> Result<Value, ExpectedValue>
    ) -> Setting {
        Setting(key: key, summary: summary, differs: { $0[keyPath: field] != $1[keyPath: field] }) { configuration, node, context throws(ConfigurationError) in
            var scalars: [YAMLNode.Scalar] = []
            switch node {
            case .scalar(let scalar): scalars = [scalar]
            case .sequence(let sequence, _):
                for item in sequence {
                    guard case .scalar(let scalar) = item else {
                        throw .badValue(path: context.path, line: item.mark.line, key: key, value: "(a list or mapping)",
                                        expected: "\(item) for each item")
                    }
                    scalars.append(scalar)
                }
            default:
                throw .badValue(path: context.path, line: node.mark.line, key: key, value: "(a mapping)", expected: example)
            }
            if scalars.isEmpty, let whenEmpty {
                throw .badValue(path: context.path, line: node.mark.line, key: key, value: "[]", expected: whenEmpty)
            }
            var values: [Value] = []
            for scalar in scalars {
                switch parse(scalar.text) {
                case .success(let value): values.append(value)
                case .failure(let expected):
                    throw .badValue(path: context.path, line: scalar.mark.line, key: key, value: scalar.text,
                                    expected: expected.description)
                }
            }
            configuration[keyPath: field] = values
        }
    }

    /// A program to run, never through a shell: an absolute path, or a list of the path and its arguments.
    static func command(_ key: String, _ field: any WritableKeyPath<Root, [String]?> & Sendable, _ summary: String) -> Setting {
        Setting(key: key, summary: summary) { configuration, node, context throws(ConfigurationError) in
            var words: [String] = []
            switch node {
            case .scalar(let scalar):
                words = scalar.text.isEmpty ? [] : [scalar.text]
            case .sequence(let sequence, _):
                for item in sequence {
                    guard case .scalar(let scalar) = item else {
                        throw .badValue(path: context.path, line: item.mark.line, key: key, value: "(a list or mapping)",
                                        expected: "text for each argument")
                    }
                    words.append(scalar.text)
                }
            default:
                throw .badValue(path: context.path, line: node.mark.line, key: key, value: "(a mapping)",
                                expected: "a program's absolute path, or a list: [\"/usr/local/bin/beep\", \"-r\", \"3\"]")
            }
            if let program = words.first, !program.hasPrefix("/") {
                throw .badValue(path: context.path, line: node.mark.line, key: key, value: program,
                                expected: "the program's absolute path (it is run directly, not through a shell)")
            }
            configuration[keyPath: field] = words
        }
    }

    /// Applies the keys of a section's mapping to `configuration`; an empty section keeps every default.
    static func section(_ node: YAMLNode, named name: String, settings: [Setting], into configuration: inout Root,
                        path: String) throws(ConfigurationError) {
        if case .scalar(let scalar) = node, scalar.text.isEmpty || scalar.text == "~" { return }
        guard case .mapping(let mapping, _) = node else { throw .notAMapping(path: path, line: node.mark.line, key: name) }
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            guard let setting = settings.first(where: { $0.key == key }) else {
                throw .unknownKey(path: path, line: keyNode.mark.line, key: key, known: settings.map(\.key))
            }
            try setting.apply(&configuration, value, Context(path: path, key: key))
        }
    }
}

/// What a setting expected instead of the value it was given ("a number from 1 to 600 (s)").
struct ExpectedValue: Error, Sendable, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

extension Double {
    /// `7200` rather than `7200.0`.
    var plain: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
