import Logging
import TrackCore
import TrackStore

/// Erasures: asked over the socket (`trackctl erase`), or by the policy that erases old routes after a trip. The
/// month's plain files go first and are written again from the log afterwards, so that a power cut between the
/// two leaves no copy of what was erased.
extension TripRecorder {
    /// Carries out an erasure; `runningTrip` is the trip the engine records now.
    mutating func erase(_ params: EraseParams, context: ChangeContext,
                        runningTrip: TripID?) async throws(StoreError) -> LogErasure {
        if params.target == .all, let runningTrip {
            throw .invalid("trip \(runningTrip) is being recorded; stop it (trackctl stop) before erasing the log")
        }
        let named = [("driver", profileDefaults.driver), ("plate", profileDefaults.plate),
                     ("company", profileDefaults.company)].first { !($0.1?.isEmpty ?? true) }?.0
        if params.target == .profile, let named {
            throw .invalid("\(configurationPath ?? "the configuration") sets profile.\(named): trackd would write it "
                + "into the log again at its next start. Remove the profile's driver, plate and company there, "
                + "reload trackd (systemctl reload trackd), then erase")
        }
        let retention = privacy.retention
        let months = try await exportedMonths(touchedBy: params, retention: retention, context: context)
        var (erasure, exports) = try await settingExportsAside(
            months, now: context.time, keepRemoved: { $0.done && params.target == .all }
        ) { [log] () async throws(StoreError) -> LogErasure in
            try await log.erase(params, retention: retention, context: context)
        }
        erasure.exports = exports
        if erasure.done && params.target == .all {
            if !profileDefaults.isEmpty {
                await ProfileDefaults.apply(profileDefaults, from: configurationPath, to: log, at: context.time,
                                            logger: logger)
                erasure.notes.append("the profile was filled in again from the configuration's profile: section")
            }
        }
        if erasure.done {
            logger.notice("erased \(erasure.scope)", metadata: [
                "user": "\(context.user)", "trips": "\(erasure.trips.count)", "track_points": "\(erasure.trackPoints)",
                "chain_records": "\(erasure.chainRecords)", "revisions": "\(erasure.revisions)",
                "reason": "\(erasure.reason ?? "")",
            ])
        }
        return erasure
    }

    /// Erases the routes older than `privacy.erase_routes_after_months`, counted from `time` (GPS time: a board
    /// without a real-time clock must not erase by a wrong system date).
    mutating func eraseExpiredRoutes(at time: UTCTime) async {
        guard privacy.eraseRoutesAfterMonths > 0, let today = try? await log.localDate(of: time),
              let since = privacy.routesKept(since: today)
        else { return }
        let params = EraseParams(target: .routes, before: since,
                                 reason: "privacy.erase_routes_after_months: \(privacy.eraseRoutesAfterMonths)")
        do {
            let erasure = try await erase(params, context: ChangeContext(user: "trackd", time: time, timeSource: "gps"),
                                          runningTrip: nil)
            // The point file is written over in place, not emptied by its length: records of an earlier trip may
            // stay in it past the newest one's, so it is overwritten with zeros too.
            if erasure.done, erasure.trackPoints > 0 { try await settlePointFile(zeroing: true) }
        } catch {
            logger.error("cannot erase the routes the privacy policy lets go", metadata: ["error": "\(error)"])
        }
    }

    /// The months whose files in `exports/` an erasure may change: for routes, the months of the trips whose routes
    /// it erases (none when it finds none: the policy's erasure after every trip must not write every month again);
    /// for the profile and the whole log, every month with a file.
    private func exportedMonths(touchedBy params: EraseParams, retention: RetentionPolicy,
                                context: ChangeContext) async throws(StoreError) -> [CivilDate] {
        guard let exports, !params.dryRun else { return [] }
        guard params.target == .routes else { return exports.months() }
        var counting = params
        counting.dryRun = true
        var months = Set<CivilDate>()
        for id in try await log.erase(counting, retention: retention, context: context).trips {
            if let date = try await log.trip(id).date { months.insert(date.firstOfMonth) }
        }
        return months.sorted()
    }

    /// Runs `change` with the files of `months` removed before it, so that a power cut in between leaves no copy of
    /// what it erases, and written again from the log after it, whatever its outcome (unless `keepRemoved` says,
    /// from its result, that they stay removed). Returns its result and the paths written again or removed.
    func settingExportsAside<Result>(
        _ months: [CivilDate], now: UTCTime, keepRemoved: (Result) -> Bool = { _ in false },
        _ change: () async throws(StoreError) -> Result
    ) async throws(StoreError) -> (result: Result, exports: [String]) {
        let removed = exports?.remove(months: months) ?? []
        let result: Result
        do {
            result = try await change()
        } catch {
            _ = await rewriteExports(months, now: now)
            throw error
        }
        return (result, keepRemoved(result) ? removed : await rewriteExports(months, now: now))
    }

    /// Writes the files of `months` again from the log; returns the paths written.
    func rewriteExports(_ months: [CivilDate], now: UTCTime) async -> [String] {
        guard let exports else { return [] }
        var written: [String] = []
        for month in months {
            do {
                written += try await exports.refresh(month: month, from: log, now: now)
            } catch {
                logger.error("cannot write the month's exports again", metadata: ["month": "\(month)", "error": "\(error)"])
            }
        }
        return written
    }
}
