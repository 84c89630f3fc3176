import Logging
import ServiceLifecycle
import TrackCore
import TrackInput
import TrackStore
import TrackUplink

/// Sends the log to a Traccar server over its OsmAnd protocol (docs/fleet.md): one position per HTTP request, as
/// the protocol has it, each item of the log after the watermark in order, the watermark moved when the server
/// answered 200 and written every `watermarkInterval` seconds and at a stop (and after each batch to the runtime
/// mark in memory, `UplinkMarkFile`). With a backlog the newest position goes
/// first. A server that does not answer, or answers anything but 2xx, is tried again after a wait that doubles up
/// to `reconnectMax`, with jitter. The requests run on a thread of their own (libcurl blocks).
public struct OsmAndService: Service {
    let log: MileageLog
    let settings: LiveUplinkConfiguration
    let status: LiveStatus
    let logger: Logger
    let clock: @Sendable () -> MonotonicInstant
    /// The folder in memory (tmpfs) for the runtime mark (`UplinkMarkFile`); `nil`: the log's watermark alone.
    let markFolder: String?

    /// The log's name for this transport's watermark.
    static let transport = "osmand"
    /// Items read and posted in one go.
    static let batch = 50

    /// `nil` when the configuration names no OsmAnd server (one named by a later reload waits for the next start).
    public init?(log: MileageLog, settings: LiveUplinkConfiguration, status: LiveStatus, logger: Logger,
                 markFolder: String? = nil, clock: @escaping @Sendable () -> MonotonicInstant) {
        guard settings.values.configuration.osmand != nil else { return nil }
        self.markFolder = markFolder
        self.log = log
        self.settings = settings
        self.status = status
        self.logger = logger
        self.clock = clock
    }

    public func run() async throws {
        let (watermark, mark) = await UplinkWatermark.resume(log: log, transport: Self.transport,
                                                             markFolder: markFolder, logger: logger, now: clock())
        var session = OsmAndSession(service: self, watermark: watermark, mark: mark)
        let stopping = StopSignal()
        var poster: HTTPPoster?
        await withTaskCancellationOrGracefulShutdownHandler {
            while !stopping.isStopped {
                // The server as the settings say now (a reload may change it).
                session.settings = settings.values
                if let url = session.settings.configuration.osmand, poster?.url != url
                    || poster?.caFile != session.settings.configuration.caFile {
                    poster = try? HTTPPoster(url: url, caFile: session.settings.configuration.caFile)
                }
                guard let poster, session.settings.configuration.osmand != nil else {
                    try? await Task.sleep(for: .seconds(1))
                    continue
                }
                let wait = await session.step(poster: poster, stopping: stopping)
                // The wait, in tenths of a second, so that a stop does not wait for it.
                var left = wait
                while left > 0, !stopping.isStopped {
                    try? await Task.sleep(for: .milliseconds(Int64(min(left, 0.1) * 1000)))
                    left -= 0.1
                }
            }
        } onCancelOrGracefulShutdown: {
            stopping.stop()
        }
        // At a stop, what the log holds goes for a few seconds more (the trip's end, closed just then), while the
        // server answers; after a failure just before the stop, once more (the server may answer now).
        if let poster, session.state == .connected || session.state == .waiting {
            let deadline = ContinuousClock.now + .seconds(settings.values.configuration.drainTimeout)
            while ContinuousClock.now < deadline {
                // 0: a batch went and more waits; anything else: all sent, or a failure (no more tries then).
                guard await session.step(poster: poster, stopping: StopSignal(), deadline: deadline) == 0 else { break }
            }
        }
        await session.save(force: true)
        logger.info("OsmAnd uplink stopped", metadata: ["acknowledged": "\(session.acknowledgedCount)"])
    }
}

/// The OsmAnd uplink's state, owned by `OsmAndService.run` alone.
struct OsmAndSession {
    let service: OsmAndService
    /// The settings of the present step.
    var settings: LiveUplinkConfiguration.Values
    var url: String { settings.configuration.osmand ?? "" }
    var device: String { settings.device }
    var window: UplinkWindow
    var token: Int32 = 0
    var state = UplinkStatus.State.connecting
    var stateSince: MonotonicInstant
    var detail: String?
    var failures = 0
    var watermark: UplinkWatermark
    var acknowledgedCount = 0
    /// The GPS time of the newest position the server took.
    var lastAcknowledgedTime: UTCTime?
    var backlogPoints = 0
    var backlogCountedAt: MonotonicInstant?
    var bytes = 0
    var sent = 0

    init(service: OsmAndService, watermark: UplinkWatermark, mark: UplinkMark) {
        self.service = service
        settings = service.settings.values
        window = UplinkWindow(resuming: mark, limit: OsmAndService.batch + 1)
        stateSince = service.clock()
        self.watermark = watermark
    }

