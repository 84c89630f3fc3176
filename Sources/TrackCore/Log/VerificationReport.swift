/// What `verify` found: how much it checked, the chain's head, and every problem, the first broken record first.
public struct VerificationReport: Sendable, Hashable, Codable {
    /// One thing that does not match.
    public struct Problem: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The record: `trip 12`, `revision 7`, `chain record 41`, `file`.
        public var record: String
        public var detail: String

        public init(record: String, detail: String) {
            self.record = record
            self.detail = detail
        }

        public var description: String { "\(record): \(detail)" }
    }

    /// Records in the chain.
    public var chainRecords: Int
    public var trips: Int
    public var revisions: Int
    /// The newest hash: compare it with the one printed on an earlier report to see that nothing was cut off.
    public var head: String?
    public var problems: [Problem]
    /// The erasures the chain records, oldest first: what was erased, when, by whom and why.
    public var erasures: [LogErasure]

    public init(chainRecords: Int, trips: Int, revisions: Int, head: String?, problems: [Problem],
                erasures: [LogErasure] = []) {
        self.erasures = erasures
        self.chainRecords = chainRecords
        self.trips = trips
        self.revisions = revisions
        self.head = head
        self.problems = problems
    }

    /// Whether the log is as trackd wrote it.
    public var isIntact: Bool { problems.isEmpty }

    enum CodingKeys: String, CodingKey {
        case chainRecords = "chain_records"
        case trips, revisions, head, problems, erasures
        case isIntact = "intact"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        chainRecords = try c.decode(Int.self, forKey: .chainRecords)
        trips = try c.decode(Int.self, forKey: .trips)
        revisions = try c.decode(Int.self, forKey: .revisions)
        head = try c.decodeIfPresent(String.self, forKey: .head)
        problems = try c.decode([Problem].self, forKey: .problems)
        erasures = try c.decodeIfPresent([LogErasure].self, forKey: .erasures) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(chainRecords, forKey: .chainRecords)
        try c.encode(trips, forKey: .trips)
        try c.encode(revisions, forKey: .revisions)
        try c.encode(head, forKey: .head)
        try c.encode(problems, forKey: .problems)
        try c.encode(erasures, forKey: .erasures)
        try c.encode(isIntact, forKey: .isIntact)
    }
}
