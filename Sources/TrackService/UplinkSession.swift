import FoundationEssentials
import Logging
import TrackCore
import TrackStore
import TrackUplink

/// The uplink's state, owned by `UplinkService.run` alone.
struct UplinkSession {
    let service: UplinkService
    let inputs: AsyncStream<UplinkService.Input>.Continuation
    /// The settings of the present connection (a reload's take effect at the next).
    var settings: LiveUplinkConfiguration.Values
    var configuration: UplinkConfiguration { settings.configuration }
    var device: String { settings.device }
    /// The broker (there is one: the service runs only with a broker).
    var broker: MQTTAddress { settings.configuration.mqtt ?? MQTTAddress(host: "localhost", port: 1883, tls: false) }
    /// The topic of the car's state (`online`, `offline`: the last will).
    var stateTopic: String { "\(configuration.baseTopic(device: device))/state" }
    var window: UplinkWindow
    var client: MQTTClient?
    /// The number of the present connection: events of an earlier one are stale.
    var connection = 0
    var state = UplinkStatus.State.waiting
    var stateSince: MonotonicInstant
    var detail: String?
    var retryAt: MonotonicInstant?
    var failures = 0
    var watermark: UplinkWatermark
    var acknowledgedCount = 0
    /// GPS times of the positions in flight, by message id; the newest the broker acknowledged.
    var pointTimes: [Int32: UTCTime] = [:]
    var lastAcknowledgedTime: UTCTime?
    var backlogPoints = 0
    var backlogCountedAt: MonotonicInstant?
    /// Bytes of the location messages sent (topic and payload) and their number: the average sizes the backlog.
    var locationBytes = 0
    var locations = 0
    /// Whether the last read from the log filled the window (more waits behind it).
    var behind = false
    /// Whether the last read from the log found nothing new.
    var lastReadEmpty = false
    /// The start messages published on this connection or an earlier one of this life, by trip, until the trip's
    /// end: a start that settled since (the engine refines it for minutes after the car leaves) is sent again.
    var sentStarts: [TripID: [UInt8]] = [:]
    var encoder: JSONEncoder

    init(service: UplinkService, watermark: UplinkWatermark, mark: UplinkMark,
         inputs: AsyncStream<UplinkService.Input>.Continuation) {
        self.service = service
        self.inputs = inputs
        settings = service.settings.values
        window = UplinkWindow(resuming: mark, limit: settings.configuration.window)
        stateSince = service.clock()
        self.watermark = watermark
        encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
    }

    var logger: Logger { service.logger }

    mutating func start() async {
        await connect()
    }

    /// Whether everything the log holds was acknowledged.
    var isDrained: Bool { window.inFlight == 0 && !behind && lastReadEmpty }

    mutating func handle(_ input: UplinkService.Input) async {
        switch input {
        case .mqtt(let event, let number):
            guard number == connection else { return }   // from a connection already closed
            await handle(event)
        case .tick:
            let now = service.clock()
            if client == nil, let retryAt, now >= retryAt { await connect() }
            // Reloaded settings: a new connection with them, at once.
            if service.settings.values.generation != settings.generation {
                logger.notice("uplink settings reloaded: connecting again", metadata: ["broker": "\(service.settings.values.configuration.mqtt.map { "\($0)" } ?? "none")"])
                client?.close()
                client = nil
                window.reset()
                await save(force: true)
                await connect()
            }
            // A connection that neither comes up nor fails (a host that does not answer, a broker that never sends
            // its CONNACK): given up after `connectTimeout`, with what libmosquitto logged.
            if state == .connecting, let client, now.seconds(since: stateSince) > configuration.connectTimeout {
                await cannotConnect(client.lastNote ?? "no answer within \(Int(configuration.connectTimeout)) s")
            }
            if state == .connected { await pump(mayGoAhead: true) }
            await save()
            await publishStatus(now: now)
        case .stop:
            await pump(mayGoAhead: false)
        }
    }

