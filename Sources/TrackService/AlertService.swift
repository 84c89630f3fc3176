import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import TrackCore

/// Runs the configured `alert_command` (a buzzer, an LED) on each idle alert: the program itself, never through a
/// shell, with the alert in its environment, stopped after `timeout` seconds. It watches the hub like any watcher,
/// so the tracker never waits for it; an alert that comes while the program still runs is logged, not queued.
/// The command and timeout are read at each alert, so a reload takes effect at the next one.
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

    private func run(_ command: [String], timeout: Double, for alert: IdleAlert) async {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(AlertService.environment(for: alert)) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        let box = ProcessBox(process)
        let exited = AsyncStream<Int32>.makeStream(bufferingPolicy: .bufferingNewest(1))
        process.terminationHandler = { finished in
            exited.continuation.yield(finished.terminationStatus)
            exited.continuation.finish()
        }
        do {
            try process.run()
        } catch {
            logger.error("cannot run the alert command", metadata: ["command": "\(command[0])", "error": "\(error)"])
            return
        }
        let status: Int32? = await withTaskGroup(of: Int32?.self) { group in
            group.addTask {
                var iterator = exited.stream.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(Int64(timeout * 1000)))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if let status {
            if status == 0 {
                logger.info("alert command ran", metadata: ["command": "\(command[0])", "trip": "\(alert.tripNumber)"])
            } else {
                logger.warning("alert command failed", metadata: ["command": "\(command[0])", "status": "\(status)"])
            }
            return
        }
        logger.warning("alert command stopped after its timeout", metadata: ["command": "\(command[0])", "timeout_s": "\(timeout)"])
        await box.stop()
    }
}

/// A started program, to be stopped from another task: SIGTERM, then SIGKILL if it is still there a second later.
private final class ProcessBox: @unchecked Sendable {
    private let process: Process

    init(_ process: Process) {
        self.process = process
    }

    func stop() async {
        let pid = process.processIdentifier
        kill(pid, SIGTERM)
        try? await Task.sleep(for: .seconds(1))
        if process.isRunning { kill(pid, SIGKILL) }
    }
}

/// Whether an alert command runs now.
private final class RunningFlag: Sendable {
    private let running = Atomic<Bool>(false)

    /// Marks a run as started; `false` when one already runs.
    func claim() -> Bool { !running.exchange(true, ordering: .relaxed) }

    func release() { running.store(false, ordering: .relaxed) }
}
