import Foundation

/// Finds the sentences of Swift source that go through `t(…)`: each call's string literal read as the compiler reads
/// it, its interpolations `\(…)` numbered `{0}`, `{1}`… as `Said` numbers them, so that the key found here is the key
/// trackctl looks up at run time.
struct SaidLiteralScanner {
    /// A call of `t(` whose argument is not a string literal (a key that could not be found here, nor by a
    /// translator).
    struct NotALiteral: Error, CustomStringConvertible {
        var line: Int
        var text: String
        var description: String { "line \(line): t( without a string literal: \(text)" }
    }

    private let source: [Character]
    private var index = 0

    init(_ source: String) {
        self.source = Array(source)
    }

    /// Every key of `source`'s `t("…")` calls, in order; throws at a call without a literal.
    static func keys(in source: String) throws -> [String] {
        var scanner = SaidLiteralScanner(source)
        return try scanner.keys()
    }

    private mutating func keys() throws -> [String] {
        var keys: [String] = []
        while index < source.count {
            let c = source[index]
            if c == "/" && peek(1) == "/" {
                skipLine()
            } else if c == "/" && peek(1) == "*" {
                skipBlockComment()
            } else if c == "\"" {
                _ = try literal()
            } else if c == "t" && peek(1) == "(" && !isIdentifierOrDot(before: index) && !isDeclared(at: index) {
                index += 2
                while index < source.count, source[index] == " " || source[index] == "\n" { index += 1 }
                guard index < source.count, source[index] == "\"" else {
                    throw NotALiteral(line: line(at: index), text: String(source[index..<min(index + 40, source.count)]))
                }
                keys.append(try literal())
            } else {
                index += 1
            }
        }
        return keys
    }

    /// Reads the string literal at `index` (one line, or `"""` over several) and returns its key.
    private mutating func literal() throws -> String {
        if peek(1) == "\"" && peek(2) == "\"" {
            return try multiLineLiteral()
        }
        index += 1
        let key = try body(closedByQuote: true)
        index += 1
        return key
    }

    /// The key of a literal's text from `index`: to its closing quote, or to the end of the source.
    private mutating func body(closedByQuote: Bool) throws -> String {
        var key = ""
        var count = 0
        while index < source.count, !(closedByQuote && source[index] == "\"") {
            if source[index] == "\\" {
                try escape(into: &key, count: &count)
            } else {
                key.append(source[index])
                index += 1
            }
        }
        return key
    }

    /// A `"""` literal: its lines without the closing delimiter's indentation, a line ending in `\` joined to the next.
    private mutating func multiLineLiteral() throws -> String {
        index += 3
        skipLine()
        var lines: [String] = []
        while index < source.count {
            var end = index
            while end < source.count, source[end] != "\n" { end += 1 }
            let line = String(source[index..<end])
            index = end + 1
            let indentation = line.prefix { $0 == " " }.count
            if line.dropFirst(indentation).hasPrefix("\"\"\"") {
                // Past the delimiter, on its line (the call's closing parenthesis and arguments follow).
                index = end - line.count + indentation + 3
                let text = lines.map { String($0.dropFirst(min(indentation, $0.prefix { $0 == " " }.count))) }
                    .joined(separator: "\n").replacingOccurrences(of: "\\\n", with: "")
                var inner = SaidLiteralScanner(text)
                return try inner.body(closedByQuote: false)
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// An escape in a literal: its character, or `{n}` for an interpolation (skipped to its closing parenthesis).
    private mutating func escape(into key: inout String, count: inout Int) throws {
        index += 1
        guard index < source.count else { return }
        let c = source[index]
        index += 1
        switch c {
        case "(":
            var depth = 1
            while index < source.count, depth > 0 {
                switch source[index] {
                case "(": depth += 1; index += 1
                case ")": depth -= 1; index += 1
                case "\"": _ = try literal()
                default: index += 1
                }
            }
            key += "{\(count)}"
            count += 1
        case "n": key += "\n"
        case "t": key += "\t"
        case "r": key += "\r"
        case "0": key += "\0"
        case "u":
            // \u{…}
            index += 1
            var hex = ""
            while index < source.count, source[index] != "}" { hex.append(source[index]); index += 1 }
            index += 1
            if let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) { key.unicodeScalars.append(scalar) }
        default: key.append(c)
        }
    }

    private func peek(_ offset: Int) -> Character? {
        index + offset < source.count ? source[index + offset] : nil
    }

    private func isIdentifierOrDot(before position: Int) -> Bool {
        guard position > 0 else { return false }
        let c = source[position - 1]
        return c.isLetter || c.isNumber || c == "_" || c == "."
    }

    /// Whether the `t` at `position` is the function's declaration (`func t(`), not a call.
    private func isDeclared(at position: Int) -> Bool {
        String(source[max(0, position - 5)..<position]) == "func "
    }

    private mutating func skipLine() {
        while index < source.count, source[index] != "\n" { index += 1 }
        index += 1
    }

    private mutating func skipBlockComment() {
        index += 2
        while index + 1 < source.count, !(source[index] == "*" && source[index + 1] == "/") { index += 1 }
        index += 2
    }

    private func line(at position: Int) -> Int {
        source[..<min(position, source.count)].filter { $0 == "\n" }.count + 1
    }
}
