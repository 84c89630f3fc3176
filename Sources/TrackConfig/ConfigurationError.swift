/// A configuration file that cannot be used, with what to change and where.
public enum ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    case cannotRead(path: String, reason: String)
    case syntax(path: String, line: Int?, message: String)
    case unknownKey(path: String, line: Int?, key: String, known: [String])
    case badValue(path: String, line: Int?, key: String, value: String, expected: String)
    case notAMapping(path: String, line: Int?, key: String)
    /// Two settings that cannot hold together (`stopped_speed` not below `moving_speed`): the rule they break.
    case contradiction(path: String, line: Int?, rule: String)
    /// The alert command's program cannot be run: why, and how to write it.
    case unusableProgram(path: String, line: Int?, key: String, program: String, reason: String)

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason):
            return "cannot read the configuration \(path): \(reason)"
        case .syntax(let path, let line, let message):
            return "\(ConfigurationError.place(path, line)): not valid YAML: \(message)"
        case .unknownKey(let path, let line, let key, let known):
            let close = known.filter { ConfigurationError.similar($0, key) }
            let hint = close.isEmpty ? "known keys: \(known.joined(separator: ", "))" : "did you mean \(close.joined(separator: " or "))?"
            return "\(ConfigurationError.place(path, line)): unknown key '\(key)'; \(hint)"
        case .badValue(let path, let line, let key, let value, let expected):
            return "\(ConfigurationError.place(path, line)): '\(key)' cannot be '\(value)': expected \(expected)"
        case .notAMapping(let path, let line, let key):
            return "\(ConfigurationError.place(path, line)): '\(key)' must hold keys and values (a mapping)"
        case .contradiction(let path, let line, let rule):
            return "\(ConfigurationError.place(path, line)): \(rule)"
        case .unusableProgram(let path, let line, let key, let program, let reason):
            return "\(ConfigurationError.place(path, line)): '\(key)' names \(program), which \(reason)"
        }
    }

    private static func place(_ path: String, _ line: Int?) -> String {
        line.map { "\(path):\($0)" } ?? path
    }

    /// Keys that differ by a letter or two, or by `-` for `_`.
    private static func similar(_ a: String, _ b: String) -> Bool {
        let x = a.map { $0 == "-" ? "_" : $0 }
        let y = b.map { $0 == "-" ? "_" : $0 }
        if x == y { return true }
        guard abs(x.count - y.count) <= 2 else { return false }
        var row = Array(0...y.count)
        for i in 1...x.count {
            var previous = row[0]
            row[0] = i
            for j in 1...max(y.count, 1) where j <= y.count {
                let old = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (x[i - 1] == y[j - 1] ? 0 : 1))
                previous = old
            }
        }
        return row[y.count] <= 2
    }
}