    mutating func handle(_ event: MQTTEvent) async {
        switch event {
        case .connected:
            failures = 0
            set(.connected, detail: nil)
            logger.info("uplink connected", metadata: ["broker": "\(broker)", "device": "\(device)"])
            _ = try? client?.publish(topic: stateTopic, payload: Array("online".utf8), retain: true)
            await pump(mayGoAhead: true)
        case .refused(let code, let reason):
            logger.error("uplink refused by the broker", metadata: [
                "broker": "\(broker)", "reason": "\(reason)", "code": "\(code)"])
            await drop(.refused, detail: "refused: \(reason)")
        case .disconnected(_, let reason) where state == .connecting:
            await cannotConnect(reason)
        case .disconnected(_, let reason):
            logger.warning("uplink lost", metadata: ["broker": "\(broker)", "reason": "\(reason)",
                                                     "in_flight": "\(window.inFlight)"])
            await drop(.waiting, detail: reason)
        case .acknowledged(let token):
            let inFlight = window.inFlight
            window.acknowledge(token)
            if window.inFlight < inFlight {
                acknowledgedCount += 1
                watermark.note(window.mark)
            }
            if let time = pointTimes.removeValue(forKey: token) {
                lastAcknowledgedTime = max(lastAcknowledgedTime ?? time, time)
            }
            if state == .connected && window.inFlight <= configuration.window / 2 {
                await pump(mayGoAhead: false)
            }
        }
    }

    /// Starts a connection (a new client each time); a failure to start waits like a lost connection.
    mutating func connect() async {
        settings = service.settings.values
        guard settings.configuration.mqtt != nil else {   // a reload took the broker away
            retryAt = nil
            set(.waiting, detail: "no broker configured (uplink.mqtt)")
            return
        }
        connection += 1
        let number = connection
        let inputs = self.inputs
        retryAt = nil
        set(.connecting, detail: nil)
        do throws(MQTTError) {
            let client = try MQTTClient(options()) { event in inputs.yield(.mqtt(event, connection: number)) }
            self.client = client
            try client.connect()
        } catch {
            await cannotConnect("\(error)")
        }
    }

    /// The connection could not be made: said, and tried again after the wait.
    mutating func cannotConnect(_ reason: String) async {
        logger.warning("uplink cannot connect", metadata: ["broker": "\(broker)", "error": "\(reason)"])
        await drop(.waiting, detail: reason)
    }

    /// The connection is gone: what was in flight is sent again from the watermark after the wait.
    mutating func drop(_ newState: UplinkStatus.State, detail: String) async {
        client?.close()
        client = nil
        connection += 1   // what the closed client still reports is stale
        window.reset()
        pointTimes.removeAll()
        failures += 1
        let wait = configuration.reconnectWait(afterFailures: failures, refused: newState == .refused)
        retryAt = service.clock().adding(seconds: wait)
        set(newState, detail: "\(detail); trying again in \(Int(wait.rounded(.up))) s")
        await save(force: true)
    }

    /// Sends what the window has room for: with a backlog, the newest position first (once a tick), then the
    /// backlog in order.
    mutating func pump(mayGoAhead: Bool) async {
        guard let client, state == .connected else { return }
        let room = window.limit - window.inFlight
        guard room > 0 else { return }
        let items: [UplinkItem]
        do {
            items = try await service.log.uplinkItems(after: window.read, limit: room)
        } catch {
            logger.warning("uplink cannot read the log", metadata: ["error": "\(error)"])
            return
        }
        behind = items.count == room
        lastReadEmpty = items.isEmpty
        if mayGoAhead && behind, let newest = try? await service.log.newestUplinkPoint(),
           window.mayGoAhead(newest.position), !items.contains(where: { $0.position == newest.position }) {
            guard send(newest, with: client, ahead: true) else { return }
        }
        for item in items where window.take(item.position) {
            guard send(item, with: client, ahead: false) else { return }
        }
    }

