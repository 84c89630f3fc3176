import TrackCore

/// The verdict of `verify` in words: what `trackctl verify` prints and the receipt trackd-stick leaves on a stick.
extension VerificationReport {
    /// The lines as printed, without their newlines: the verdict, up to 20 further problems, the erasures.
    public var textLines: [String] {
        var lines: [String]
        if isIntact {
            lines = ["intact: \(chainRecords) chain records over \(trips) trips and \(revisions) changes; head \(head ?? "none")"]
        } else {
            lines = ["ALTERED: \(problems.count) problem\(problems.count == 1 ? "" : "s"); first broken record: "
                     + problems[0].description]
            lines += problems.dropFirst().prefix(20).map { "  \($0)" }
        }
        if !erasures.isEmpty {
            lines.append("erasures (the chain keeps the digests of what went):")
            for erasure in erasures {
                lines.append("  \(erasure.time.iso8601(fractionDigits: 0)) by \(erasure.user): \(erasure.scope)"
                             + (erasure.target == .routes ? " — \(Self.list(erasure.trips)), \(erasure.trackPoints) points" : "")
                             + (erasure.reason.map { " — \($0)" } ?? "") + " (chain record \(erasure.chainRecord ?? 0))")
            }
        }
        return lines
    }

    /// "trip 3" or "trips 1, 2, 3", at most ten named.
    public static func list(_ trips: [TripID]) -> String {
        let shown = trips.prefix(10).map(\.description).joined(separator: ", ")
        return (trips.count == 1 ? "trip " : "trips ") + shown + (trips.count > 10 ? ", … and \(trips.count - 10) more" : "")
    }
}
