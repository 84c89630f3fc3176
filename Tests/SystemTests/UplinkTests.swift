import Foundation
import TestSupport
import Testing
import TrackCore

/// The uplink through the real daemon and a real mosquitto on loopback: what the log holds arrives at a subscriber,
/// in order, once, and what could not be sent while the broker was away is sent when it is back (docs/fleet.md).
@Suite(.serialized)
struct UplinkTests {
    static let device = "test-car"

    /// The configuration for a broker on `port`, an idle alert after ten minutes.
    static func configuration(port: Int) -> String {
        """
        engine:
          idle_alert_after: 600
        uplink:
          mqtt: mqtt://127.0.0.1:\(port)
          device: \(device)
          reconnect_max: 2
          watermark_interval: 1
        """
    }

    /// The ids the log holds, in the log's order: each trip's start, its points, its idle alerts, its end.
    static func storedPointIDs(_ database: String) async throws -> [String] {
        try await query(database, "SELECT trip_id || '/' || seq FROM track_point ORDER BY trip_id, seq")
            .split(separator: "\n").map { "\(device)/\($0)" }
    }

    /// The received messages' ids, of one `_type` or all.
    static func ids(_ messages: [(topic: String, payload: String)], type: String? = nil) throws -> [String] {
        try messages.compactMap { message in
            guard !message.topic.hasSuffix("/state") else { return nil }   // online, offline: plain text
            guard let object = try json(message.payload) as? [String: Any] else { return nil }
            guard type == nil || object["_type"] as? String == type else { return nil }
            return object["id"] as? String
        }
    }

