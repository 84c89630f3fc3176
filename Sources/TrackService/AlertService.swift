import Logging
import ServiceLifecycle
import Synchronization
import TrackCore

/// Runs the configured `alert_command` (a buzzer, an LED) on each idle alert: the program itself, never through a
/// shell, with the alert in its environment, in a process group of its own that is stopped, whole, after `timeout`
/// seconds (`AlertCommandRun`). It watches the hub like any watcher, so the tracker never waits for it; an alert
/// that comes while the program (or what it started) still runs is logged, not queued. The command and timeout are
/// read at each alert, so a reload takes effect at the next one.
public struct AlertService: Service {
    private let hub: WatchHub
    private let settings: AlertSettings
    private let logger: Logger

    public init(hub: WatchHub, settings: AlertSettings, logger: Logger) {
        self.hub = hub
        self.settings = settings
        self.logger = logger
    }

    public func run() async {
        let (id, events) = hub.subscribe(to: .alerts)
        defer { hub.unsubscribe(id) }
        let running = RunningFlag()
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                for await event in events {
                    guard case .alert(let alert) = event else { continue }
                    let values = settings.values
                    guard !values.command.isEmpty else { continue }
                    guard running.claim() else {
                        logger.warning("alert command still running; this alert does not start it again",
                                       metadata: ["trip": "\(alert.tripNumber)"])
                        continue
                    }
                    group.addTask {
                        await self.run(values.command, timeout: values.timeout, for: alert)
                        running.release()
                    }
                }
            }
        }
        // The events end when the tracker finishes (hub.finishAll()), which at a shutdown is before this service's
        // turn. Returning then is, to ServiceGroup, a service finishing unexpectedly during the graceful shutdown:
        // trackd exited 1 on about one SIGTERM in five. So the service ends on its own turn (or when cancelled).
        try? await gracefulShutdown()
    }

    /// The alert as environment variables for the program.
    static func environment(for alert: IdleAlert) -> [String: String] {
        var variables = [
            "TRACKD_EVENT": "idle-alert",
            "TRACKD_TRIP_ID": "\(alert.tripNumber)",
            "TRACKD_STATIONARY_SINCE": alert.stationarySince.iso8601(),
            "TRACKD_ALERT_TIME": alert.time.iso8601(),
        ]
        if let position = alert.position {
            variables["TRACKD_LATITUDE"] = "\(position.latitude)"
            variables["TRACKD_LONGITUDE"] = "\(position.longitude)"
        }
        return variables
    }

    /// Runs the command for one alert (`AlertCommandRun`) and says in the journal how it went, with its output.
    private func run(_ command: [String], timeout: Double, for alert: IdleAlert) async {
        let outcome = await AlertCommandRun(command: command, environment: AlertService.environment(for: alert),
                                            timeout: timeout).run()
        var metadata: Logger.Metadata = ["command": "\(command[0])", "trip": "\(alert.tripNumber)"]
        if !outcome.output.isEmpty {
            metadata["output"] = "\(outcome.output)\(outcome.outputCut > 0 ? " … (\(outcome.outputCut) more bytes not kept)" : "")"
        }
        switch outcome.ending {
        case .exited(0):
            logger.info("alert command ran", metadata: metadata)
        case .exited(let status):
            metadata["status"] = "\(status)"
            logger.warning("alert command failed", metadata: metadata)
        case .killed(let signal):
            metadata["signal"] = "\(signal)"
            logger.warning("alert command failed", metadata: metadata)
        case .timedOut:
            metadata["timeout_s"] = "\(timeout)"
            logger.warning("alert command stopped after its timeout", metadata: metadata)
        case .stopped:
            logger.notice("alert command stopped: trackd is stopping", metadata: metadata)
        case .cannotStart(let reason):
            metadata["error"] = "\(reason)"
            logger.error("cannot run the alert command", metadata: metadata)
        }
        if outcome.stoppedLeftovers {
            logger.warning("what the alert command left running was stopped at its timeout",
                           metadata: ["command": "\(command[0])", "timeout_s": "\(timeout)"])
        }
    }
}

/// Whether an alert command runs now.
private final class RunningFlag: Sendable {
    private let running = Atomic<Bool>(false)

    /// Marks a run as started; `false` when one already runs.
    func claim() -> Bool { !running.exchange(true, ordering: .relaxed) }

    func release() { running.store(false, ordering: .relaxed) }
}