    /// Posts what the log holds after the watermark (a batch); the seconds to wait before the next step.
    mutating func step(poster: HTTPPoster, stopping: StopSignal, deadline: ContinuousClock.Instant? = nil) async -> Double {
        let items: [UplinkItem]
        do {
            items = try await service.log.uplinkItems(after: window.read, limit: OsmAndService.batch)
        } catch {
            service.logger.warning("OsmAnd uplink cannot read the log", metadata: ["error": "\(error)"])
            return 5
        }
        var forms: [(UplinkPosition, String?, ahead: Bool)] = []
        var newestTime: UTCTime?
        if items.count == OsmAndService.batch, let newest = try? await service.log.newestUplinkPoint(),
           window.mayGoAhead(newest.position), !items.contains(where: { $0.position == newest.position }) {
            forms.append((newest.position, OsmAndForm.encode(newest, device: device), true))
            if case .point(let point, _, _) = newest { newestTime = point.time }
        }
        for item in items { forms.append((item.position, OsmAndForm.encode(item, device: device), false)) }
        guard !forms.isEmpty else {
            await report()
            return 1
        }
        let times: [UTCTime?] = (forms.first?.ahead == true ? [newestTime] : []) + items.map { item in
            if case .point(let point, _, _) = item { return point.time }
            return nil
        }
        let posted = await post(forms, with: poster, stopping: stopping, deadline: deadline)
        for (index, form) in forms.prefix(posted.count).enumerated() {
            token &+= 1
            if form.ahead {
                window.published(form.0, token: token, ahead: true)
            } else if window.take(form.0) {
                window.published(form.0, token: token)
            } else {
                continue
            }
            window.acknowledge(token)
            acknowledgedCount += 1
            bytes += form.1?.utf8.count ?? 0
            if let time = times[index] { lastAcknowledgedTime = max(lastAcknowledgedTime ?? time, time) }
        }
        watermark.note(window.mark)
        await save()
        if let failure = posted.failure {
            window.reset()
            failures += 1
            let wait = settings.configuration.reconnectWait(afterFailures: failures)
            if state != .waiting {
                service.logger.warning("OsmAnd uplink cannot send", metadata: ["server": "\(url)",
                                                                                "error": "\(failure)"])
            }
            set(.waiting, detail: "\(failure); trying again in \(Int(wait.rounded(.up))) s")
            await report()
            return wait
        }
        if state != .connected {
            service.logger.info("OsmAnd uplink sending", metadata: ["server": "\(url)", "device": "\(device)"])
        }
        failures = 0
        set(.connected, detail: nil)
        await report()
        return posted.count == forms.count && items.count < OsmAndService.batch ? 1 : 0
    }

    /// Posts the forms in order on a thread of its own, up to the first that fails; how many went, and why not all.
    func post(_ forms: [(UplinkPosition, String?, ahead: Bool)], with poster: HTTPPoster,
              stopping: StopSignal, deadline: ContinuousClock.Instant? = nil) async -> (count: Int, failure: String?) {
        let bodies = forms.map(\.1)
        return (try? await BlockingThread.run(name: "trackd-osmand") { stop -> (Int, String?) in
            var count = 0
            for body in bodies {
                guard !stop.isStopped, !stopping.isStopped, deadline.map({ ContinuousClock.now < $0 }) ?? true else {
                    return (count, "stopping")
                }
                guard let body else {   // nothing to send for this item (a trip without a position)
                    count += 1
                    continue
                }
                do throws(HTTPError) {
                    let status = try poster.post(body)
                    guard (200..<300).contains(status) else { return (count, "the server answered \(status)") }
                    count += 1
                } catch {
                    return (count, "\(error)")
                }
            }
            return (count, nil)
        }) ?? (0, "stopping")
    }

    /// Writes the watermark when it moved and `watermarkInterval` has passed (or `force`).
    mutating func save(force: Bool = false) async {
        do {
            try await watermark.save(window.acknowledged, interval: settings.configuration.watermarkInterval,
                                     now: service.clock(), force: force)
        } catch {
            service.logger.warning("OsmAnd uplink cannot keep its watermark", metadata: ["error": "\(error)"])
        }
    }

    mutating func set(_ newState: UplinkStatus.State, detail: String?) {
        if newState != state { stateSince = service.clock() }
        state = newState
        self.detail = detail
    }

    /// The snapshot `status` shows.
    mutating func report() async {
        let now = service.clock()
        if backlogCountedAt.map({ now.seconds(since: $0) >= 5 }) ?? true {
            backlogPoints = (try? await service.log.uplinkBacklog(after: window.acknowledged)) ?? backlogPoints
            backlogCountedAt = now
        }
        let average = acknowledgedCount > 0 ? bytes / acknowledgedCount : 150
        service.status.record(osmand: UplinkStatus(
            state: state, broker: url, detail: detail, stateAge: now.seconds(since: stateSince),
            lastAcknowledged: window.acknowledged == .origin ? nil : window.acknowledged.lastMessageID(device: device),
            lastAcknowledgedTime: lastAcknowledgedTime,
            backlogPoints: backlogPoints, backlogBytes: backlogPoints * average, inFlight: 0,
            acknowledged: acknowledgedCount), at: now)
    }
}
