import Logging
import ServiceLifecycle
import UnixSignals

/// The daemon's services and the one rule by which they stop.
///
/// **The tracker alone may end the daemon**: when its input ends by itself (the end of a recording, a source that
/// cannot run), it closes the trip and returns, and its return shuts the group down. **Every other service runs
/// until the group asks it to stop**, then finishes its own work and returns; none returns before (a part with
/// nothing left to do, such as a recording that ended or alerts that stopped coming, waits for the request). When
/// trackd is stopping, the tracker too returns on its own turn: the source, asked before it, ends its inbox, and
/// the tracker closes the trip at once but returns only when asked, never ahead of the source. `ServiceGroup` counts
/// a service that returns before it is asked as a failure: trackd exited 1 on a plain SIGTERM whenever the tracker,
/// with no trip to close, returned before a service asked ahead of it. A service that breaks the rule is named
/// (`DaemonServicesError`) instead.
///
/// The group asks in the reverse of the start order: systemd hears `STOPPING=1`; the source stops reading and ends
/// the inbox; the tracker handles what is queued, closes the running trip at its last fix and commits; reloads
/// end; the monthly mail stops looking at the calendar (a sending under way is stopped and not recorded); the uplink
/// keeps its watermark and says the car is offline; the alert command's service ends; the control socket, which
/// answers until then, goes last. A service that
/// throws stops the group in the same order (the trip is closed as at any stop) and trackd exits 1 with its error.
/// A second SIGTERM or SIGINT during that stop changes nothing: the stop is already under way.
public struct DaemonServices: Sendable {
    public var control: ControlServer
    public var alerts: AlertService
    /// The uplink to a broker, when one is configured.
    public var uplink: UplinkService?
    /// The uplink to a Traccar server, when one is configured.
    public var osmand: OsmAndService?
    /// The month's report by e-mail, when addresses are configured and `monthly` is on.
    public var monthlyMail: MonthlyMailService?
    public var reload: ReloadService
    public var tracker: TrackerService
    public var source: SourceService
    /// The OBD-II adapter (configured now or by a later reload).
    public var obd: OBDService?
    public var systemd: SystemdService

    public init(control: ControlServer, alerts: AlertService, uplink: UplinkService? = nil, osmand: OsmAndService? = nil,
                monthlyMail: MonthlyMailService? = nil, reload: ReloadService, tracker: TrackerService,
                source: SourceService, obd: OBDService? = nil, systemd: SystemdService) {
        self.obd = obd
        self.uplink = uplink
        self.osmand = osmand
        self.monthlyMail = monthlyMail
        self.control = control
        self.alerts = alerts
        self.reload = reload
        self.tracker = tracker
        self.source = source
        self.systemd = systemd
    }

    /// The signals that stop trackd in order: SIGTERM (systemd, `kill`) and SIGINT (Ctrl-C).
    public static let stopSignals: [UnixSignal] = [.sigterm, .sigint]

    /// The group that runs them, stopped in order by `stopSignals`.
    public func group(logger: Logger) -> ServiceGroup {
        Self.group(control: control, alerts: alerts, uplink: uplink, osmand: osmand, monthlyMail: monthlyMail,
                   reload: reload, tracker: tracker, source: source, obd: obd, systemd: systemd,
                   signals: Self.stopSignals, logger: logger)
    }

    /// The group for these services, in start order (it stops them in reverse), keeping the rule: the tracker ends
    /// it by returning, the others run until asked to stop.
    static func group(control: any Service, alerts: any Service, uplink: (any Service)? = nil,
                      osmand: (any Service)? = nil, monthlyMail: (any Service)? = nil, reload: any Service,
                      tracker: any Service, source: any Service, obd: (any Service)? = nil, systemd: any Service,
                      signals: [UnixSignal], logger: Logger) -> ServiceGroup {
        let services = [
            runsUntilAsked(control, "control"),
            runsUntilAsked(alerts, "alerts"),
            uplink.map { runsUntilAsked($0, "uplink") },
            osmand.map { runsUntilAsked($0, "osmand") },
            monthlyMail.map { runsUntilAsked($0, "monthly mail") },
            runsUntilAsked(reload, "reload"),
            .init(service: tracker, successTerminationBehavior: .gracefullyShutdownGroup,
                  failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: "tracker"),
            runsUntilAsked(source, "source"),
            obd.map { runsUntilAsked($0, "obd") },
            runsUntilAsked(systemd, "systemd"),
        ].compactMap { $0 }
        return ServiceGroup(configuration: ServiceGroupConfiguration(
            services: services, gracefulShutdownSignals: signals, logger: logger))
    }

    /// A service held to the rule: returning before the group asks is a failure, which stops the group in order.
    private static func runsUntilAsked(_ service: any Service, _ name: String) -> ServiceGroupConfiguration.ServiceConfiguration {
        .init(service: RunsUntilAsked(name: name, service: service),
              successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup,
              serviceName: name)
    }
}

/// A service that must not return before the group asks it to stop: if it does, that is an error.
private struct RunsUntilAsked: Service {
    let name: String
    let service: any Service

    func run() async throws {
        try await service.run()
        guard Task.isShuttingDownGracefully || Task.isCancelled else {
            throw DaemonServicesError.endedBeforeAsked(service: name)
        }
    }
}
