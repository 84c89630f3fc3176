import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An element of a parsed XML document, for checking the GPX and HTML exports.
final class ParsedElement {
    let name: String
    let attributes: [String: String]
    private(set) var children: [ParsedElement] = []
    /// Text and child elements in document order.
    private var pieces: [Piece] = []

    private enum Piece {
        case text(String)
        case element(ParsedElement)
    }

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// All text inside, children's included, in document order.
    var text: String {
        pieces.map { piece in
            switch piece {
            case .text(let text): text
            case .element(let element): element.text
            }
        }.joined()
    }

    fileprivate func append(_ child: ParsedElement) {
        children.append(child)
        pieces.append(.element(child))
    }

    fileprivate func append(text: String) {
        pieces.append(.text(text))
    }

    /// Elements named `name` at any depth below this one, in document order.
    func descendants(_ name: String) -> [ParsedElement] {
        children.flatMap { ($0.name == name ? [$0] : []) + $0.descendants(name) }
    }

    /// Direct children named `name`.
    func children(_ name: String) -> [ParsedElement] {
        children.filter { $0.name == name }
    }

    /// The first direct child named `name`.
    func child(_ name: String) -> ParsedElement? {
        children.first { $0.name == name }
    }

    /// The words of the `class` attribute.
    var classes: [String] {
        (attributes["class"] ?? "").split(separator: " ").map(String.init)
    }
}

/// Parses a document with Foundation's `XMLParser` into `ParsedElement`s.
enum XMLTree {
    /// Why a document did not parse.
    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    /// The root element of `text`; throws when it is not well-formed.
    static func parse(_ text: String) throws -> ParsedElement {
        let builder = Builder()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            let error = parser.parserError.map { "\($0)" } ?? "no root element"
            throw ParseError(description: "line \(parser.lineNumber), column \(parser.columnNumber): \(error)")
        }
        return root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: ParsedElement?
        var stack: [ParsedElement] = []

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            let element = ParsedElement(name: elementName, attributes: attributes)
            if let parent = stack.last { parent.append(element) } else { root = element }
            stack.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?) {
            stack.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.append(text: string)
        }
    }
}
