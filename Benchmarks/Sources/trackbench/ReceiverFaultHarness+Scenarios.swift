#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TrackCore

extension ReceiverFaultHarness {
    // MARK: - Unplugged and plugged in again

    /// The receiver is pulled out mid-sentence after 2–6 s of tracking and plugged in again 3–8 s later, `unplugs`
    /// times: `status` must say lost while it is away and connected after, and the same trip must go on counting.
    func unplug(_ receiver: FaultyReceiver, _ probe: StatusProbe, _ scenario: inout ReceiverFaultScenario) {
        var lost = 0, unpluggedDetail = 0, reconnected = 0, carriedOn = 0
        var latencies: [Double] = []
        var details: Set<String> = []
        for round in 1...settings.unplugs {
            receiver.play(for: noise.seconds(in: 2...6))
            // Pulled in the middle of a sentence: half of the next epoch is the last thing sent.
            receiver.send(noise.halfLine(of: receiver.next.text))
            receiver.unplug()
            let pulled = ContinuousClock.now
            let away = noise.seconds(in: 3...8)
            let absent = probe.wait(upTo: away) { $0.source.state == .lost }
            if absent.held { lost += 1 }
            if let detail = absent.status?.source.detail {
                details.insert(detail)
                if detail.hasPrefix("device \(link) unplugged") { unpluggedDetail += 1 }
            }
            if round == 1, let status = absent.status { scenario.status.append("while unplugged: \(status.harnessSummary)") }
            let distanceAway = absent.status?.trip?.distance ?? 0
            usleep(UInt32(max(0, away - seconds(since: pulled)) * 1_000_000))
            do {
                try receiver.plugIn()
            } catch {
                check(&scenario, "unplug.replug", false, "round \(round): cannot plug in again: \(error)")
                return
            }
            let back = ContinuousClock.now
            receiver.skipToNow()
            // Connected again: `state_age` says when, so the time a status takes does not count.
            var connected: DaemonStatus?
            while connected == nil && seconds(since: back) < 15 {
                receiver.play(for: 0.05)
                if case .success(let status) = probe.status(), status.source.state == .connected { connected = status }
            }
            if let connected {
                reconnected += 1
                latencies.append(max(0, seconds(since: back) - (connected.source.stateAge ?? 0)))
                if round == 1 { scenario.status.append("plugged in again: \(connected.harnessSummary)") }
            }
            // The same trip counts on.
            var after: DaemonStatus?
            let resumed = ContinuousClock.now
            while after == nil && seconds(since: resumed) < 20 {
                receiver.play(for: 0.25)
                if case .success(let status) = probe.status(), (status.trip?.distance ?? 0) > distanceAway + 50 { after = status }
            }
            if let after, after.trip?.number == tripNumber { carriedOn += 1 }
            output("round \(round): away \(String(format: "%.1f", away)) s, "
                   + "lost \(absent.held ? "seen" : "NOT seen"), reconnected \(latencies.last.map { String(format: "%.3f s after the replug", $0) } ?? "NOT"), "
                   + "trip \(after?.trip.map { "\($0.number) at \(Int($0.distance)) m" } ?? "not counting")")
        }
        receiver.play(for: 2)
        let rounds = settings.unplugs
        let sorted = latencies.sorted()
        scenario.figures["rounds"] = Double(rounds)
        scenario.figures["reconnect_median_s"] = sorted.isEmpty ? nil : sorted[(sorted.count - 1) / 2]
        scenario.figures["reconnect_worst_s"] = sorted.last
        check(&scenario, "unplug.lost", lost == rounds, "status said lost while unplugged in \(lost) of \(rounds) rounds")
        check(&scenario, "unplug.detail", unpluggedDetail == rounds,
              "the detail said the device was unplugged in \(unpluggedDetail) of \(rounds) (\(details.sorted().joined(separator: "; ")))")
        check(&scenario, "unplug.reconnected", reconnected == rounds,
              "connected again after \(reconnected) of \(rounds) replugs")
        // The source tries again every 0.5 s, backing off to 2 s: connected within 2.5 s of the device being back.
        let worst = sorted.last ?? .infinity
        check(&scenario, "unplug.reconnect-time", worst <= 2.5,
              String(format: "reconnected within 2.5 s of the replug (median %.3f s, worst %.3f s)",
                     sorted.isEmpty ? Double.nan : sorted[(sorted.count - 1) / 2], worst))
        check(&scenario, "unplug.same-trip", carriedOn == rounds,
              "trip \(tripNumber.map(\.description) ?? "?") counted on after \(carriedOn) of \(rounds) replugs")
    }

    // MARK: - Garbage

