/// The stable text of a stored record that the hash chain covers: `key=value` lines sorted by key, values in a
/// fixed format (integers in decimal, reals in Swift's shortest round-trip form, text after a `'` with `\`,
/// newline and carriage return escaped, absent values as `-`). It must never change for a record that did not change, across
/// trackd versions: a new field only ever appears in records written by the version that added it.
struct CanonicalRecord {
    private var fields: [(String, String)] = []

    init() {}

    mutating func add(_ key: String, _ value: String?) {
        fields.append((key, value.map { "'" + CanonicalRecord.escape($0) } ?? "-"))
    }

    mutating func add(_ key: String, _ value: Int64?) {
        fields.append((key, value.map { String($0) } ?? "-"))
    }

    mutating func add(_ key: String, _ value: Int?) {
        fields.append((key, value.map { String($0) } ?? "-"))
    }

    mutating func add(_ key: String, _ value: Double?) {
        fields.append((key, value.map { $0.description } ?? "-"))
    }

    /// The canonical text.
    var text: String {
        fields.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: "\n")
    }

    /// A canonical text's values by key, as written (text values still quoted and escaped).
    static func fields(of text: String) -> [String: String] {
        var values: [String: String] = [:]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return values
    }

    /// A text value as it was added (`nil` for an absent value or one that is not text).
    static func text(_ written: String?) -> String? {
        guard let written, written.first == "'" else { return nil }
        var text = ""
        var escaping = false
        for character in written.dropFirst() {
            if escaping {
                switch character {
                case "n": text.append("\n")
                case "r": text.append("\r")
                default: text.append(character)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                text.append(character)
            }
        }
        return text
    }

    /// The keys whose values differ between two canonical texts, with both values.
    static func differences(_ old: String, _ new: String) -> [(key: String, old: String?, new: String?)] {
        let before = fields(of: old)
        let after = fields(of: new)
        return Set(before.keys).union(after.keys).sorted().compactMap { key in
            before[key] == after[key] ? nil : (key, before[key], after[key])
        }
    }

    private static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\r\n": escaped += "\\r\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
