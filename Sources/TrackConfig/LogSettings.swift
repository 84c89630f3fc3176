import Yams

/// The keys of the `log:` section: each with its meaning, unit and the values it takes.
enum LogSettings {
    /// One key.
    struct Setting: Sendable {
        let key: String
        let summary: String
        let apply: @Sendable (inout LogConfiguration, Node, EngineSettings.ValueContext) throws(ConfigurationError) -> Void
    }

    static let all: [Setting] = [
        number("commit_interval", \.commitInterval, 1...600, "s",
               "while the vehicle moves, track points are committed this often (once it stands, at once)"),
        number("resume_within", \.resumeWithin, 0...3600, "s",
               "a trip cut by a power loss is resumed if trackd is back within this time, otherwise closed"),
        Setting(key: "exports", summary: "refresh the month's CSV and GPX in exports/ after each trip") {
            configuration, node, context throws(ConfigurationError) in
            guard let value = node.bool else {
                throw .badValue(path: context.path, line: node.mark?.line, key: context.key, value: node.string ?? "?",
                                expected: "true or false")
            }
            configuration.exports = value
        },
    ]

    static var keys: [String] { all.map(\.key) }

    private static func number(
        _ key: String, _ path: WritableKeyPath<LogConfiguration, Double> & Sendable, _ range: ClosedRange<Double>,
        _ unit: String, _ summary: String
    ) -> Setting {
        Setting(key: key, summary: summary) { configuration, node, context throws(ConfigurationError) in
            guard let value = node.float, value.isFinite, range.contains(value) else {
                throw .badValue(path: context.path, line: node.mark?.line, key: key, value: node.string ?? "?",
                                expected: "a number from \(range.lowerBound.plain) to \(range.upperBound.plain) (\(unit))")
            }
            configuration[keyPath: path] = value
        }
    }
}
