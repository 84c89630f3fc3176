import TrackCore
import TrackStore

/// The recorder's writes to the mileage log that failed because the log could not be written (disk full,
/// read-only, a file-size limit), in the order they were made, waiting to be tried again; and how many points it
/// had to give up to stay within its bound.
struct Backlog {
    /// One write to the log.
    enum Write {
        /// A batch of track points, with the resumption of a trip carried on after a power cut when it waits for them,
        /// and the trip's ends when they moved meanwhile (one transaction: one commit, one sync of the card).
        case points([RecordedPoint], tripID: TripID, resumption: Resumption?, ends: TripEnds? = nil)
        case gap(GapReport, tripID: TripID)
        case idleAlert(IdleAlert, tripID: TripID)
        case event(LogEvent.Kind, time: UTCTime?, tripID: TripID, detail: String)
        /// Where the running trip starts and ends, as the engine's means of the stops settle.
        case ends(TripEnds, tripID: TripID)
        /// A trip's close; `afterPowerLoss` is the reason when it closes a trip a power cut left open.
        case close(tripID: TripID, TripSummary, resumption: Resumption?, afterPowerLoss: String?, exportsAt: UTCTime?)

        /// What the write does, for the journal: "store track points", "note an outage", …
        var what: String {
            switch self {
            case .points: "store track points"
            case .gap: "note an outage"
            case .idleAlert: "note an idle alert"
            case .event(let kind, _, _, _): "note the event \(kind.rawValue)"
            case .ends: "note where the trip starts and ends"
            case .close(let tripID, _, _, _, _): "close trip \(tripID)"
            }
        }
    }

    private var writes: [Write] = []
    /// Points written since the failure began, of those that waited.
    private(set) var stored = 0
    /// Other records written since the failure began, of those that waited.
    private(set) var storedRecords = 0
    /// Points given up since the failure began to stay within the bound.
    private(set) var dropped = 0

    var isEmpty: Bool { writes.isEmpty }
    /// The writes waiting, in order (for tests).
    var writesForTesting: [Write] { writes }
    var first: Write? { writes.first }

    /// Track points waiting.
    var points: Int {
        writes.reduce(0) { count, write in
            if case .points(let points, _, _, _) = write { count + points.count } else { count }
        }
    }

    /// Other records waiting (a note of the running trip's ends is not one: it only moves the open row's positions).
    var records: Int { writes.count(where: Backlog.isRecord) }

    private static func isRecord(_ write: Write) -> Bool {
        switch write {
        case .points, .ends: false
        default: true
        }
    }

    /// Whether the close of trip `tripID` waits.
    func closes(_ tripID: TripID) -> Bool {
        writes.contains { if case .close(tripID, _, _, _, _) = $0 { true } else { false } }
    }

    /// Adds a write at the end; points for the same trip as the last write join its batch (one transaction), and
    /// so do the trip's ends.
    mutating func append(_ write: Write) {
        // One note of a trip's ends waits at most, the newest (a trip's close writes its ends anyway), with the
        // trip's last batch of points when one waits.
        switch write {
        case .ends(let new, let tripID):
            var merged = new
            if let index = writes.lastIndex(where: { if case .ends(_, tripID) = $0 { true } else { false } }),
               case .ends(let old, _) = writes.remove(at: index) {
                merged = new.over(old)
            }
            if case .points(let points, tripID, let resumption, let waiting)? = writes.last {
                writes[writes.count - 1] = .points(points, tripID: tripID, resumption: resumption,
                                                   ends: TripEnds.merging(merged, over: waiting))
            } else {
                writes.append(.ends(merged, tripID: tripID))
            }
            return
        case .close(let tripID, _, _, _, _):
            writes.removeAll { if case .ends(_, tripID) = $0 { true } else { false } }
        default:
            break
        }
        if case .points(let more, let tripID, let resumption, let newEnds) = write, resumption == nil,
           case .points(let points, tripID, let waiting, let ends)? = writes.last {
            writes[writes.count - 1] = .points(points + more, tripID: tripID, resumption: waiting,
                                               ends: TripEnds.merging(newEnds, over: ends))
        } else if case .points(let points, let tripID, let resumption, let newEnds) = write,
                  case .ends(let ends, tripID)? = writes.last {
            // The ends that waited go with the points.
            writes[writes.count - 1] = .points(points, tripID: tripID, resumption: resumption,
                                               ends: TripEnds.merging(newEnds, over: ends))
        } else {
            writes.append(write)
        }
    }

    /// The first write went through.
    mutating func removeFirst() {
        guard let write = writes.first else { return }
        if case .points(let points, _, _, _) = write {
            stored += points.count
        } else if Backlog.isRecord(write) {
            storedRecords += 1
        }
        writes.removeFirst()
    }

    /// Gives up the oldest waiting points beyond `limit` (at least one point stays with a resumption, which must be
    /// committed with points). The trip's distance is the engine's: only the track loses them.
    mutating func trim(keepingPoints limit: Int) {
        var excess = points - max(0, limit)
        var index = 0
        while excess > 0, index < writes.count {
            if case .points(let batch, let tripID, let resumption, let ends) = writes[index] {
                let keep = resumption == nil ? 0 : 1
                let drop = min(excess, batch.count - keep)
                if drop > 0 {
                    writes[index] = .points(Array(batch.dropFirst(drop)), tripID: tripID, resumption: resumption,
                                            ends: ends)
                    excess -= drop
                    dropped += drop
                }
            }
            index += 1
        }
        // A batch left empty goes; the ends it carried wait on their own.
        writes = writes.compactMap { write in
            guard case .points(let batch, let tripID, _, let ends) = write, batch.isEmpty else { return write }
            return ends.map { .ends($0, tripID: tripID) }
        }
    }

    /// Starts the counts afresh (after a failure ended).
    mutating func resetCounts() {
        stored = 0
        storedRecords = 0
        dropped = 0
    }
}
