import ArgumentParser
import TrackCore

/// The classification flags and text fields of a trip, shared by `start`, `add` and `edit`.
struct TripFields: ParsableArguments {
    @Flag(exclusivity: .exclusive, help: "Business, private or not yet classified.")
    var kind: TripKind?

    @Option(help: "What the trip was for (required for business trips in a report).")
    var purpose: String?

    @Option(help: "The customer or project.")
    var customer: String?

    @Option(help: "Where the trip went.")
    var destination: String?
}

extension TripKind: EnumerableFlag {
    public static func help(for value: TripKind) -> ArgumentHelp? {
        switch value {
        case .business: "A business trip."
        case .private: "A private trip."
        case .unclassified: "Not classified yet (decide later with 'trackctl edit')."
        }
    }
}
