extension ConfigurationFile {
    /// `text` (a trackd.conf) with `section.key` set to `value`, everything else as it was: the key's line, commented
    /// out (`  # key: …`, as the package's file shows every key) or not, becomes `  key: "value"`; a key with no line
    /// gets one at the top of its section, and a section that is missing is added at the end. `nil` comments the
    /// key's line out again (its default then applies). Values are written as YAML double-quoted scalars.
    public static func setting(_ key: String, in section: String, to value: String?, in text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let written = value.map { "  \(key): \(yamlQuoted($0))" }
        guard let header = lines.firstIndex(where: { $0 == "\(section):" || $0.hasPrefix("\(section): ") || $0.hasPrefix("\(section):\t") })
        else {
            guard let written else { return text }
            if lines.last == "" { lines.removeLast() }
            lines += ["", "\(section):", written, ""]
            return lines.joined(separator: "\n")
        }
        var index = header + 1
        while index < lines.count, lines[index].isEmpty || lines[index].hasPrefix(" ") || lines[index].hasPrefix("\t") {
            let line = lines[index]
            if line.hasPrefix("  \(key):") {
                if let written { lines[index] = written } else { lines[index] = "  # " + line.dropFirst(2) }
                return lines.joined(separator: "\n")
            }
            if line.hasPrefix("  # \(key):") {
                if let written { lines[index] = written }
                return lines.joined(separator: "\n")
            }
            index += 1
        }
        guard let written else { return text }
        lines.insert(written, at: header + 1)
        return lines.joined(separator: "\n")
    }

    /// `value` as a YAML double-quoted scalar.
    static func yamlQuoted(_ value: String) -> String {
        var quoted = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": quoted += "\\\\"
            case "\"": quoted += "\\\""
            case "\t": quoted += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    quoted += "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }
}
