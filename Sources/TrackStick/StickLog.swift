import ControlSocket
import TrackCore

/// trackd-stick's way into the log: trackd's control socket, exactly as `trackctl` uses it, one connection per
/// question (the same reports `trackctl export` gets).
public struct StickLog: Sendable {
    /// trackd's control socket.
    public let socketPath: String

    public init(socketPath: String) {
        self.socketPath = socketPath
    }

    /// How trackd-stick introduces itself (the log records its copies as made by it).
    static let clientName = "trackd-stick \(TrackVersion.string)"

    /// The log's profile (the car's plate names its folder on the stick).
    public func profile() async throws(StickError) -> LogProfile {
        try await call(.profile, NoParams(), as: LogProfile.self, what: "the profile")
    }

    /// The months that have a trip, oldest first (deleted trips too: a month's report shows them).
    public func months() async throws(StickError) -> [CivilDate] {
        let trips = try await call(.trips, TripsParams(period: .all), as: [LogTrip].self, what: "the list of trips")
        return Set(trips.compactMap { $0.date?.firstOfMonth }).sorted()
    }

    /// A month's report, as `trackctl export --month YYYY-MM` gets it (every kind of trip, with the tracks).
    public func report(month: CivilDate) async throws(StickError) -> MileageReport {
        let period = LogPeriod.month(year: month.year, month: month.month)
        return try await call(.export, TripsParams(period: period), as: MileageReport.self,
                              what: "the report of \(period.description)")
    }

    /// The log checked against its hash chain, as `trackctl verify` gets it.
    public func verify() async throws(StickError) -> VerificationReport {
        try await call(.verify, NoParams(), as: VerificationReport.self, what: "the check of the hash chain")
    }

    /// Records the copy in the log (shown by `trackctl status`).
    public func record(_ copy: StickCopy) async throws(StickError) -> StickCopy {
        try await call(.reportCopied, copy, as: StickCopy.self, what: "the record of the copy")
    }

    private func call<Params: Codable & Sendable, Result: Codable & Sendable>(
        _ method: ControlMethod, _ params: Params, as type: Result.Type, what: String
    ) async throws(StickError) -> Result {
        do {
            return try await ControlClient.withConnection(socketPath: socketPath, client: Self.clientName) { connection in
                try await connection.call(method, params: params, result: type)
            }
        } catch let error as ControlSocketError {
            switch error {
            case .daemonNotRunning(_, let reason): throw .trackdUnreachable(socket: socketPath, reason: reason)
            case .permissionDenied: throw .trackdUnreachable(socket: socketPath, reason: "permission denied")
            default: throw .logRefused(what: what, reason: "\(error)")
            }
        } catch {
            throw .logRefused(what: what, reason: "\(error)")
        }
    }
}
