import Logging
import ServiceLifecycle
import Synchronization
import TestSupport
import Testing
import TrackCore
import TrackInput
@testable import TrackService
import TrackStore

/// The daemon's shutdown rule (`DaemonServices`) with the real tracker and source services (on a stand-in receiver)
/// and stand-ins for the four others: the tracker's end ends the group when the input ends by itself, every other
/// service runs until asked, the group asks in the reverse of the start order, and nobody returns out of turn.
struct DaemonServicesTests {
    /// The order in which the services stopped.
    private final class StopOrder: Sendable {
        private let names = Mutex<[String]>([])
        func note(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }
    }

    /// Runs until asked to stop, as every service but the tracker must.
    private struct UntilAsked: Service {
        let name: String
        let order: StopOrder

        func run() async throws {
            try? await gracefulShutdown()
            order.note(name)
        }
    }

    /// Returns at once, breaking the rule.
    private struct EndsEarly: Service {
        func run() async throws {}
    }

    /// A receiver that says nothing until it is stopped (a serial port), or ends by itself (a recording).
    private struct StandInReceiver: FixSource {
        let endsByItself: Bool
        var description: String { "stand-in receiver" }

        func run(_ deliver: @escaping @Sendable (SourceEvent) -> Void) async throws {
            deliver(.state(.connected("stand-in")))
            if endsByItself {
                deliver(.state(.ended))
                return
            }
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(60)) }
        }
    }

    /// Wraps a service: notes its return, a moment after it comes, as a source that is slow to return after it has
    /// ended the tracker's inbox (which the tracker may beat).
    private struct Noted: Service {
        let name: String
        let service: any Service
        let order: StopOrder
        var slowToReturn = false

        func run() async throws {
            try await service.run()
            if slowToReturn { try? await Task.sleep(for: .milliseconds(50)) }
            order.note(name)
        }
    }

    /// The six in trackd's order, with the real tracker and source.
    private func daemon(order: StopOrder, receiverEnds: Bool = false, control: (any Service)? = nil,
                        uplink: (any Service)? = nil, monthlyMail: (any Service)? = nil) -> ServiceGroup {
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let inbox = TrackerInbox()
        let tracker = TrackerService(inbox: inbox, status: LiveStatus(address: "stand-in", now: MonotonicClock.now()),
                                     hub: WatchHub(), address: "stand-in", logger: logger)
        let source = SourceService(source: StandInReceiver(endsByItself: receiverEnds), inbox: inbox, logger: logger)
        return DaemonServices.group(
            control: control ?? UntilAsked(name: "control", order: order),
            alerts: UntilAsked(name: "alerts", order: order),
            uplink: uplink, monthlyMail: monthlyMail,
            reload: UntilAsked(name: "reload", order: order),
            tracker: Noted(name: "tracker", service: tracker, order: order),
            source: Noted(name: "source", service: source, order: order, slowToReturn: true),
            systemd: UntilAsked(name: "systemd", order: order),
            signals: [], logger: logger)
    }

    @Test func aStopAsksTheServicesInTheReverseOfTheirStartOrderAndSucceeds() async throws {
        // The source ends the tracker's inbox and then takes a moment to return; the tracker, with no trip to close,
        // is done at once. It waits for its turn (it returned first, and trackd exited 1, before).
        for _ in 0..<10 {
            let order = StopOrder()
            let group = daemon(order: order)
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
            #expect(order.all == ["systemd", "source", "tracker", "reload", "alerts", "control"])
        }
    }

    @Test func theEndOfTheInputEndsTheTrackerWhichStopsTheOthersInOrder() async throws {
        let order = StopOrder()
        let group = daemon(order: order, receiverEnds: true)
        try await group.run()
        #expect(order.all == ["tracker", "systemd", "source", "reload", "alerts", "control"])
    }

    @Test func theMonthlyMailRunsUntilAskedAndStopsAfterReloadsBeforeTheUplink() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        var configuration = MailConfiguration()
        configuration.to = [try MailAddress("driver@example.org")]
        configuration.checkInterval = 1
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let service = try #require(MonthlyMailService(
            configuration: configuration, log: log, status: LiveStatus(address: "stand-in", now: MonotonicClock.now()),
            domain: "example.org", logger: logger))
        configuration.monthly = false
        #expect(MonthlyMailService(configuration: configuration, log: log,
                                   status: LiveStatus(address: "stand-in", now: MonotonicClock.now()),
                                   domain: "example.org", logger: logger) == nil, "monthly: false runs no service")
        let order = StopOrder()
        let group = daemon(order: order, uplink: UntilAsked(name: "uplink", order: order),
                           monthlyMail: Noted(name: "monthly mail", service: service, order: order))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(order.all == ["systemd", "source", "tracker", "reload", "monthly mail", "uplink", "alerts", "control"])
    }

    @Test func aServiceThatEndsBeforeItIsAskedIsNamedAndTheOthersStillStopInOrder() async throws {
        let order = StopOrder()
        let group = daemon(order: order, control: EndsEarly())
        await #expect(throws: DaemonServicesError.endedBeforeAsked(service: "control")) {
            try await group.run()
        }
        #expect(order.all == ["systemd", "source", "tracker", "reload", "alerts"])
    }
}
