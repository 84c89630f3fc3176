import Foundation
import Testing

/// The page's words in its three languages (web/i18n.js): every English text of the page (index.html's text and
/// attributes, each `t('…')` of its modules) has its German and Estonian, with the same placeholders, and no table
/// keeps a text the page no longer has.
struct WebTextsTests {
    static let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("web")

    @Test(arguments: ["de", "et"])
    func everyTextOfThePageIsInTheTableWithItsPlaceholdersAndNoOtherText(language: String) throws {
        let english = try Self.englishTexts()
        #expect(english.count > 300, "the page's texts were found: \(english.count)")
        let table = try Self.table(language)
        let missing = english.filter { table[$0] == nil }
        #expect(missing.isEmpty, "texts-\(language).js lacks \(missing.count): \(missing.sorted())")
        let stale = table.keys.filter { !english.contains($0) }
        #expect(stale.isEmpty, "texts-\(language).js has texts the page does not: \(stale.sorted())")
        for (key, value) in table {
            #expect(!value.trimmingCharacters(in: .whitespaces).isEmpty, "\(language): '\(key)' is empty")
            #expect(Self.placeholders(value) == Self.placeholders(key), "\(language): '\(key)' → '\(value)'")
        }
    }

    @Test func everyCallOfTheTextFunctionNamesItsTextLiterally() throws {
        // A text passed as a variable could not be found here, nor by a translator.
        for file in try Self.modules() {
            let source = try String(contentsOf: Self.web.appendingPathComponent(file), encoding: .utf8)
            for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") || code.hasPrefix("function t(") { continue }
                for match in line.matches(of: /(?:^|[^\w.$])t\((?!\s*')/) {
                    Issue.record("\(file): t( without a text literal: \(line[match.range.lowerBound...].prefix(60))")
                }
            }
        }
    }

    @Test func theServiceWorkersRefusalsAreTextsOfThePage() throws {
        let english = try Self.englishTexts()
        let worker = try String(contentsOf: Self.web.appendingPathComponent("sw.js"), encoding: .utf8)
        let refusals = worker.matches(of: /outOfReach\('((?:[^'\\]|\\.)*)'\)/).map { Self.unescaped($0.1) }
        #expect(refusals.count == 2)
        for refusal in refusals { #expect(english.contains(refusal), "\(refusal)") }
    }

    /// The page's modules that speak to a person (not the tables, the language module or the service worker).
    static func modules() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: web.path)
            .filter { $0.hasSuffix(".js") && !$0.hasPrefix("texts-") && $0 != "i18n.js" && $0 != "sw.js" }.sorted()
    }

    /// Every English text of the page: index.html's and the modules' `t('…')`.
    static func englishTexts() throws -> Set<String> {
        var texts = try htmlTexts(String(contentsOf: web.appendingPathComponent("index.html"), encoding: .utf8))
        for file in try modules() {
            let source = try String(contentsOf: web.appendingPathComponent(file), encoding: .utf8)
            for match in source.matches(of: /(?:^|[^\w.$])t\(\s*'((?:[^'\\]|\\.)*)'/) { texts.insert(unescaped(match.1)) }
        }
        return texts
    }

    /// A table of web/texts-XX.js: `export default ` and a JSON object.
    static func table(_ language: String) throws -> [String: String] {
        let source = try String(contentsOf: web.appendingPathComponent("texts-\(language).js"), encoding: .utf8)
        guard let start = source.range(of: "export default {")?.upperBound, let end = source.range(of: "}", options: .backwards)
        else { throw TableError.notATable(language) }
        let json = "{" + source[start..<end.lowerBound] + "}"
        return try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
    }

    enum TableError: Error { case notATable(String) }

    /// The texts index.html shows, as the page's `translate` finds them: each text node with a letter (trimmed), and
    /// the placeholder, aria-label, title and alt attributes; not inside script, style, datalist or title, nor an
    /// element with data-unit or translate="no".
    static func htmlTexts(_ html: String) -> Set<String> {
        var texts = Set<String>()
        var open: [(name: String, skip: Bool)] = []  // the elements open at this point
        let void: Set<String> = ["meta", "link", "input", "img", "br", "hr", "source", "area", "wbr"]
        var rest = html[...]
        while !rest.isEmpty {
            guard let start = rest.firstIndex(of: "<") else { break }
            let inSkipped = open.contains { $0.skip }
            let text = decoded(String(rest[..<start])).trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty, text.contains(where: \.isLetter), !inSkipped { texts.insert(text) }
            guard let close = rest[start...].firstIndex(of: ">") else { break }
            let tag = rest[rest.index(after: start)..<close]
            rest = rest[rest.index(after: close)...]
            if tag.hasPrefix("!") { continue }
            if tag.hasPrefix("/") {
                let name = tag.dropFirst().lowercased()
                if open.contains(where: { $0.name == name }) { while let last = open.popLast(), last.name != name {} }
                continue
            }
            let name = String(tag.prefix { !$0.isWhitespace && $0 != "/" }).lowercased()
            let skip = ["script", "style", "datalist", "title"].contains(name) || tag.contains("data-unit")
                || tag.contains("translate=\"no\"")
            if !skip && !inSkipped {
                for match in tag.matches(of: /(placeholder|aria-label|title|alt)="([^"]*)"/) {
                    let value = decoded(String(match.2))
                    if value.contains(where: \.isLetter) { texts.insert(value) }
                }
            }
            if !void.contains(name) && !tag.hasSuffix("/") { open.append((name, skip)) }
        }
        return texts
    }

    static func decoded(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }

    static func unescaped(_ literal: Substring) -> String {
        var out = ""
        var escaping = false
        for character in literal {
            if escaping { out.append(character == "n" ? "\n" : character); escaping = false }
            else if character == "\\" { escaping = true }
            else { out.append(character) }
        }
        return out
    }

    static func placeholders(_ text: String) -> [String] {
        text.matches(of: /\{(\w+)\}/).map { String($0.1) }.sorted()
    }
}
