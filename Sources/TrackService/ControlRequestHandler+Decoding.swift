/// Decoding errors in words a client's author can act on.
extension ControlRequestHandler {
    /// What a JSON value of a Swift type is, in words.
    static func kind(of type: Any.Type) -> String {
        switch type {
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type: "a whole number"
        case is Double.Type, is Float.Type: "a number"
        case is String.Type: "text (a string)"
        case is Bool.Type: "true or false"
        default:
            "\(type)".hasPrefix("Dictionary") ? "an object" : "\(type)".hasPrefix("Array") ? "a list" : "\(type)"
        }
    }

    /// A short, readable reason from a decoding error.
    static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            // "Cannot initialize TripKind from invalid String value commute" (an enum's unknown value).
            if let range = context.debugDescription.firstRange(of: "value "), context.debugDescription.hasPrefix("Cannot initialize") {
                return "'\(path)' cannot be '\(context.debugDescription[range.upperBound...])'"
            }
            if context.debugDescription == "The given data was not valid JSON.", !path.isEmpty {
                return "'\(path)' cannot be read (a number too large?)"
            }
            return path.isEmpty ? context.debugDescription : "'\(path)': \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, let context):
            let path = (context.codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: ".")
            return "'\(path)' is missing"
        case DecodingError.typeMismatch(let type, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "'\(path)' should be \(ControlRequestHandler.kind(of: type))"
        case DecodingError.valueNotFound(let type, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "'\(path)' should be \(ControlRequestHandler.kind(of: type)), not null"
        default:
            return "\(error)"
        }
    }
}
