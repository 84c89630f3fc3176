import Yams

/// One key of a configuration section: its name, what it means, and how its value is checked and applied to the
/// section's configuration (`Root`).
struct Setting<Root>: Sendable {
    let key: String
    let summary: String
    let apply: @Sendable (inout Root, Node, Context) throws(ConfigurationError) -> Void

    /// Where a value comes from, for error messages.
    struct Context: Sendable {
        let path: String
        let key: String
    }

    /// A number in `range`, in `unit` (empty for none).
    static func number(
        _ key: String, _ field: WritableKeyPath<Root, Double> & Sendable, _ range: ClosedRange<Double>,
        _ unit: String, _ summary: String
    ) -> Setting {
        Setting(key: key, summary: summary) { configuration, node, context throws(ConfigurationError) in
            guard let value = node.float, value.isFinite, range.contains(value) else {
                throw .badValue(path: context.path, line: node.mark?.line, key: key, value: node.string ?? "?",
                                expected: "a number from \(range.lowerBound.plain) to \(range.upperBound.plain)"
                                    + (unit.isEmpty ? "" : " (\(unit))"))
            }
            configuration[keyPath: field] = value
        }
    }

    /// A whole number in `range`.
    static func integer(
        _ key: String, _ field: WritableKeyPath<Root, Int> & Sendable, _ range: ClosedRange<Int>, _ summary: String
    ) -> Setting {
        Setting(key: key, summary: summary) { configuration, node, context throws(ConfigurationError) in
            guard let value = node.int, range.contains(value) else {
                throw .badValue(path: context.path, line: node.mark?.line, key: key, value: node.string ?? "?",
                                expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            configuration[keyPath: field] = value
        }
    }

    /// `true` or `false`.
    static func flag(_ key: String, _ field: WritableKeyPath<Root, Bool> & Sendable, _ summary: String) -> Setting {
        Setting(key: key, summary: summary) { configuration, node, context throws(ConfigurationError) in
            guard let value = node.bool else {
                throw .badValue(path: context.path, line: node.mark?.line, key: key, value: node.string ?? "?",
                                expected: "true or false")
            }
            configuration[keyPath: field] = value
        }
    }

    /// One of the raw values of `Value`.
    static func choice<Value: RawRepresentable & CaseIterable>(
        _ key: String, _ field: WritableKeyPath<Root, Value> & Sendable, _ summary: String
    ) -> Setting where Value.RawValue == String {
        Setting(key: key, summary: summary) { configuration, node, context throws(ConfigurationError) in
            guard let text = node.string, let value = Value(rawValue: text) else {
                throw .badValue(path: context.path, line: node.mark?.line, key: key, value: node.string ?? "?",
                                expected: "one of " + Value.allCases.map(\.rawValue).joined(separator: ", "))
            }
            configuration[keyPath: field] = value
        }
    }

    /// Applies the keys of a section's mapping to `configuration`; an empty section keeps every default.
    static func section(_ node: Node, named name: String, settings: [Setting], into configuration: inout Root,
                        path: String) throws(ConfigurationError) {
        if case .scalar(let scalar) = node, scalar.string.isEmpty || scalar.string == "~" { return }
        guard case .mapping(let mapping) = node else { throw .notAMapping(path: path, line: node.mark?.line, key: name) }
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            guard let setting = settings.first(where: { $0.key == key }) else {
                throw .unknownKey(path: path, line: keyNode.mark?.line, key: key, known: settings.map(\.key))
            }
            try setting.apply(&configuration, value, Context(path: path, key: key))
        }
    }
}

extension Double {
    /// `7200` rather than `7200.0`.
    var plain: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
