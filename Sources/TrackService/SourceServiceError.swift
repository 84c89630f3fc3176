/// The source stopped for a reason retrying cannot fix.
public enum SourceServiceError: Error, CustomStringConvertible {
    case cannotRun(source: String, any Error)

    public var description: String {
        switch self {
        case .cannotRun(let source, let cause): "the source \(source) cannot run: \(cause)"
        }
    }
}
