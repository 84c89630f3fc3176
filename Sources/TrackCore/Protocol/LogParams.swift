/// `start` parameters.
public struct StartParams: Sendable, Codable, Hashable {
    public var kind: TripKind
    public var purpose: String?
    public var customer: String?
    /// Where the trip goes (a destination with its address, as a tax office asks for it).
    public var destination: String?
    /// A private trip between home and work (`LogTrip.commute`; the kind is then private).
    public var commute: Bool?

    public init(kind: TripKind, purpose: String? = nil, customer: String? = nil, destination: String? = nil,
                commute: Bool? = nil) {
        self.commute = commute
        self.kind = kind
        self.purpose = purpose
        self.customer = customer
        self.destination = destination
    }
}

/// `stop` parameters.
public struct StopParams: Sendable, Codable, Hashable {
    public var purpose: String?
    /// The customer, given with the stop: part of the entry as it is written, not a change to it.
    public var customer: String?

    public init(purpose: String? = nil, customer: String? = nil) {
        self.purpose = purpose
        self.customer = customer
    }
}

/// `trips` and `export` parameters: a period (`this-month` when absent) and a kind (`all` when absent).
public struct TripsParams: Sendable, Codable, Hashable {
    public var period: LogPeriod?
    public var kind: KindFilter?

    public init(period: LogPeriod? = nil, kind: KindFilter? = nil) {
        self.period = period
        self.kind = kind
    }
}

/// `show` parameters.
public struct TripIDParams: Sendable, Codable, Hashable {
    public var id: TripID

    public init(id: TripID) {
        self.id = id
    }
}

/// `edit` parameters.
public struct EditParams: Sendable, Codable, Hashable {
    public var id: TripID
    public var changes: TripChanges
    public var reason: String

    public init(id: TripID, changes: TripChanges, reason: String) {
        self.id = id
        self.changes = changes
        self.reason = reason
    }
}

/// `delete` parameters.
public struct DeleteParams: Sendable, Codable, Hashable {
    public var id: TripID
    public var reason: String

    public init(id: TripID, reason: String) {
        self.id = id
        self.reason = reason
    }
}

/// `regular.remove` parameters and result.
public struct NameParams: Sendable, Codable, Hashable {
    public var name: String

    public init(name: String) {
        self.name = name
    }
}

/// `odometer.set` parameters: the dashboard reading in kilometres.
public struct OdometerParams: Sendable, Codable, Hashable {
    public var kilometres: Double
    public var reason: String

    public init(kilometres: Double, reason: String) {
        self.kilometres = kilometres
        self.reason = reason
    }
}

/// `odometer` result: the log's odometer now (km), the readings, and the calibration the car's odometer proposes.
public struct OdometerStatus: Sendable, Codable, Hashable {
    public var kilometres: Double?
    public var calibrationFactor: Double
    public var readings: [OdometerReading]
    /// The factor the car's odometer proposes over the last trips it started and ended, if any.
    public var proposedCalibration: CalibrationProposal?
    /// Why there is none though the car's odometer started and ended trips.
    public var proposalNote: String?

    public init(kilometres: Double?, calibrationFactor: Double, readings: [OdometerReading],
                proposedCalibration: CalibrationProposal? = nil, proposalNote: String? = nil) {
        self.kilometres = kilometres
        self.calibrationFactor = calibrationFactor
        self.readings = readings
        self.proposedCalibration = proposedCalibration
        self.proposalNote = proposalNote
    }

    enum CodingKeys: String, CodingKey {
        case kilometres
        case calibrationFactor = "calibration_factor"
        case readings
        case proposedCalibration = "proposed_calibration"
        case proposalNote = "proposal_note"
    }
}

/// `odometer.calibrate` parameters: the proposal from the car's odometer is taken; why (kept in the history).
public struct CalibrateParams: Sendable, Codable, Hashable {
    public var reason: String?

    public init(reason: String? = nil) {
        self.reason = reason
    }
}

/// `odometer.calibrate` result: the factor before and after, and the proposal it came from.
public struct CalibrationUpdate: Sendable, Codable, Hashable {
    public var before: Double
    public var after: Double
    public var proposal: CalibrationProposal

    public init(before: Double, after: Double, proposal: CalibrationProposal) {
        self.before = before
        self.after = after
        self.proposal = proposal
    }
}

/// `profile.set` parameters.
public struct ProfileParams: Sendable, Codable, Hashable {
    public var changes: ProfileChanges
    public var reason: String?

    public init(changes: ProfileChanges, reason: String? = nil) {
        self.changes = changes
        self.reason = reason
    }
}
