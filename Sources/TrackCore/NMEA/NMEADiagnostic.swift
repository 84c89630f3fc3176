/// A sentence, or something that looked like one, that the reader could not use, with the reason.
public struct NMEADiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Problem: Sendable, Hashable, CustomStringConvertible {
        /// Framing dropped it (too long, cut short, binary inside).
        case framing(NMEAFramingProblem)
        /// The sentence was read but is damaged or malformed.
        case sentence(NMEASentenceError)

        public var description: String {
            switch self {
            case .framing(let problem): problem.description
            case .sentence(let error): error.description
            }
        }
    }

    public var problem: Problem
    public var position: NMEASourcePosition
    /// The start of the offending text.
    public var excerpt: String

    public init(problem: Problem, position: NMEASourcePosition, excerpt: String) {
        self.problem = problem
        self.position = position
        self.excerpt = excerpt
    }

    public var description: String { "\(position): \(problem): \(excerpt)" }
}