    /// For `garbageSeconds`, 70 % of the epochs come after one or two pieces of garbage: `input_problems` must rise
    /// by at least the pieces that are one dropped sentence each, every good epoch must still count, and the
    /// distance must be what the drive covered (no phantom distance).
    func garbage(_ receiver: FaultyReceiver, _ probe: StatusProbe, _ scenario: inout ReceiverFaultScenario) {
        guard case .success(let before) = probe.status() else {
            check(&scenario, "garbage.status", false, "no status before the garbage")
            return
        }
        var kinds: [ReceiverNoise.Garbage: Int] = [:]
        var bytes = 0
        var sampled = false
        let first = receiver.cursor
        let end = ContinuousClock.now + .milliseconds(Int64(settings.garbageSeconds * 1000))
        while ContinuousClock.now < end {
            receiver.play(for: 0.5) { epoch in
                var sent: [UInt8] = []
                if noise.uniform() < 0.7 {
                    for _ in 0..<noise.integer(in: 1...2) {
                        let piece = noise.garbage(around: epoch.text)
                        kinds[piece.kind, default: 0] += 1
                        sent += piece.bytes
                    }
                }
                bytes += sent.count
                return sent + Array(epoch.text.utf8)
            }
            if !sampled, case .success(let status) = probe.status() {
                scenario.status.append("amid the garbage: \(status.harnessSummary)")
                sampled = true
            }
        }
        let garbageEpochs = first..<receiver.cursor
        // Clean epochs after it, so that the last epoch of the garbage is delivered.
        receiver.play(for: 1)
        let played = first..<receiver.cursor
        guard case .success(let after) = probe.status() else {
            check(&scenario, "garbage.status", false, "no status after the garbage")
            return
        }
        scenario.status.append("after the garbage: \(after.harnessSummary)")
        let pieces = kinds.values.reduce(0, +)
        let sure = kinds.filter { $0.key.isOneProblem }.values.reduce(0, +)
        let problems = after.inputProblems - before.inputProblems
        // What trackd handled in between, by GPS time (it may be a few epochs behind what was sent).
        let handled = epochs(receiver.drive, after: before.lastPosition?.time, through: after.lastPosition?.time)
        let withPosition = handled.filter { receiver.drive.epochs[$0].hasPosition }.count
        let counted = after.positionFixes - before.positionFixes
        let driven = drivenMetres(receiver.drive, handled)
        let measured = (after.trip?.distance ?? 0) - (before.trip?.distance ?? 0)
        scenario.figures["epochs_sent"] = Double(played.count)
        scenario.figures["epochs"] = Double(garbageEpochs.count)
        scenario.figures["pieces"] = Double(pieces)
        scenario.figures["garbage_bytes"] = Double(bytes)
        for (kind, count) in kinds { scenario.figures["pieces_\(kind.rawValue)"] = Double(count) }
        scenario.figures["input_problems"] = Double(problems)
        scenario.figures["driven_m"] = driven
        scenario.figures["measured_m"] = measured
        let mix = ReceiverNoise.Garbage.allCases.map { "\(kinds[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", ")
        check(&scenario, "garbage.problems", problems >= sure,
              "input_problems rose by \(problems) for \(pieces) pieces of garbage (\(mix); \(sure) are one dropped sentence each) in \(garbageEpochs.count) epochs")
        // One epoch may be on its way at either end.
        check(&scenario, "garbage.fixes", counted == withPosition,
              "every good epoch counted: position_fixes rose by \(counted) for the \(withPosition) epochs sent from the last position before to the last after")
        check(&scenario, "garbage.distance", abs(measured - driven) <= driven * 0.05 + 20,
              String(format: "no phantom distance: the trip grew by %.0f m while the drive covered %.0f m", measured, driven))
        check(&scenario, "garbage.connected", after.source.state == .connected && after.trip?.number == tripNumber,
              "the source stayed connected and trip \(tripNumber.map(\.description) ?? "?") ran on")
    }

    // MARK: - Stopping mid-sentence

    /// `midSentenceStops` times the receiver stops in the middle of a sentence, is silent 2–5 s, and starts again
    /// with whole epochs: the half sentence must be one dropped sentence, and the fixes must go on.
    func midSentence(_ receiver: FaultyReceiver, _ probe: StatusProbe, _ scenario: inout ReceiverFaultScenario) {
        var dropped: [Int] = []
        var resumed = 0
        for stop in 1...settings.midSentenceStops {
            receiver.play(for: noise.seconds(in: 2...4))
            guard case .success(let before) = probe.status() else { continue }
            let cutTime = receiver.next.time
            let half = noise.halfLine(of: receiver.next.text)
            receiver.send(half)
            let silence = noise.seconds(in: 2...5)
            usleep(UInt32(silence / 2 * 1_000_000))
            if stop == 1, case .success(let status) = probe.status() {
                scenario.status.append("silent after half a sentence: \(status.harnessSummary)")
            }
            usleep(UInt32(silence / 2 * 1_000_000))
            receiver.skipToNow()
            let from = receiver.cursor
            receiver.play(for: 2)
            guard case .success(let after) = probe.status() else { continue }
            if stop == 1 { scenario.status.append("after it resumed: \(after.harnessSummary)") }
            dropped.append(after.inputProblems - before.inputProblems)
            // The epochs handled in between: those sent before the cut, the cut one only if its RMC was whole, and
            // those after the silence (the skipped ones, never sent, are not in the count).
            let beforeCut = epochs(receiver.drive, after: before.lastPosition?.time, through: cutTime)
            let afterSilence = epochs(receiver.drive, after: receiver.drive.epochs[from].time.adding(seconds: -0.001),
                                      through: after.lastPosition?.time)
            let sent = (Array(beforeCut) + Array(afterSilence)).filter { receiver.drive.epochs[$0].hasPosition }.count
            let fixes = after.positionFixes - before.positionFixes
            // The distance grows unless the car stood (at a red light) after the silence.
            let grew = (after.trip?.distance ?? 0) - (before.trip?.distance ?? 0)
            let stood = drivenMetres(receiver.drive, afterSilence) < 20
            if fixes == sent || fixes == sent - 1, after.source.state == .connected, after.trip?.number == tripNumber,
               grew > 0 || (stood && grew >= 0) {
                resumed += 1
            }
            output("stop \(stop): \(half.count) bytes of \"\(String(decoding: half.suffix(24), as: UTF8.self))…\", "
                   + "silent \(String(format: "%.1f", silence)) s, \(dropped.last ?? 0) dropped, \(fixes) fixes for \(sent) whole epochs sent, "
                   + String(format: "trip +%.0f m (the drive %.0f m after the silence)", grew, drivenMetres(receiver.drive, afterSilence)))
        }
        let stops = settings.midSentenceStops
        scenario.figures["stops"] = Double(stops)
        scenario.figures["input_problems"] = Double(dropped.reduce(0, +))
        check(&scenario, "mid-sentence.dropped", dropped == Array(repeating: 1, count: stops),
              "each half sentence was one dropped sentence (input_problems rose by \(dropped.map(String.init).joined(separator: ", ")))")
        check(&scenario, "mid-sentence.resumed", resumed == stops,
              "the fixes, the trip and its distance went on after \(resumed) of \(stops) stops, the source connected throughout")
    }

    // MARK: - No fix

    /// For `noFixSeconds` of GPS time the receiver sends epochs without a fix (RMC `V`, GGA quality 0): no distance,
    /// no position, the trip kept, memory flat; then fixes return and tracking goes on.
    func noFix(_ receiver: FaultyReceiver, _ probe: StatusProbe, _ scenario: inout ReceiverFaultScenario) {
        let wall = settings.noFixSeconds / settings.speed
        let shape: (RecordedDrive.Epoch) -> [UInt8] = { Array(ReceiverNoise.noFixEpoch(like: $0.text).utf8) }
        let first = receiver.cursor
        // Long enough for the last fix before it to be handled.
        receiver.play(for: min(2, wall), shape: shape)
        guard case .success(let early) = probe.status() else {
            check(&scenario, "no-fix.status", false, "no status at the start of the no-fix spell")
            return
        }
        scenario.status.append("no fix, \(String(format: "%.0f", (receiver.next.time.seconds(since: receiver.drive.epochs[first].time)))) s in: "
                               + "\(early.harnessSummary); status line: \(early.summaryLine)")
        var rss: [Int] = probe.residentKilobytes().map { [$0] } ?? []
        let started = ContinuousClock.now
        var nextSample = 10.0
        while seconds(since: started) < wall - 2 {
            receiver.play(for: min(1, wall - 2 - seconds(since: started)), shape: shape)
            if seconds(since: started) >= nextSample {
                nextSample += 10
                if let kilobytes = probe.residentKilobytes() { rss.append(kilobytes) }
            }
        }
        let spell = first..<receiver.cursor
        if let kilobytes = probe.residentKilobytes() { rss.append(kilobytes) }
        guard case .success(let late) = probe.status() else {
            check(&scenario, "no-fix.status", false, "no status at the end of the no-fix spell")
            return
        }
        let spellSeconds = receiver.drive.epochs[spell.upperBound - 1].time.seconds(since: receiver.drive.epochs[spell.lowerBound].time) + 1
        scenario.status.append("no fix, \(Int(spellSeconds)) s in: \(late.harnessSummary); status line: \(late.summaryLine)")

        // Fixes return.
        var back: DaemonStatus?
        let returned = ContinuousClock.now
        while back == nil && seconds(since: returned) < 30 {
            receiver.play(for: 0.25)
            if case .success(let status) = probe.status(), status.positionFixes >= late.positionFixes + 20,
               (status.trip?.distance ?? 0) > (late.trip?.distance ?? 0) + 50 {
                back = status
            }
        }
        receiver.play(for: 2)
        if let back { scenario.status.append("fixes back: \(back.harnessSummary)") }

        scenario.figures["gps_seconds"] = spellSeconds
        scenario.figures["wall_seconds"] = seconds(since: started) + 2
        scenario.figures["epochs"] = Double(spell.count)
        scenario.figures["rss_start_kb"] = rss.first.map(Double.init)
        scenario.figures["rss_end_kb"] = rss.last.map(Double.init)
        scenario.figures["rss_max_kb"] = rss.max().map(Double.init)
        scenario.figures["distance_before_m"] = early.trip?.distance
        scenario.figures["distance_after_m"] = late.trip?.distance
        let epochsSeen = late.epochs - early.epochs
        let expected = spell.count - (first..<min(spell.upperBound, first + Int(2 * settings.speed / receiver.drive.epochInterval))).count
        check(&scenario, "no-fix.no-distance", late.trip?.distance == early.trip?.distance,
              String(format: "no distance while there was no fix (trip at %.1f m, then %.1f m)",
                     early.trip?.distance ?? -1, late.trip?.distance ?? -1))
        check(&scenario, "no-fix.no-position", late.positionFixes == early.positionFixes && late.lastFix?.mode == .noFix
                  && late.lastPosition?.time == early.lastPosition?.time,
              "no position invented: position_fixes stayed at \(late.positionFixes), last fix '\(late.lastFix.map { "\($0.mode)" } ?? "none")', "
                  + "last position \(late.lastPositionAge.map { String(format: "%.0f s", $0) } ?? "?") old")
        // The status is taken the moment the spell's last epoch is sent: trackd may still hold the last second's
        // worth (an epoch is complete at the next one or after 0.5 s of quiet, and a loaded machine lags), so up to
        // one wall second of epochs may not be counted yet; more than that missing means trackd stopped reading.
        let lag = max(2, Int((settings.speed / receiver.drive.epochInterval).rounded(.up)))
        check(&scenario, "no-fix.epochs", epochsSeen >= expected - lag && late.source.state == .connected,
              "the receiver was read on: epochs rose by \(epochsSeen) (about \(expected) sent, up to \(lag) may still be "
                  + "on their way), source \(late.source.state)")
        let growth = (rss.last ?? 0) - (rss.first ?? 0)
        check(&scenario, "no-fix.memory", !rss.isEmpty && growth <= 16 * 1024,
              "memory flat: RSS \(rss.first.map(String.init) ?? "?") kB at the start, \(rss.last.map(String.init) ?? "?") kB at the end, "
                  + "at most \(rss.max().map(String.init) ?? "?") kB (\(rss.count) samples)")
        check(&scenario, "no-fix.trip", late.trip?.number == tripNumber && late.trip?.idleAlerts == early.trip?.idleAlerts,
              "trip \(tripNumber.map(\.description) ?? "?") kept running, no idle alert (the car was driving)")
        check(&scenario, "no-fix.resumed", back != nil,
              "tracking resumed when fixes returned: \(back.map { "position_fixes \($0.positionFixes), trip at \(Int($0.trip?.distance ?? 0)) m" } ?? "not within 30 s")")
    }

    /// The drive's epochs later than `start` up to and including `end`.
    func epochs(_ drive: RecordedDrive, after start: UTCTime?, through end: UTCTime?) -> Range<Int> {
        guard let end else { return 0..<0 }
        let lower = start.flatMap { drive.firstIndex(after: $0) } ?? 0
        let upper = drive.firstIndex(after: end) ?? drive.epochs.count
        return lower..<max(lower, upper)
    }

    /// What the drive covered to reach each of `epochs` from the epoch before, metres: the mean of their speeds
    /// times the time between them.
    func drivenMetres(_ drive: RecordedDrive, _ epochs: Range<Int>) -> Double {
        epochs.filter { $0 > 0 }.reduce(0) { sum, index in
            sum + (drive.epochs[index - 1].speed + drive.epochs[index].speed) / 2
                * drive.epochs[index].time.seconds(since: drive.epochs[index - 1].time)
        }
    }
}
