import TestSupport
import Testing
@testable import TrackConfig

/// The node tree built from libyaml's events: order, places, styles, and errors that name their line.
struct YAMLComposerTests {
    private typealias Mark = YAMLNode.Mark

    private func compose(_ text: String) throws -> YAMLNode {
        let root = try YAMLComposer.compose(text)
        return try #require(root, "no document in \(text.debugDescription)")
    }

    private func refusal(_ text: String) -> YAMLError? {
        refusal(bytes: Array(text.utf8))
    }

    private func refusal(bytes: [UInt8]) -> YAMLError? {
        do {
            _ = try YAMLComposer.compose(bytes: bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func mappingsKeepDocumentOrderAndLineNumbers() throws {
        let root = try compose("zebra: 1\napple: 2\n# a comment\nmiddle:\n  z: 3\n  a: [4]\n")
        guard case .mapping(let pairs, let mark) = root else {
            Issue.record("not a mapping: \(root)")
            return
        }
        #expect(mark == Mark(line: 1, column: 1))
        #expect(pairs.map(\.key.string) == ["zebra", "apple", "middle"])
        #expect(pairs.map(\.key.mark.line) == [1, 2, 4])
        #expect(pairs.map(\.value.mark.line) == [1, 2, 5])
        guard case .mapping(let inner, _) = pairs[2].value else {
            Issue.record("middle is not a mapping: \(pairs[2].value)")
            return
        }
        #expect(inner.map(\.key.string) == ["z", "a"])
        #expect(inner.map(\.key.mark) == [Mark(line: 5, column: 3), Mark(line: 6, column: 3)])
        #expect(inner[1].value == .sequence([.scalar(.init(text: "4", style: .plain, tag: nil, mark: Mark(line: 6, column: 7)))],
                                            mark: Mark(line: 6, column: 6)))
    }

    @Test func aSyntaxErrorNamesItsLineAndLibyamlsProblem() {
        #expect(refusal("engine:\n  max_speed: [1, 2\n")
                == .malformed(problem: "did not find expected ',' or ']'", mark: Mark(line: 3, column: 1),
                              context: "while parsing a flow sequence"))
        #expect(refusal("a: 1\nb: c: d\n")
                == .malformed(problem: "mapping values are not allowed in this context", mark: Mark(line: 2, column: 5),
                              context: nil))
    }

    @Test func quotedScalarsStayTextAndPlainOnesAreNumbersOrBooleans() throws {
        let root = try compose("""
            plain: 123
            double: "123"
            single: '123'
            yes: true
            quoted: "true"
            tagged: !!str on
            block: |
              7
            float: 35.5
            """)
        guard case .mapping(let pairs, _) = root else {
            Issue.record("not a mapping: \(root)")
            return
        }
        let scalars = pairs.compactMap(\.value.scalar)
        #expect(scalars.map(\.text) == ["123", "123", "123", "true", "true", "on", "7\n", "35.5"])
        #expect(scalars.map(\.style) == [.plain, .doubleQuoted, .singleQuoted, .plain, .doubleQuoted, .plain, .literal, .plain])
        #expect(scalars.map(\.int) == [123, nil, nil, nil, nil, nil, nil, nil])
        #expect(scalars.map(\.double) == [123, nil, nil, nil, nil, nil, nil, 35.5])
        #expect(scalars.map(\.bool) == [nil, nil, nil, true, nil, nil, nil, nil])
        #expect(scalars[5].tag == YAMLNode.Scalar.stringTag)
        #expect(pairs[3].key.string == "yes", "a key stays text")
    }

    @Test func plainScalarsReadAsYAML11NumbersAndBooleans() {
        func scalar(_ text: String) -> YAMLNode.Scalar {
            YAMLNode.Scalar(text: text, style: .plain, tag: nil, mark: Mark(line: 1, column: 1))
        }
        // YAML 1.1's booleans in any case, not YAML 1.2's core schema alone.
        #expect(["true", "True", "YES", "on", "tRuE"].map { scalar($0).bool } == [true, true, true, true, true])
        #expect(["false", "No", "OFF"].map { scalar($0).bool } == [false, false, false])
        #expect(["y", "1", "", "~", "null"].map { scalar($0).bool } == [nil, nil, nil, nil, nil])
        #expect(["0", "42", "-7", "+7", "1_000", "0x1F", "0o17", "017", "0b101", "1:30", "-1:30"].map { scalar($0).int }
                == [0, 42, -7, 7, 1000, 31, 15, 15, 5, 90, -90])
        #expect(["2.5", "08", "seven", "", "0x", "1::2"].map { scalar($0).int } == [nil, nil, nil, nil, nil, nil])
        #expect(scalar(String(repeating: "1:", count: 20) + "1").int == nil, "base 60 that overflows is no number, no crash")
        #expect(["35.5", "1e3", "-2", "1_000.5", "1:30.5", ".inf", "-.Inf"].map { scalar($0).double }
                == [35.5, 1000, -2, 1000.5, 90.5, .infinity, -.infinity])
        #expect(scalar(".nan").double?.isNaN == true)
        #expect(["fast", "", "1.2.3"].map { scalar($0).double } == [nil, nil, nil])
    }

    @Test func nestedSequencesOfMappingsKeepTheirShapeAndPlaces() throws {
        let root = try compose("""
            - name: first
              items: [1, 2]
            - name: second
              items:
                - {x: 1}
                - [a, [b]]
            """)
        guard case .sequence(let entries, let mark) = root else {
            Issue.record("not a sequence: \(root)")
            return
        }
        #expect(mark == Mark(line: 1, column: 1))
        #expect(entries.count == 2)
        guard case .mapping(let second, let secondMark) = entries[1] else {
            Issue.record("not a mapping: \(entries[1])")
            return
        }
        #expect(secondMark == Mark(line: 3, column: 3))
        #expect(second.map(\.key.string) == ["name", "items"])
        guard case .sequence(let items, _) = second[1].value, items.count == 2,
              case .mapping(let flow, let flowMark) = items[0], case .sequence(let nested, _) = items[1] else {
            Issue.record("items: \(second[1].value)")
            return
        }
        #expect(flowMark.line == 5)
        #expect(flow.map(\.key.string) == ["x"] && flow.map(\.value.scalar?.int) == [1])
        #expect(nested.map(\.string) == ["a", nil])
        #expect(nested[1] == .sequence([.scalar(.init(text: "b", style: .plain, tag: nil, mark: Mark(line: 6, column: 12)))],
                                       mark: Mark(line: 6, column: 11)))
    }

    @Test func anEmptyFileOrOneOfCommentsHoldsNoDocument() throws {
        for text in ["", "\n\n", "# nothing set\n   # still nothing\n"] {
            #expect(try YAMLComposer.compose(text) == nil, "\(text.debugDescription)")
        }
        #expect(try YAMLComposer.compose("---\n") == .scalar(.init(text: "", style: .plain, tag: nil, mark: Mark(line: 2, column: 1))),
                "an explicit document holds an empty value")
    }

    @Test func aTabIndentingAKeyIsAnErrorOnItsLine() {
        #expect(refusal("engine:\n\tmax_speed: 5\n")
                == .malformed(problem: "found character that cannot start any token", mark: Mark(line: 2, column: 1),
                              context: "while scanning for the next token"))
    }

    @Test func bytesThatAreNotUTF8OrHoldControlCharactersAreRefusedNamingTheLine() {
        #expect(refusal(bytes: [0xFF, 0xFE, 0x61]) == .unreadable(problem: "invalid leading UTF-8 octet (byte 0xFF)",
                                                                  mark: Mark(line: 1, column: 1)))
        #expect(refusal(bytes: Array("a: 1\nb: ".utf8) + [0xC3, 0x28, 0x0A])
                == .unreadable(problem: "invalid trailing UTF-8 octet (byte 0x28)", mark: Mark(line: 2, column: 5)))
        #expect(refusal("a: 1\nb: x\u{7}\n") == .unreadable(problem: "control characters are not allowed (U+0007)",
                                                             mark: Mark(line: 2, column: 5)))
        #expect(refusal("a: 1\u{0}\n")?.mark?.line == 1, "a NUL byte is a control character, not the end of the text")
    }

    @Test func garbageGivesAnErrorOrATreeNeverACrash() {
        var random = SplitMix64(seed: 20_260_601)
        let alphabet = Array("[]{}:-?,&*!|>'\"%@`#\n\t ab1".utf8) + [0x00, 0x80, 0xC3, 0xFF]
        var refused = 0
        for _ in 0..<2000 {
            let count = Int(random.next() % 40)
            let bytes = (0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            if refusal(bytes: bytes) != nil { refused += 1 }
        }
        #expect(refused > 1000, "most garbage is refused (\(refused) of 2000)")
    }

    @Test func nestingBeyondTheLimitIsRefusedNotFollowedOffTheStack() {
        #expect(refusal(String(repeating: "[", count: 100_000)) == .tooDeep(limit: YAMLComposer.depthLimit,
                                                                             mark: Mark(line: 1, column: 65)))
        let deepEnough = String(repeating: "[", count: YAMLComposer.depthLimit) + String(repeating: "]", count: YAMLComposer.depthLimit)
        #expect(refusal(deepEnough) == nil)
    }

    @Test func anAliasIsTheNodeItsAnchorNamesAndAnUnknownOneIsAnError() throws {
        let root = try compose("base: &speed 12.5\nmax: *speed\n")
        guard case .mapping(let pairs, _) = root else {
            Issue.record("not a mapping: \(root)")
            return
        }
        #expect(pairs[1].value == pairs[0].value)
        #expect(pairs[1].value.scalar?.double == 12.5)
        #expect(refusal("a: 1\nb: *nowhere\n") == .undefinedAlias(name: "nowhere", mark: Mark(line: 2, column: 4)))
    }

    @Test func aKeyGivenTwiceIsRefusedNamingBothLines() {
        let error = refusal("engine:\n  max_speed: 50\n  gap_after: 5\n  max_speed: 60\n")
        #expect(error == .duplicateKey(key: "max_speed", mark: Mark(line: 4, column: 3), firstLine: 2))
        #expect(error?.summary.contains("first on line 2") == true)
        #expect(refusal("a:\n  x: 1\nb:\n  x: 1\n") == nil, "the same key in two mappings")
    }

    @Test func aSecondDocumentIsRefusedAtItsStart() {
        #expect(refusal("a: 1\n---\nb: 2\n") == .anotherDocument(mark: Mark(line: 2, column: 1)))
    }
}
