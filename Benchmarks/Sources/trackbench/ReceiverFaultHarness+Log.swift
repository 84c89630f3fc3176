import Foundation
import TestSupport
import TrackCore

extension ReceiverFaultHarness {
    /// One row of the log's `event` table.
    struct LoggedEvent {
        var id: Int
        var kind: String
        var time: String
        var trip: TripID?
        var detail: String
    }

    /// After the stop: what the log recorded of each scenario (its events are those written while it ran, from
    /// `firstEvents[name]` on), the trip, the hash chain, and the daemon's own log lines.
    func checkLog(firstEvents: [String: Int], daemonOutput: String) {
        guard let stopIndex = scenarios.lastIndex(where: { $0.name == "stop" }) else { return }
        let rows = (try? sqlite3(database, "SELECT id, kind, COALESCE(time, ''), COALESCE(trip_id, ''), detail FROM event ORDER BY id")) ?? ""
        let events = rows.split(separator: "\n").compactMap { line -> LoggedEvent? in
            let fields = line.split(separator: "|", maxSplits: 4, omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5, let id = Int(fields[0]) else { return nil }
            return LoggedEvent(id: id, kind: fields[1], time: fields[2], trip: Int64(fields[3]).map(TripID.init), detail: fields[4])
        }
        let starts = settings.scenarios.compactMap { name in firstEvents[name].map { (name, $0) } }
        for (offset, (name, first)) in starts.enumerated() {
            guard let index = scenarios.firstIndex(where: { $0.name == name }) else { continue }
            let end = offset + 1 < starts.count ? starts[offset + 1].1 : Int.max
            let own = events.filter { $0.id >= first && $0.id < end }
            let lost = own.filter { $0.kind == "error" && $0.detail.hasPrefix("GPS source lost") }
            let gaps = own.filter { $0.kind == "gap" }
            let fixLost = own.filter { $0.kind == "fix-lost" }
            let regained = own.filter { $0.kind == "fix-regained" }
            let elsewhere = own.filter { $0.trip != tripNumber }
            scenarios[index].status.append(contentsOf: own.map { "logged: \($0.kind) \($0.time.isEmpty ? "(no time)" : $0.time) trip \($0.trip.map(String.init) ?? "none"): \($0.detail)" })
            var scenario = scenarios[index]
            let untimed = own.filter { $0.time.isEmpty }
            check(&scenario, "\(name).events-trip", elsewhere.isEmpty && untimed.isEmpty,
                  "every event of the scenario belongs to trip \(tripNumber.map(\.description) ?? "?") and has a GPS time "
                      + "(\(own.count) events\(untimed.isEmpty ? "" : "; without a time: " + untimed.map(\.kind).joined(separator: ", ")))")
            // No phantom distance across an outage. A bridge is the straight line, lengthened for the change of
            // course as if the road were a steady bend, by at most max_bridge_curvature (docs/accuracy.md): it may
            // add more than the drive covered (a sharp corner between straights), but never more than that factor
            // times it. Outages over the drive's distance are listed; over the bound they fail.
            var bridged = 0.0, covered = 0.0
            var overstated: [String] = [], beyond: [String] = []
            for gap in gaps {
                let words = gap.detail.split(separator: " ")
                guard let start = UTCTime(iso8601: gap.time), words.count >= 6, let duration = Double(words[2]),
                      let added = Double(words[words.count - 3]) else { continue }
                let driven = drivenMetres(settings.drive, epochs(settings.drive, after: start, through: start.adding(seconds: duration)))
                bridged += added
                covered += driven
                let text = "\(gap.detail) for \(Int(driven)) m driven"
                if added > driven + 10 { overstated.append(text) }
                if added > driven * ReceiverFaultHarness.maxBridgeCurvature + 10 { beyond.append(text) }
            }
            if !gaps.isEmpty {
                scenario.figures["outages_added_m"] = bridged
                scenario.figures["outages_driven_m"] = covered
                scenario.figures["outages_over_driven"] = Double(overstated.count)
                check(&scenario, "\(name).outages", beyond.isEmpty,
                      String(format: "no outage added more than %.2f times what the drive covered in it: %.0f m added for %.0f m driven",
                             ReceiverFaultHarness.maxBridgeCurvature, bridged, covered)
                          + (overstated.isEmpty ? "" : "; more than the drive: \(overstated.joined(separator: "; "))"))
            }
            switch name {
            case "unplug":
                check(&scenario, "unplug.logged", lost.count == settings.unplugs && gaps.count == settings.unplugs,
                      "the log has \(lost.count) 'GPS source lost' events and \(gaps.count) outages for \(settings.unplugs) unplugs")
            case "garbage":
                check(&scenario, "garbage.logged", lost.isEmpty && gaps.isEmpty && fixLost.isEmpty,
                      "the garbage left no loss, outage or loss of fix in the log (\(lost.count), \(gaps.count), \(fixLost.count))")
            case "mid-sentence":
                check(&scenario, "mid-sentence.logged", lost.isEmpty && gaps.count == settings.midSentenceStops,
                      "each silence is one outage of the trip (\(gaps.count) for \(settings.midSentenceStops)), no loss of the source (\(lost.count))")
            case "no-fix":
                let outage = gaps.first.flatMap { gap in
                    gap.detail.split(separator: " ").dropFirst(2).first.flatMap { Double($0) }
                }
                scenario.figures["outage_s"] = outage
                let long = (outage ?? 0) >= settings.noFixSeconds - 10
                check(&scenario, "no-fix.logged", fixLost.count == 1 && regained.count == 1 && gaps.count == 1 && long && lost.isEmpty,
                      "the log has \(fixLost.count) fix-lost, \(regained.count) fix-regained and \(gaps.count) outage "
                          + "(\(gaps.first?.detail ?? "none")) for the spell, no loss of the source")
            default:
                break
            }
            scenarios[index] = scenario
        }

        var stop = scenarios[stopIndex]
        let trips = (try? sqlite3(database, "SELECT COUNT(*) || ' ' || GROUP_CONCAT(state) FROM trip")) ?? ""
        check(&stop, "stop.trip", trips == "1 closed", "one trip, closed at the stop (\(trips))")
        let verify = try? runProgram(settings.trackctl, ["--db", database, "verify"])
        check(&stop, "stop.verify", verify?.status == 0,
              "trackctl verify: \((verify.map { $0.output + $0.error } ?? "did not run").trimmingCharacters(in: .whitespacesAndNewlines).prefix(200))")
        let expected = settings.scenarios.contains("unplug") ? settings.unplugs : 0
        let logged = daemonOutput.components(separatedBy: "source lost").count - 1
        check(&stop, "stop.source-lost", logged == expected,
              "trackd logged 'source lost' \(logged) times, once per unplug (\(expected)), not per attempt or for anything else")
        scenarios[stopIndex] = stop
    }
}