    /// Publishes one item; `false` when the client refused it (the connection is going: its event follows).
    ///
    /// A trip's end goes after its start as the log keeps it now, when that is not the start message this life
    /// published (or it published none): the same id, so that a receiver replaces the start it has (docs/fleet.md,
    /// "A start that settles").
    mutating func send(_ item: UplinkItem, with client: MQTTClient, ahead: Bool) -> Bool {
        if case .tripEnded(let trip) = item, trip.source == .gps, trip.state != .deleted {
            let start = UplinkMessage(.tripStarted(trip), device: device)
            if let payload = try? encoder.encode(start), sentStarts[trip.id] != Array(payload) {
                do throws(MQTTError) {
                    _ = try client.publish(topic: start.topic(base: configuration.baseTopic(device: device)),
                                           payload: Array(payload))
                    logger.debug("uplink sent a trip's settled start", metadata: ["trip": "\(trip.id)"])
                } catch {
                    logger.warning("uplink cannot publish", metadata: ["error": "\(error)"])
                    return false
                }
            }
        }
        let message = UplinkMessage(item, device: device)
        let topic = message.topic(base: configuration.baseTopic(device: device))
        guard let payload = try? encoder.encode(message) else { return true }
        do throws(MQTTError) {
            let token = try client.publish(topic: topic, payload: Array(payload))
            window.published(item.position, token: token, ahead: ahead)
            switch item {
            case .point(let point, _, _):
                locationBytes += topic.utf8.count + payload.count
                locations += 1
                pointTimes[token] = point.time
            case .tripStarted(let trip):
                sentStarts[trip.id] = Array(payload)
            case .tripEnded(let trip):
                sentStarts[trip.id] = nil
            case .event:
                break
            }
            return true
        } catch {
            logger.warning("uplink cannot publish", metadata: ["error": "\(error)"])
            return false
        }
    }

    /// libmosquitto's options for the present settings: the last will says `offline` on the state topic.
    func options() -> MQTTOptions {
        var options = MQTTOptions(host: broker.host, port: broker.port, clientID: device,
                                  keepAlive: Int(configuration.keepAlive), tls: broker.tls,
                                  caFile: configuration.caFile, certFile: configuration.certFile,
                                  keyFile: configuration.keyFile, username: configuration.username,
                                  password: settings.password, sendMaximum: configuration.window)
        options.willTopic = stateTopic
        options.willPayload = "offline"
        return options
    }

    /// Writes the watermark when it moved and `watermarkInterval` has passed (or `force`).
    mutating func save(force: Bool = false) async {
        do {
            try await watermark.save(window.acknowledged, interval: configuration.watermarkInterval,
                                     now: service.clock(), force: force)
        } catch {
            logger.warning("uplink cannot keep its watermark", metadata: ["error": "\(error)"])
        }
    }

    /// Counts the backlog now and then (a count over the track) and writes the snapshot `status` shows.
    mutating func publishStatus(now: MonotonicInstant) async {
        if backlogCountedAt.map({ now.seconds(since: $0) >= 5 }) ?? true {
            backlogPoints = (try? await service.log.uplinkBacklog(after: window.acknowledged)) ?? backlogPoints
            backlogCountedAt = now
        }
        let average = locations > 0 ? locationBytes / locations : 200
        service.status.record(uplink: UplinkStatus(
            state: state, broker: broker.description, detail: detail, stateAge: now.seconds(since: stateSince),
            lastAcknowledged: window.acknowledged == .origin ? nil
                : window.acknowledged.lastMessageID(device: device), lastAcknowledgedTime: lastAcknowledgedTime,
            backlogPoints: backlogPoints, backlogBytes: backlogPoints * average, inFlight: window.inFlight,
            acknowledged: acknowledgedCount), at: now)
    }

    mutating func set(_ newState: UplinkStatus.State, detail: String?) {
        if newState != state { stateSince = service.clock() }
        state = newState
        self.detail = detail
    }

    /// At a stop: the watermark kept, the car said to be offline, the connection closed.
    mutating func finish() async {
        await save(force: true)
        if state == .connected, let client {
            _ = try? client.publish(topic: stateTopic, payload: Array("offline".utf8), retain: true)
        }
        client?.close()
        client = nil
        logger.info("uplink stopped", metadata: ["acknowledged": "\(acknowledgedCount)", "in_flight": "\(window.inFlight)"])
    }
}
