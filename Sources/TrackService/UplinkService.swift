import FoundationEssentials
import Logging
import ServiceLifecycle
import TrackCore
import TrackStore
import TrackUplink

/// Sends the log to an MQTT broker (docs/fleet.md): the log is the outbox. Items are read from the log after the
/// watermark, oldest first, published at QoS 1 in a window of `window` messages, and the watermark moves only over
/// what the broker acknowledged (`UplinkWindow`); it is written to the log every `watermarkInterval` seconds and at
/// a stop, and at every acknowledgement to the runtime mark in memory, so that a restart sends again only what was
/// in flight, and a power cut at most what was in flight or acknowledged since the last write. With a backlog, the newest
/// position goes first, then the backlog. A lost connection is tried again after a wait that doubles up to
/// `reconnectMax`, with jitter. The service owns its state alone; `status` gets a snapshot.
public struct UplinkService: Service {
    let log: MileageLog
    let settings: LiveUplinkConfiguration
    let status: LiveStatus
    let logger: Logger
    let clock: @Sendable () -> MonotonicInstant
    /// The folder in memory (tmpfs) for the runtime mark (`UplinkMarkFile`); `nil`: the log's watermark alone.
    let markFolder: String?

    /// The log's name for this transport's watermark.
    static let transport = "mqtt"

    /// `nil` when the configuration names no broker (a broker named by a later reload waits for the next start).
    public init?(log: MileageLog, settings: LiveUplinkConfiguration, status: LiveStatus, logger: Logger,
                 markFolder: String? = nil, clock: @escaping @Sendable () -> MonotonicInstant) {
        guard settings.values.configuration.mqtt != nil else { return nil }
        self.markFolder = markFolder
        self.log = log
        self.settings = settings
        self.status = status
        self.logger = logger
        self.clock = clock
    }

    /// What the service's loop takes, in order.
    enum Input: Sendable {
        case mqtt(MQTTEvent, connection: Int)
        case tick
        case stop
    }

    public func run() async throws {
        let (inputs, continuation) = AsyncStream<Input>.makeStream()
        let (watermark, mark) = await UplinkWatermark.resume(log: log, transport: Self.transport,
                                                             markFolder: markFolder, logger: logger, now: clock())
        var session = UplinkSession(service: self, watermark: watermark, mark: mark, inputs: continuation)
        let configuration = settings.values.configuration
        await withTaskCancellationOrGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(1))
                        continuation.yield(.tick)
                    }
                }
                await session.start()
                var drainUntil: MonotonicInstant?
                for await input in inputs {
                    if case .stop = input {
                        // What the log holds is sent for a few seconds more (the trip's end, closed just now).
                        guard session.state == .connected else { break }
                        drainUntil = clock().adding(seconds: configuration.drainTimeout)
                    }
                    await session.handle(input)
                    if let drainUntil, session.isDrained || clock() >= drainUntil || session.state != .connected { break }
                }
                group.cancelAll()
            }
        } onCancelOrGracefulShutdown: {
            continuation.yield(.stop)
        }
        await session.finish()
    }

}
