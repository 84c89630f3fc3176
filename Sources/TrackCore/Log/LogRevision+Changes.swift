/// Which changes make an entry one that was changed after it was written (what the Fahrtenbuch's report marks).
extension LogRevision {
    /// Whether it is a person's change to a trip: not trackd's own (a place it named, a rule's classification, the
    /// car's odometer), not the entry's writing (`entry`, a trip added by hand) and not a confirmation, which changes
    /// nothing of the entry.
    public var changesAnEntry: Bool {
        tripID != nil && field != "entry" && field != "confirmed" && !user.hasPrefix("trackd")
    }

    /// The trips among `revisions` a person changed after they were written.
    public static func changedEntries(_ revisions: some Sequence<LogRevision>) -> Set<TripID> {
        Set(revisions.filter(\.changesAnEntry).compactMap(\.tripID))
    }
}
