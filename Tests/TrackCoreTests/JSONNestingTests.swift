import Testing
import TrackCore

@Suite struct JSONNestingTests {
    @Test func countsTheDeepestArrayOrObject() {
        #expect(JSONNesting.depth(of: Array("42".utf8), stoppingAbove: 64) == 0)
        #expect(JSONNesting.depth(of: Array("{}".utf8), stoppingAbove: 64) == 1)
        #expect(JSONNesting.depth(of: Array(#"{"a":[1,{"b":[]}],"c":{}}"#.utf8), stoppingAbove: 64) == 4)
    }

    @Test func bracketsInsideStringsDoNotCount() {
        #expect(JSONNesting.depth(of: Array(#"{"purpose":"[[[{{{ \"[[[\" \\"}"#.utf8), stoppingAbove: 64) == 1)
    }

    @Test func stopsCountingJustAboveTheLimit() {
        let deep = String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000)
        #expect(JSONNesting.depth(of: Array(deep.utf8), stoppingAbove: 32) == 33)
        #expect(JSONNesting.depth(of: Array(deep.utf8), stoppingAbove: 40_000) == 30_000)
    }

    @Test func anUnbalancedTextIsCountedNotRefused() {
        #expect(JSONNesting.depth(of: Array("]]]][[".utf8), stoppingAbove: 64) == 2)
    }
}
