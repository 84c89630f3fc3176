import ArgumentParser
import TrackCore
import TrackctlTexts

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

    @Flag(inversion: .prefixedNo, help: ArgumentHelp(
        "A private trip between home and the regular place of work (the Fahrtenbuch's own column); --no-commute: not one.",
        discussion: "A commute is private in every country's rules, so --commute makes the trip private."))
    var commute: Bool?

    @Option(help: ArgumentHelp("A detour from the direct way and why (the Fahrtenbuch's Umwege); '' clears it.",
                               valueName: "text"))
    var detour: String?

    /// The kind a new trip takes: the one given, private for a commute, else `fallback`.
    func kind(or fallback: TripKind) -> TripKind {
        kind ?? (commute == true ? .private : fallback)
    }

    /// Refuses --commute with --business or --unclassified before anything is asked.
    func validate() throws {
        if commute == true, let kind, kind != .private {
            throw ValidationError(t("a commute (home to the regular place of work) is a private trip: give --commute without --\(kind)"))
        }
    }
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