    /// Each GPS trip's start as the last `start` message with its id carries it (the start message, or the start
    /// sent again before the end once it settled) is the start the log keeps: time, position.
    static func expectStartsAsLogged(_ messages: [(topic: String, payload: String)], database: String,
                                     sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let rows = try await query(database, """
            SELECT id, substr(start_time, 1, 19) || 'Z', start_lat, start_lon FROM trip
            WHERE source = 'gps' AND state != 'deleted' ORDER BY id
            """).split(separator: "\n")
        #expect(!rows.isEmpty, "the log holds a GPS trip", sourceLocation: sourceLocation)
        for row in rows {
            let fields = row.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            let id = "\(device)/\(fields[0])/start"
            let starts = try messages.compactMap { message -> [String: Any]? in
                guard message.topic.hasSuffix("/trip"), let object = try json(message.payload) as? [String: Any],
                      object["id"] as? String == id else { return nil }
                return object
            }
            let start = try #require(starts.last, "a start message for trip \(fields[0])", sourceLocation: sourceLocation)
            #expect(start["start"] as? String == fields[1], "trip \(fields[0]): \(start)", sourceLocation: sourceLocation)
            for (key, logged) in [("start_lat", fields[2]), ("start_lon", fields[3])] {
                let expected = Double(logged).map { ($0 * 1e7).rounded() / 1e7 }
                #expect(start[key] as? Double == expected, "trip \(fields[0]) \(key): \(start[key] ?? "none"), the log \(logged)",
                        sourceLocation: sourceLocation)
            }
        }
    }

    /// The ids of `sent` that came before one the log holds ahead of them (`order`): positions sent ahead.
    static func sentAhead(_ sent: [String], order: [String]) -> Set<String> {
        let position = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var ahead: Set<String> = []
        var lowestAfter = Int.max
        for id in sent.reversed() {
            guard let here = position[id] else { continue }
            if here > lowestAfter { ahead.insert(id) }
            lowestAfter = min(lowestAfter, here)
        }
        return ahead
    }

    /// The ids received, with the start sent again right before the end (once it settled) taken out.
    static func idsWithoutSettledStarts(_ messages: [(topic: String, payload: String)]) throws -> [String] {
        var ids = try Self.ids(messages)
        for index in ids.indices.reversed() where index > 0 && ids[index].hasSuffix("/end") {
            let start = String(ids[index].dropLast("end".count)) + "start"
            if ids[index - 1] == start && ids[..<(index - 1)].contains(start) { ids.remove(at: index - 1) }
        }
        return ids
    }

    /// A broker, and a subscriber to everything the cars send that has subscribed.
    static func brokerWithSubscriber(in folder: TemporaryFolder,
                                     output: String) async throws -> (MosquittoBroker, MosquittoSubscriber) {
        let broker = try MosquittoBroker(folder: folder.path)
        let subscriber = try MosquittoSubscriber(port: broker.port, topic: "owntracks/#", outputPath: output)
        guard await poll(upTo: 20, { broker.hasSubscription("trackd-test-subscriber", "owntracks/#") }) else {
            subscriber.stop()
            broker.stop()
            throw SubprocessError("the subscriber did not subscribe: \(broker.log.suffix(1000))")
        }
        return (broker, subscriber)
    }

    /// The drive, then the car parked where it ended long enough for an idle alert (at ten minutes).
    static func drive(in folder: TemporaryFolder, parked seconds: Int) throws -> String {
        let drive = folder.file("drive.nmea")
        try FileManager.default.copyItem(atPath: DriveLog.demo, toPath: drive)
        try DriveLog.appendParking(to: drive, seconds: seconds)
        return drive
    }

    @Test func everyStoredPointTheTripsStartAndEndAndTheIdleAlertArriveInOrderOnce() async throws {
        let folder = try TemporaryFolder()
        let brokerFolder = try TemporaryFolder()
        let (broker, subscriber) = try await Self.brokerWithSubscriber(in: brokerFolder, output: folder.file("received.txt"))
        defer { subscriber.stop(); broker.stop() }

        let drive = try Self.drive(in: folder, parked: 700)
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(drive)?speed=20", autoStart: "business",
                                            configuration: Self.configuration(port: broker.port))
        // The recording ends, and trackd with it: the trip closes, and what is left is sent before it goes.
        #expect(await poll(upTo: 240) { !daemon.process.isRunning }, "\(daemon.process.output)")
        #expect(daemon.process.exitStatus == 0, "\(daemon.process.output)")

        let points = try await Self.storedPointIDs(daemon.database)
        #expect(points.count > 500, "the drive stored its track")
        let expected = ["\(Self.device)/1/start"] + points
        #expect(await poll(upTo: 20) { (try? Self.ids(subscriber.messages).last) == "\(Self.device)/1/end" },
                "\(subscriber.messages.suffix(3))")
        // A goodbye at the stop: the broker publishes no last will.
        #expect(await broker.saidGoodbye(Self.device) == true, "\(broker.log.suffix(800))")
        // The start as the log keeps it, sent again before the end if it settled after the start message.
        try await Self.expectStartsAsLogged(subscriber.messages, database: daemon.database)
        let received = try Self.idsWithoutSettledStarts(subscriber.messages)
        #expect(Set(received).count == received.count, "each message once")
        let alerts = try Self.ids(subscriber.messages, type: "event")
        #expect(alerts.count == 1, "\(subscriber.messages.filter { $0.topic.hasSuffix("/event") }.map(\.payload))")
        let alertPayload = try #require(subscriber.messages.first { $0.payload.contains("\"idle-alert\"") })
        #expect(alertPayload.topic == "owntracks/trackd/\(Self.device)/event")
        // In order: the start, every point, then the alert (raised while parked, after the last point), the end;
        // but for the live position sent ahead when the uplink fell behind (a full window: docs/fleet.md, "A
        // backlog"), which a slow build (a sanitizer's) brings about without an outage: it comes once, early.
        let sent = Array(received.filter { !alerts.contains($0) }.dropLast())
        let ahead = Self.sentAhead(sent, order: expected)
        #expect(ahead.count * 10 < sent.count, "a few positions ahead of the log's order, not the order lost: \(ahead.count)")
        let inOrder = sent.filter { !ahead.contains($0) }
        let inLogOrder = expected.filter { !ahead.contains($0) }
        let firstDifference = Array(zip(inOrder, inLogOrder)).firstIndex { $0.0 != $0.1 }
        let difference = firstDifference.map { "\(inOrder[$0]) for \(inLogOrder[$0]) at \($0)" } ?? "none"
        #expect(inOrder.count == inLogOrder.count && firstDifference == nil,
                "\(inOrder.count) received, \(inLogOrder.count) expected; first difference: \(difference)")
        let alertIndex = try #require(received.firstIndex(of: alerts[0]))
        #expect(alertIndex > received.firstIndex(of: points[points.count / 2])!)
        // The positions are OwnTracks locations on the car's topic.
        let location = try #require(subscriber.messages.first { $0.payload.contains("\"location\"") })
        #expect(location.topic == "owntracks/trackd/\(Self.device)")
        let fields = try #require(try json(location.payload) as? [String: Any])
        #expect(fields["lat"] is Double && fields["lon"] is Double && fields["tst"] is Int, "\(fields)")
        // The retained state: offline, said at the stop.
        #expect(subscriber.messages.last { $0.topic.hasSuffix("/state") }?.payload == "offline")
        // The watermark the log keeps: the trip's end.
        let watermark = try await query(daemon.database, "SELECT trip_id, ended FROM uplink_cursor WHERE transport = 'mqtt'")
        #expect(watermark.trimmingCharacters(in: .whitespacesAndNewlines) == "1|1")
    }

    @Test func whatTheBrokerMissedWhileDownArrivesWhenItIsBackNewestPositionFirst() async throws {
        let folder = try TemporaryFolder()
        let brokerFolder = try TemporaryFolder()
        let (broker, subscriber) = try await Self.brokerWithSubscriber(in: brokerFolder, output: folder.file("received.txt"))
        defer { subscriber.stop(); broker.stop() }

        // 16 minutes of driving and 40 parked, at 20 times their speed: 48 s, then 120 s.
        let drive = try Self.drive(in: folder, parked: 2400)
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(drive)?speed=20", autoStart: "business",
                                            configuration: Self.configuration(port: broker.port))
        // The broker goes 4 minutes into the drive (08:04 by the recording's GPS time) and is away until ten
        // minutes after its end (08:16).
        #expect(await daemon.reached("2026-11-22T08:04:00"), "\(daemon.process.output)")
        broker.stop()
        #expect(await daemon.reached("2026-11-22T08:26:00"), "\(daemon.process.output)")
        let before = try Self.ids(subscriber.messages, type: "location").count
        let storedWhileDown = try await Self.storedPointIDs(daemon.database)
        #expect(storedWhileDown.count > before + 100, "\(storedWhileDown.count) stored, \(before) received")
        try broker.start()

        let received = await poll(upTo: 60) {
            let ids = (try? Self.ids(subscriber.messages, type: "location")) ?? []
            return Set(ids).isSuperset(of: storedWhileDown)
        }
        #expect(received, "every point stored while the broker was away arrives")
        let locations = try Self.ids(subscriber.messages, type: "location")
        // The first new position after the return is the newest (at most a few seconds old), not the oldest missed.
        // (Messages in flight when the broker went may come again first: libmosquitto resends what was not
        // acknowledged as soon as the session is back; those are repeats of what arrived before.)
        let firstBack = try #require(locations.dropFirst(before).first { !locations.prefix(before).contains($0) })
        let missed = storedWhileDown.filter { !locations.prefix(before).contains($0) }
        #expect(firstBack != missed.first, "the newest first: \(firstBack), the oldest missed \(missed.first ?? "")")
        #expect(storedWhileDown.firstIndex(of: firstBack) == nil || storedWhileDown.last == firstBack,
                "\(firstBack) is the live position, not one from the backlog")
        // Nothing twice but what was in flight when the broker went.
        let repeats = locations.count - Set(locations).count
        #expect(repeats <= 100, "\(repeats) repeats, at most the window in flight")
        await daemon.stop()
        #expect(await poll(upTo: 20) { (try? Self.ids(subscriber.messages).last) == "\(Self.device)/1/end" })
        try await Self.expectStartsAsLogged(subscriber.messages, database: daemon.database)
    }

    @Test func aPrivateTripInPrivacyModeSendsNothingOfItsRoute() async throws {
        let folder = try TemporaryFolder()
        let brokerFolder = try TemporaryFolder()
        let (broker, subscriber) = try await Self.brokerWithSubscriber(in: brokerFolder, output: folder.file("received.txt"))
        defer { subscriber.stop(); broker.stop() }

        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=20",
                                            autoStart: "private", configuration: Self.configuration(port: broker.port))
        #expect(await poll(upTo: 240) { !daemon.process.isRunning }, "\(daemon.process.output)")
        #expect(await poll(upTo: 20) { (try? Self.ids(subscriber.messages).last) == "\(Self.device)/1/end" },
                "\(subscriber.messages)")
        #expect(try Self.ids(subscriber.messages, type: "location").isEmpty)
        try await Self.expectStartsAsLogged(subscriber.messages, database: daemon.database)
        let end = try #require(subscriber.messages.first { $0.payload.contains("\"\(Self.device)/1/end\"") })
        let fields = try #require(try json(end.payload) as? [String: Any])
        #expect(fields["kind"] as? String == "private" && fields["route"] as? String == "withheld")
        #expect((fields["distance"] as? Double ?? 0) > 5, "its distance, measured")
        // No position in anything the broker was sent: no latitude, longitude or place of any kind.
        for message in subscriber.messages {
            for key in ["\"lat\"", "\"lon\"", "_lat\"", "_lon\"", "_place\"", "_address\""] {
                #expect(!message.payload.contains(key), "\(message.topic): \(message.payload)")
            }
        }
    }

    @Test func aReloadPointsTheUplinkAtAnotherBrokerWithoutLosingAPoint() async throws {
        let folder = try TemporaryFolder()
        let firstFolder = try TemporaryFolder()
        let secondFolder = try TemporaryFolder()
        let first = try MosquittoBroker(folder: firstFolder.path)
        defer { first.stop() }
        let second = try MosquittoBroker(folder: secondFolder.path)
        defer { second.stop() }
        let atFirst = try MosquittoSubscriber(port: first.port, topic: "owntracks/#", outputPath: folder.file("first.txt"))
        defer { atFirst.stop() }
        let atSecond = try MosquittoSubscriber(port: second.port, topic: "owntracks/#", outputPath: folder.file("second.txt"))
        defer { atSecond.stop() }
        #expect(await poll(upTo: 20) {
            first.hasSubscription("trackd-test-subscriber", "owntracks/#")
                && second.hasSubscription("trackd-test-subscriber", "owntracks/#")
        })
        let drive = try Self.drive(in: folder, parked: 600)
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(drive)?speed=20", autoStart: "business",
                                            configuration: Self.configuration(port: first.port))
        #expect(await poll(upTo: 60) { ((try? Self.ids(atFirst.messages, type: "location")) ?? []).count > 50 })
        // The new broker in the file, and a reload (SIGHUP, as `systemctl reload trackd` sends).
        try Data(Self.configuration(port: second.port).utf8).write(to: URL(fileURLWithPath: "\(folder.path)/trackd.yaml"))
        daemon.send(SIGHUP)
        #expect(await poll(upTo: 120) { !daemon.process.isRunning }, "the recording ends, trackd with it")
        let stored = try await Self.storedPointIDs(daemon.database)
        let arrived = Set(try Self.ids(atFirst.messages, type: "location") + Self.ids(atSecond.messages, type: "location"))
        #expect(arrived.isSuperset(of: stored), "\(Set(stored).subtracting(arrived).count) points arrived at neither")
        #expect(try Self.ids(atSecond.messages, type: "location").count > 100, "the rest went to the new broker")
        #expect(daemon.process.output.contains("uplink settings reloaded"), "\(daemon.process.output)")
        #expect(await poll(upTo: 20) { (try? Self.ids(atSecond.messages).last) == "\(Self.device)/1/end" })
        try await Self.expectStartsAsLogged(atFirst.messages + atSecond.messages, database: daemon.database)
    }

    /// Drives, parks, is killed once everything stored was acknowledged, and starts again: the ids of the first
    /// trip the subscriber received, and how many arrived before the kill. `memory`: a runtime folder in memory.
    static func killedAndStartedAgain(memory: TemporaryFolder?) async throws -> (ids: [String], beforeKill: Int) {
        let folder = try TemporaryFolder()
        let brokerFolder = try TemporaryFolder()
        let (broker, subscriber) = try await Self.brokerWithSubscriber(in: brokerFolder, output: folder.file("received.txt"))
        defer { subscriber.stop(); broker.stop() }
        // The watermark in the log is written only at a stop, which a kill does not allow.
        // No idle alert while parked (one raised between the count and the kill would blur it).
        let configuration = Self.configuration(port: broker.port)
            .replacingOccurrences(of: "watermark_interval: 1", with: "watermark_interval: 600")
            .replacingOccurrences(of: "idle_alert_after: 600", with: "idle_alert_after: 7200")
        let environment = memory.map { ["RUNTIME_DIRECTORY": $0.path] } ?? [:]
        let arguments = ["--socket", "\(folder.path)/control.sock"]
        let drive = try Self.drive(in: folder, parked: 3000)
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(drive)?speed=20", autoStart: "business",
                                            configuration: configuration, extraArguments: arguments,
                                            environment: environment)
        // Parked: nothing new is stored, and everything stored has arrived and was acknowledged.
        let settled = await poll(upTo: 120) {
            guard let stored = try? await Self.storedPointIDs(daemon.database), stored.count > 500,
                  let received = try? Self.ids(subscriber.messages), Set(received).isSuperset(of: stored),
                  let uplink = await daemon.status()?["uplink"] as? [String: Any] else { return false }
            return uplink["in_flight"] as? Int == 0 && uplink["backlog_points"] as? Int == 0
        }
        #expect(settled, "\(daemon.process.output)")
        let beforeKill = try Self.ids(subscriber.messages).count
        await daemon.kill()
        let watermark = try await query(daemon.database, "SELECT count(*) FROM uplink_cursor")
        #expect(watermark.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "no watermark in the log yet")

        // Started again: the open trip is closed as a power cut's, and its end is sent.
        let again = try await Trackd.start(state: folder.path, source: "file://\(drive)?speed=20", configuration: configuration,
                                           run: 1, extraArguments: arguments, environment: environment)
        #expect(await poll(upTo: 60) { (try? Self.ids(subscriber.messages))?.contains("\(Self.device)/1/end") == true },
                "\(again.process.output)")
        await again.stop()
        // The start again before the end: this life cannot know which start the last one sent.
        try await Self.expectStartsAsLogged(subscriber.messages, database: again.database)
        let ids = try Self.idsWithoutSettledStarts(subscriber.messages).filter { $0.hasPrefix("\(Self.device)/1/") }
        return (ids, beforeKill)
    }

    @Test func aDaemonKilledAndStartedAgainSendsNothingTwiceThatTheBrokerAcknowledged() async throws {
        let memory = try TemporaryFolder(in: "/dev/shm")
        let (ids, beforeKill) = try await Self.killedAndStartedAgain(memory: memory)
        #expect(beforeKill > 500)
        #expect(ids.count == Set(ids).count, "\(ids.count - Set(ids).count) repeats")
        #expect(ids.last == "\(Self.device)/1/end")
    }

    @Test func withoutAMarkInMemoryARestartSendsAgainWhatWasAcknowledgedSinceTheLogsWatermark() async throws {
        let (ids, beforeKill) = try await Self.killedAndStartedAgain(memory: nil)
        // The log's watermark was never written: everything of the trip is sent again, each once more.
        #expect(ids.count - Set(ids).count == beforeKill, "\(ids.count) received, \(Set(ids).count) distinct")
        #expect(Set(ids).contains("\(Self.device)/1/end"))
    }
}
